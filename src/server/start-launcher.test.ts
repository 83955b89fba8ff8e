/**
 * `npm start`'s launcher (scripts/start.mjs) skips the build check only while nothing the check reads
 * has changed since it last passed: a stale console or service bundle must never be started.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNeeded, recordCheck } from '../../scripts/start.mjs';

const FILES = [
  'src/server/main.ts',
  'src/client/main.tsx',
  'package-lock.json',
  'dist/client/index.html',
  'dist/server/main.cjs',
  'dist/db-template/manifest.json',
];
const env = {};
let dir: string;

/** Every file and folder under `p` last modified a minute ago. */
function age(p: string) {
  const then = new Date(Date.now() - 60_000);
  if (statSync(p).isDirectory()) for (const entry of readdirSync(p)) age(path.join(p, entry));
  utimesSync(p, then, then);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'start-check-'));
  for (const f of FILES) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), '');
  }
  age(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start: whether the build check runs', () => {
  it('runs when no check has passed yet', () => {
    expect(checkNeeded(dir, env)).toBe('no record of a passing build check');
  });

  it('is skipped after a passing check while nothing changed', () => {
    recordCheck(Date.now() - 30_000, dir, env);
    expect(checkNeeded(dir, env)).toBeUndefined();
  });

  it('runs when a source was edited, or deleted, after the check', () => {
    recordCheck(Date.now() - 30_000, dir, env);
    writeFileSync(path.join(dir, 'src/client/main.tsx'), 'changed');
    expect(checkNeeded(dir, env)).toBe('src changed since the last check');
    age(dir);
    expect(checkNeeded(dir, env)).toBeUndefined();
    rmSync(path.join(dir, 'src/server/main.ts'));
    expect(checkNeeded(dir, env)).toBe('src changed since the last check');
  });

  it('runs when the lock file changed (a dependency update)', () => {
    recordCheck(Date.now() - 30_000, dir, env);
    writeFileSync(path.join(dir, 'package-lock.json'), '{}');
    expect(checkNeeded(dir, env)).toBe('package-lock.json changed since the last check');
  });

  it('runs when an output the check left is gone', () => {
    recordCheck(Date.now() - 30_000, dir, env);
    rmSync(path.join(dir, 'dist/db-template'), { recursive: true });
    expect(checkNeeded(dir, env)).toBe(`${path.join('dist', 'db-template', 'manifest.json')} is missing`);
  });

  it('runs when the settings it decided by are different', () => {
    recordCheck(Date.now() - 30_000, dir, env);
    expect(checkNeeded(dir, { PASSWORD_LOG_N: '12' })).toBe('settings changed since the last check');
    expect(checkNeeded(dir, { PORTAL_ADMIN_PASSWORD: 'another password' })).toBe('settings changed since the last check');
    // The password's value is not kept, only whether one is given.
    recordCheck(Date.now() - 30_000, dir, { PORTAL_ADMIN_PASSWORD: 'another password' });
    expect(checkNeeded(dir, { PORTAL_ADMIN_PASSWORD: 'a third one' })).toBeUndefined();
  });
});
