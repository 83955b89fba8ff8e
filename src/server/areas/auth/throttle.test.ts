/**
 * Sign-in throttling beyond generateToken's own answers (auth.test.ts): the lockout in history
 * once, the slowdown on a username guessed from many sources, the count shared by two instances on
 * one database, the retention sweep, TRUST_PROXY, source addresses, and the default
 * administrator's unlock (community/users/<user>/unlockSignIn).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { buildApp } from '../../app.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { runRetentionSweeps } from '../../jobs/retention.ts';
import { openDb, type Db } from '../../store/db.ts';
import { blockedUntil, slowdownMs, sourceOf } from './throttle.ts';

const T0 = Date.UTC(2026, 2, 1, 8, 0, 0);
let now = T0;
const clock = { now: () => now };
let svc: TestService;
const tokens: Record<string, string> = {};
/** A custom role holding only portal:admin:updateUsers (and viewUsers, to see the member). */
const HELPDESK = 'rHELPDESKAAAAAAA';

beforeAll(async () => {
  svc = await startService({ clock });
  await svc.db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
    svc.orgId,
    HELPDESK,
    'Helpdesk',
    '',
    ['portal:admin:viewUsers', 'portal:admin:updateUsers'],
  ]);
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, 'helpdesk1', password_hash, 'Help Desk', 'h@example.com', 'org_admin', $3, 0, 0 FROM users WHERE username = 'user1'`,
    [randomUUID().replaceAll('-', ''), svc.orgId, HELPDESK],
  );
  for (const u of ['admin', 'helpdesk1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());
beforeEach(() => {
  now = T0;
});

const LOCKED = /^Too many invalid sign-in attempts/;

function signInVia(app: FastifyInstance, username: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username, password, f: 'json' }, remoteAddress, headers });
}
const signIn = (username: string, password: string, remoteAddress: string) => signInVia(svc.app, username, password, remoteAddress);
const detail = async (res: ReturnType<typeof signIn>) => ((await res).json().error?.details?.[0] as string | undefined) ?? 'signed in';

async function failures(username: string, reason: string): Promise<number> {
  const [{ n }] = await svc.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM events WHERE operation = 'failedSignin' AND subject_id = $1 AND data->>'reason' = $2`,
    [username, reason],
  );
  return Number(n);
}

describe('the lockout in history', () => {
  it('is recorded once when a source begins to wait, not for each refused attempt', async () => {
    const S = '127.0.1.20';
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) await signIn('viewer1', 'bad-password-1', S);
    for (let i = 0; i < 5; i++) expect(await detail(signIn('viewer1', DEMO_PASSWORD, S))).toMatch(LOCKED);
    expect(await failures('viewer1', 'password')).toBe(LIMITS.failedSignInsBeforeLock);
    expect(await failures('viewer1', 'locked')).toBe(1);
    const [locked] = await svc.db.query<{ data: { lockedUntil: number } }>(
      `SELECT data FROM events WHERE operation = 'failedSignin' AND subject_id = 'viewer1' AND data->>'reason' = 'locked'`,
    );
    expect(locked.data.lockedUntil).toBe(T0 + LIMITS.firstLockSeconds * 1000);
    // The next wait (after one more failure once this one is over) is a lockout of its own.
    now = T0 + LIMITS.firstLockSeconds * 1000;
    await signIn('viewer1', 'bad-password-1', S);
    expect(await failures('viewer1', 'locked')).toBe(2);
    now += 2 * LIMITS.firstLockSeconds * 1000;
    expect(await detail(signIn('viewer1', DEMO_PASSWORD, S))).toBe('signed in');
  });
});

