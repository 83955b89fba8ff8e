/**
 * The routes of the areas whose authority is declared beside the contract (src/shared/contract/
 * operations.ts: members, roles, organization settings and new-member defaults, webhooks,
 * collaborations, items and their folders, sharing, relationships, dependencies and reassignment,
 * groups, tasks, history, OAuth apps, federated servers) take it from that table, the same entries
 * the console's can() reads: every such registered route's authority is one of the table's entries
 * (by identity, so a rule restated in a route fails), and every entry is some route's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/support/service.ts';
import { OPERATIONS, OPERATION_TABLES } from '../shared/contract/operations.ts';
import type { Authority } from '../shared/authority.ts';

/** The paths of those areas' operations (REST and portaladmin), as the routes declare them. */
const AREA_PATHS = [
  /^\/sharing\/rest\/portals\/:orgId\/(webhooks|roles|createRole|collaborations|userDefaultSettings|setUserDefaultSettings|users|updateUserRole|updateUserLicenseType|settings|update)(\/|$)/,
  /^\/sharing\/rest\/portals\/(regions|languages|:orgId|self\/users\/search)$/,
  /^\/sharing\/rest\/community\/(self|users(\/:username(\/(tags|update|disable|enable|delete|unlockSignIn))?)?)$/,
  /^\/portaladmin\/security\/users\/createUser$/,
  /^\/sharing\/rest\/content\//,
  /^\/sharing\/rest\/search$/,
  /^\/sharing\/rest\/community\/(createGroup|groups)(\/|$)/,
  /^\/sharing\/rest\/community\/users\/:username\/(createTask|tasks)(\/|$)/,
  /^\/sharing\/rest\/portals\/:orgId\/(allScheduledTasks|history|dependencies|servers)(\/|$)/,
  /^\/sharing\/rest\/oauth2\/(registerApp|apps\/|token)/,
  /^\/server\/:serverId\/admin\/services/,
];

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

  it("are the only authority those areas' routes declare, and each is a route's", () => {
    const entries = new Map<Authority, string>(Object.entries(OPERATIONS).map(([name, a]) => [a, name]));
    const routes = svc.app.operations.filter((op) => AREA_PATHS.some((re) => re.test(op.path)));
    expect(routes.length).toBeGreaterThan(120);
    const strays = routes.filter((op) => !entries.has(op.authority)).map((op) => op.path);
    expect(strays).toEqual([]);
    const used = new Set(routes.map((op) => entries.get(op.authority)));
    expect(Object.keys(OPERATIONS).filter((name) => !used.has(name))).toEqual([]);
  });
});
