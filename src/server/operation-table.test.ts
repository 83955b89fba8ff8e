/**
 * Every registered route takes its authority from the table declared beside the contract
 * (src/shared/contract/operations.ts), the same entries the console's can() reads: each route's
 * authority is one of the table's entries (by identity, so a rule restated in a route fails), and
 * every entry is some route's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/support/service.ts';
import { OPERATIONS, OPERATION_TABLES } from '../shared/contract/operations.ts';
import type { Authority } from '../shared/authority.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

describe('operations declared beside the contract', () => {
  it('name each operation once across the areas', () => {
    const names = Object.values(OPERATION_TABLES).flatMap((t) => Object.keys(t));
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(OPERATIONS)).toHaveLength(names.length);
  });

  it("are the only authority any registered route declares, and each is a route's", () => {
    const entries = new Map<Authority, string>(Object.entries(OPERATIONS).map(([name, a]) => [a, name]));
    const routes = svc.app.operations;
    expect(routes.length).toBeGreaterThan(150);
    const strays = routes.filter((op) => !entries.has(op.authority)).map((op) => op.path);
    expect(strays).toEqual([]);
    const used = new Set(routes.map((op) => entries.get(op.authority)));
    expect(Object.keys(OPERATIONS).filter((name) => !used.has(name))).toEqual([]);
  });
});