describe('a username guessed from many sources', () => {
  it('is slowed a little for everyone, never refused, and a right password starts the count again', async () => {
    const guesses = LIMITS.signInSlowAfterFailures + 1;
    for (let i = 0; i < guesses; i++) expect(await detail(signIn('publisher1', 'bad-password-1', `127.0.2.${100 + i}`))).toBe('Invalid username or password.');
    const started = performance.now();
    expect(await detail(signIn('publisher1', DEMO_PASSWORD, '127.0.3.200'))).toBe('signed in');
    expect(performance.now() - started).toBeGreaterThanOrEqual(slowdownMs(guesses) - 20);
    const rows = await svc.db.query(`SELECT 1 FROM sign_in_throttle WHERE username = 'publisher1' AND source = ''`);
    expect(rows).toEqual([]);
  });

  it('slowdown and backoff follow the documented numbers', () => {
    expect(slowdownMs(LIMITS.signInSlowAfterFailures - 1)).toBe(0);
    expect(slowdownMs(LIMITS.signInSlowAfterFailures)).toBe(100);
    expect(slowdownMs(LIMITS.signInSlowAfterFailures + 2)).toBe(400);
    expect(slowdownMs(1000)).toBe(LIMITS.signInSlowMaxMs);
    expect(blockedUntil(0, LIMITS.failedSignInsBeforeLock - 1, LIMITS.failedSignInsBeforeLock)).toBe(0);
    expect(blockedUntil(0, LIMITS.failedSignInsBeforeLock, LIMITS.failedSignInsBeforeLock)).toBe(LIMITS.firstLockSeconds * 1000);
    expect(blockedUntil(0, LIMITS.failedSignInsBeforeLock + 3, LIMITS.failedSignInsBeforeLock)).toBe(8 * LIMITS.firstLockSeconds * 1000);
    expect(blockedUntil(0, 10_000, LIMITS.failedSignInsBeforeLock)).toBe(LIMITS.maxLockSeconds * 1000);
  });
});

describe('several instances on one database', () => {
  let second: FastifyInstance;
  let secondDb: Db | undefined;
  beforeAll(async () => {
    // On PostgreSQL a second connection, as another process would have; the embedded database
    // belongs to one process, so there the second app shares its handle.
    if (svc.config.databaseUrl) secondDb = await openDb({ dataDir: ':memory:', databaseUrl: svc.config.databaseUrl });
    second = await buildApp({ db: secondDb ?? svc.db, config: svc.config, clock });
  });
  afterAll(async () => {
    await second.close();
    await secondDb?.close();
  });

  it('share the counts: failures on one make the source wait on the other', async () => {
    const S = '127.0.1.30';
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) {
      const app = i % 2 ? second : svc.app;
      expect((await signInVia(app, 'user1', `guess-${i}-pw`, S)).json().error.details[0]).toBe('Invalid username or password.');
    }
    expect((await signInVia(second, 'user1', DEMO_PASSWORD, S)).json().error.details[0]).toMatch(LOCKED);
    expect((await signInVia(svc.app, 'user1', DEMO_PASSWORD, S)).json().error.details[0]).toMatch(LOCKED);
    // An unlock on one lifts the wait on both.
    expect(await svc.post('community/users/user1/unlockSignIn', {}, tokens.admin)).toMatchObject({ success: true, sourcesUnlocked: 1 });
    expect((await signInVia(second, 'user1', DEMO_PASSWORD, S)).json().token).toEqual(expect.any(String));
  });
});

describe('community/users/<user>/unlockSignIn', () => {
  const unlock = (username: string, token: string) => svc.post(`community/users/${username}/unlockSignIn`, {}, token);

  it('lets a default administrator lift every wait on a member, and is in history', async () => {
    for (const S of ['127.0.1.40', '127.0.1.41']) for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) await signIn('publisher1', 'bad-password-1', S);
    expect(await detail(signIn('publisher1', DEMO_PASSWORD, '127.0.1.40'))).toMatch(LOCKED);
    expect(await unlock('PUBLISHER1', tokens.admin)).toEqual({ success: true, username: 'publisher1', sourcesUnlocked: 2 });
    expect(await detail(signIn('publisher1', DEMO_PASSWORD, '127.0.1.40'))).toBe('signed in');
    expect(await detail(signIn('publisher1', 'bad-password-1', '127.0.1.41'))).toBe('Invalid username or password.');
    const [e] = await svc.db.query<{ op: string; username: string; data: unknown }>(
      `SELECT op, username, data FROM events WHERE operation = 'unlockSignIn' AND subject_id = 'publisher1'`,
    );
    expect(e).toEqual({ op: 'updateUser', username: 'admin', data: { signIn: 'unlocked', sourcesUnlocked: 2 } });
    // Nothing waiting: still a success.
    expect(await unlock('publisher1', tokens.admin)).toEqual({ success: true, username: 'publisher1', sourcesUnlocked: 0 });
  });

  it('is refused (403) to a custom role holding portal:admin:updateUsers, and changes nothing', async () => {
    const S = '127.0.1.42';
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) await signIn('user1', 'bad-password-1', S);
    const res = await unlock('user1', tokens.helpdesk1);
    expect(res.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    expect(res.error.details[0]).toContain('default administrator');
    expect(await detail(signIn('user1', DEMO_PASSWORD, S))).toMatch(LOCKED);
    expect((await svc.post('community/users/user1/unlockSignIn', {})).error.code).toBe(499);
  });

  it("does not reach another organization's member, nor one that does not exist", async () => {
    expect((await unlock('admin', tokens.partner_admin)).error).toMatchObject({ code: 400, message: "User 'admin' does not exist or is inaccessible." });
    expect((await unlock('nobody_here', tokens.admin)).error.code).toBe(400);
  });

  it('leaves a source that waits for every username waiting', async () => {
    const S = '127.0.1.43';
    for (let i = 0; i < LIMITS.failedSignInsPerSourceBeforeLock; i++) await signIn(`spray_${i}_x`, 'bad-password-1', S);
    expect(await unlock('viewer1', tokens.admin)).toMatchObject({ success: true });
    expect(await detail(signIn('viewer1', DEMO_PASSWORD, S))).toMatch(LOCKED);
  });
});

describe('storage', () => {
  it('forgets counts a day after their last failure (retention sweep), keeping the recent ones', async () => {
    await signIn('forgotten_name', 'bad-password-1', '127.0.1.50');
    now = T0 + LIMITS.signInFailuresForgottenHours * 3_600_000 - 1;
    await signIn('recent_name', 'bad-password-1', '127.0.1.51');
    now = T0 + LIMITS.signInFailuresForgottenHours * 3_600_000 + 1;
    await runRetentionSweeps(svc.app.portal, { pauseMs: 0 });
    const left = await svc.db.query<{ username: string }>(`SELECT DISTINCT username FROM sign_in_throttle WHERE username IN ('forgotten_name', 'recent_name')`);
    expect(left).toEqual([{ username: 'recent_name' }]);
  });
});

describe('sources', () => {
  it('are client addresses; IPv4-mapped as IPv4, IPv6 by /64', () => {
    expect(sourceOf('127.0.2.9')).toBe('127.0.2.9');
    expect(sourceOf('::ffff:127.0.2.9')).toBe('127.0.2.9');
    expect(sourceOf('2001:DB8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(sourceOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(sourceOf('64:ff9b:1:2:3:4:127.0.1.1')).toBe('64:ff9b:1:2::/64');
    expect(sourceOf(undefined)).toBe('unknown');
  });

  it('behind the proxies TRUST_PROXY names, are the forwarded client addresses', async () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.5, 127.1.0.0/16' }).trustProxy).toEqual(['127.0.0.5', '127.1.0.0/16']);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.local' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.0/33' })).toThrow(ConfigError);
    const behind = await buildApp({ db: svc.db, config: { ...svc.config, trustProxy: ['127.0.0.5'] }, clock });
    try {
      const viaProxy = (client: string, password: string) =>
        signInVia(behind, 'partner_admin', password, '127.0.0.5', { 'x-forwarded-for': client }).then((r) => r.json());
      for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) await viaProxy('127.0.1.60', 'bad-password-1');
      expect((await viaProxy('127.0.1.60', DEMO_PASSWORD)).error.details[0]).toMatch(LOCKED);
      expect((await viaProxy('127.0.1.61', DEMO_PASSWORD)).token).toEqual(expect.any(String));
      // A client that is not a trusted proxy cannot name another address.
      for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++)
        await signInVia(behind, 'partner_admin', 'bad-password-1', '127.0.1.62', { 'x-forwarded-for': `127.0.3.${i}` });
      expect((await signInVia(behind, 'partner_admin', DEMO_PASSWORD, '127.0.1.62', { 'x-forwarded-for': '127.0.3.99' })).json().error.details[0]).toMatch(
        LOCKED,
      );
    } finally {
      await behind.close();
    }
  });
});
