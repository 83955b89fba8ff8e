import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { tokenHash } from '../../core/tokens.ts';

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);
let now = T0;
let svc: TestService;
beforeAll(async () => {
  svc = await startService({ clock: { now: () => now } });
});
afterAll(() => svc.close());
beforeEach(() => {
  now = T0;
});

const signIn = (username: string, password: string, extra: Record<string, string> = {}) =>
  svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username, password, f: 'json', ...extra } });

const self = (token: string) => svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${encodeURIComponent(token)}` });

const errorOf = (res: LightMyRequestResponse) => {
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.error, res.body).toBeDefined();
  return body.error;
};

const BAD_CREDENTIALS = { error: { code: 400, message: 'Unable to generate token.', details: ['Invalid username or password.'] } };

describe('generateToken', () => {
  it('answers {token, expires, ssl} for the right password', async () => {
    const res = await signIn('admin', DEMO_PASSWORD, { expiration: '30' });
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['expires', 'ssl', 'token']);
    expect(typeof body.token).toBe('string');
    expect(body.token.length).toBeGreaterThanOrEqual(32);
    expect(body.ssl).toBe(false);
    expect(body.expires).toBe(T0 + 30 * 60_000);
  });

  it('gives a new token on every sign-in', async () => {
    const a = (await signIn('admin', DEMO_PASSWORD)).json().token;
    const b = (await signIn('admin', DEMO_PASSWORD)).json().token;
    expect(a).not.toBe(b);
    expect((await self(a)).json().username).toBe('admin');
    expect((await self(b)).json().username).toBe('admin');
  });

  it('lasts the default time when no expiration is asked for', async () => {
    const body = (await signIn('admin', DEMO_PASSWORD)).json();
    expect(body.expires).toBe(T0 + LIMITS.defaultTokenExpirationMinutes * 60_000);
  });

  it('honours 20160 minutes (what rest-js asks for) and caps anything longer there', async () => {
    expect((await signIn('admin', DEMO_PASSWORD, { expiration: '20160' })).json().expires).toBe(T0 + 20160 * 60_000);
    expect((await signIn('admin', DEMO_PASSWORD, { expiration: '20161' })).json().expires).toBe(T0 + 20160 * 60_000);
    expect((await signIn('admin', DEMO_PASSWORD, { expiration: '5256000' })).json().expires).toBe(T0 + LIMITS.maxTokenExpirationMinutes * 60_000);
  });

  it('refuses an expiration that is not a positive whole number, naming it', async () => {
    for (const expiration of ['0', '-5', 'soon', '1.5']) {
      const err = errorOf(await signIn('admin', DEMO_PASSWORD, { expiration }));
      expect(err.code).toBe(400);
      expect(err.fieldErrors).toHaveProperty('expiration');
    }
  });

  it('takes the client and referer parameters rest-js sends', async () => {
    const res = await signIn('admin', DEMO_PASSWORD, { client: 'referer', referer: '@esri/arcgis-rest-js', expiration: '20160' });
    expect(res.json().token).toEqual(expect.any(String));
    const err = errorOf(await signIn('admin', DEMO_PASSWORD, { client: 'browser' }));
    expect(err.fieldErrors).toHaveProperty('client');
  });

  it('refuses a wrong password with code 400 "Unable to generate token."', async () => {
    const res = await signIn('user1', 'nope-nope-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(BAD_CREDENTIALS);
  });

  it('answers an unknown user exactly as a wrong password', async () => {
    const wrongPassword = await signIn('publisher1', 'not-the-password-1');
    const unknownUser = await signIn('nobody_here', 'not-the-password-1');
    expect(unknownUser.body).toBe(wrongPassword.body);
    expect(unknownUser.json()).toEqual(BAD_CREDENTIALS);
    // Reset publisher1's failure count for the tests after this one.
    await signIn('publisher1', DEMO_PASSWORD);
  });

  it('matches the username exactly (case-sensitive, as the Sharing API)', async () => {
    expect((await signIn('ADMIN', DEMO_PASSWORD)).json()).toEqual(BAD_CREDENTIALS);
  });

  it('refuses missing credentials, naming the parameter', async () => {
    const err = errorOf(await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { password: DEMO_PASSWORD, f: 'json' } }));
    expect(err.code).toBe(400);
    expect(err.fieldErrors).toEqual({ username: 'is required' });
  });

  it('records the sign-in time as lastLogin', async () => {
    now = T0 + 12_345;
    const token = (await signIn('viewer1', DEMO_PASSWORD)).json().token;
    expect((await self(token)).json().lastLogin).toBe(T0 + 12_345);
  });

  it('stores only a hash of the token', async () => {
    const token = (await signIn('user1', DEMO_PASSWORD)).json().token as string;
    const rows = await svc.db.query<Record<string, unknown>>('SELECT * FROM tokens');
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
    const mine = rows.filter((r) => r.token_hash === tokenHash(token));
    expect(mine).toHaveLength(1);
    expect(mine[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a disabled member, and a disabled member's tokens stop working", async () => {
    const token = (await signIn('viewer1', DEMO_PASSWORD)).json().token;
    await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'viewer1'`);
    try {
      expect(errorOf(await self(token)).code).toBe(498);
      const err = errorOf(await signIn('viewer1', DEMO_PASSWORD));
      expect(err).toMatchObject({ code: 400, message: 'Unable to generate token.' });
    } finally {
      await svc.db.query(`UPDATE users SET disabled = false WHERE username = 'viewer1'`);
    }
    expect((await self(token)).json().username).toBe('viewer1');
  });
});

describe('sign-in throttling', () => {
  const LOCKED = /^Too many invalid sign-in attempts/;
  // Each test signs in from addresses of its own (documentation ranges): counts are per source.
  const from = (username: string, password: string, remoteAddress: string) =>
    svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username, password, f: 'json' }, remoteAddress });

  it(`makes a source wait after ${LIMITS.failedSignInsBeforeLock} failures on one username, until the wait is over`, async () => {
    const S = '127.0.1.1';
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) expect((await from('publisher1', `wrong-${i}-pw`, S)).json()).toEqual(BAD_CREDENTIALS);

    // That source waits: even the right password is refused from it, and says why.
    const locked = errorOf(await from('publisher1', DEMO_PASSWORD, S));
    expect(locked.code).toBe(400);
    expect(locked.message).toBe('Unable to generate token.');
    expect(locked.details).toHaveLength(1);
    expect(locked.details[0]).toMatch(LOCKED);
    expect(locked.details[0]).toContain(`${LIMITS.firstLockSeconds} seconds`);

    now = T0 + (LIMITS.firstLockSeconds - 1) * 1000;
    expect(errorOf(await from('publisher1', DEMO_PASSWORD, S)).details[0]).toMatch(LOCKED);

    now = T0 + LIMITS.firstLockSeconds * 1000;
    expect((await from('publisher1', DEMO_PASSWORD, S)).json().token).toEqual(expect.any(String));
  });

  it("never shuts the owner out: a stranger's failures leave the owner's own address free", async () => {
    const stranger = '127.0.2.66';
    const owner = '127.0.3.44';
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock + 3; i++) await from('admin', `stranger-guess-${i}`, stranger);
    expect(errorOf(await from('admin', DEMO_PASSWORD, stranger)).details[0]).toMatch(LOCKED);
    // The first administrator signs in at once from elsewhere, and the stranger still waits.
    expect((await from('admin', DEMO_PASSWORD, owner)).json().token).toEqual(expect.any(String));
    expect(errorOf(await from('admin', DEMO_PASSWORD, stranger)).details[0]).toMatch(LOCKED);
  });

  it("resets a source's count on that username when it signs in", async () => {
    const S = '127.0.1.2';
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LIMITS.failedSignInsBeforeLock - 1; i++) expect((await from('user1', 'bad-password-1', S)).json()).toEqual(BAD_CREDENTIALS);
      expect((await from('user1', DEMO_PASSWORD, S)).json().token).toEqual(expect.any(String));
    }
    const rows = await svc.db.query(`SELECT 1 FROM sign_in_throttle WHERE username = 'user1' AND source = $1`, [S]);
    expect(rows).toEqual([]);
  });

  it('waits longer when failures go on after a wait (doubling), and does not count refused attempts', async () => {
    const S = '127.0.1.3';
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) await from('viewer1', 'bad-password-1', S);
    expect(errorOf(await from('viewer1', DEMO_PASSWORD, S)).details[0]).toMatch(LOCKED);
    // A wrong password while waiting does not count (and is told about the wait).
    expect(errorOf(await from('viewer1', 'bad-password-1', S)).details[0]).toMatch(LOCKED);

    now = T0 + LIMITS.firstLockSeconds * 1000;
    expect((await from('viewer1', 'bad-password-1', S)).json()).toEqual(BAD_CREDENTIALS);
    // Sixth failure: the wait doubles.
    expect(errorOf(await from('viewer1', DEMO_PASSWORD, S)).details[0]).toContain(`${2 * LIMITS.firstLockSeconds} seconds`);
    now += LIMITS.firstLockSeconds * 1000;
    expect(errorOf(await from('viewer1', DEMO_PASSWORD, S)).details[0]).toMatch(LOCKED);
    now += LIMITS.firstLockSeconds * 1000;
    expect((await from('viewer1', DEMO_PASSWORD, S)).json().token).toEqual(expect.any(String));
  });

  it('checks no more than the allowed number of passwords from a burst of parallel guesses', async () => {
    const S = '127.0.1.4';
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => from('publisher1', `parallel-guess-${i}`, S)));
    const details = burst.map((r) => errorOf(r).details[0] as string);
    expect(details.filter((d) => d === 'Invalid username or password.')).toHaveLength(LIMITS.failedSignInsBeforeLock);
    expect(details.filter((d) => LOCKED.test(d))).toHaveLength(12 - LIMITS.failedSignInsBeforeLock);
    // The right password from that source is refused as well; from another it is not.
    expect(errorOf(await from('publisher1', DEMO_PASSWORD, S)).details[0]).toMatch(LOCKED);
    expect((await from('publisher1', DEMO_PASSWORD, '127.0.1.5')).json().token).toEqual(expect.any(String));
    now = T0 + LIMITS.firstLockSeconds * 1000;
    expect((await from('publisher1', DEMO_PASSWORD, S)).json().token).toEqual(expect.any(String));
  });

  it('answers an unknown username exactly as an existing one at every step, the wait included', async () => {
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock + 2; i++) {
      const known = await from('partner_admin', 'bad-password-1', '127.0.1.6');
      const unknown = await from('ghost_user', 'bad-password-1', '127.0.1.7');
      expect(unknown.body).toBe(known.body);
      if (i >= LIMITS.failedSignInsBeforeLock) expect(errorOf(unknown).details[0]).toMatch(LOCKED);
    }
    await from('partner_admin', DEMO_PASSWORD, '127.0.1.8');
  });

  it('makes one source wait for every username once it has failed on many (password spraying)', async () => {
    const S = '127.0.1.9';
    for (let i = 0; i < LIMITS.failedSignInsPerSourceBeforeLock; i++) {
      expect((await from(`sprayed_${i}`, 'Spring2026!', S)).json()).toEqual(BAD_CREDENTIALS);
    }
    // A username it never tried, with the right password: that source waits; another does not.
    expect(errorOf(await from('user1', DEMO_PASSWORD, S)).details[0]).toMatch(LOCKED);
    expect((await from('user1', DEMO_PASSWORD, '127.0.1.10')).json().token).toEqual(expect.any(String));
    now = T0 + LIMITS.firstLockSeconds * 1000;
    expect((await from('user1', DEMO_PASSWORD, S)).json().token).toEqual(expect.any(String));
  });

  it('counts an IPv6 client by its /64: another address of the same /64 waits too', async () => {
    for (let i = 0; i < LIMITS.failedSignInsBeforeLock; i++) await from('publisher1', 'bad-password-1', `2001:db8:1:2::${i + 1}`);
    expect(errorOf(await from('publisher1', DEMO_PASSWORD, '2001:db8:1:2:ffff::9')).details[0]).toMatch(LOCKED);
    expect((await from('publisher1', DEMO_PASSWORD, '2001:db8:1:3::1')).json().token).toEqual(expect.any(String));
  });
});

describe('oauth2/revokeToken', () => {
  const revoke = (auth_token: string) => svc.app.inject({ method: 'POST', url: '/sharing/rest/oauth2/revokeToken', payload: { auth_token, f: 'json' } });

  it('makes the token answer 498 afterwards, and only that token', async () => {
    const token = (await signIn('user1', DEMO_PASSWORD)).json().token;
    const other = (await signIn('user1', DEMO_PASSWORD)).json().token;
    expect((await self(token)).json().username).toBe('user1');
    const res = await revoke(token);
    expect(res.json()).toEqual({ success: true });
    expect(errorOf(await self(token))).toMatchObject({ code: 498, message: 'Invalid token.' });
    expect(errorOf(await svc.app.inject({ method: 'GET', url: '/sharing/rest/portals/self', headers: { Authorization: `Bearer ${token}` } })).code).toBe(498);
    expect((await self(other)).json().username).toBe('user1');
    const rows = await svc.db.query('SELECT 1 FROM tokens WHERE token_hash = $1', [tokenHash(token)]);
    expect(rows).toHaveLength(0);
  });

  it('answers success for an unknown token (nothing to reveal)', async () => {
    expect((await revoke('never-issued')).json()).toEqual({ success: true });
  });

  it('requires auth_token', async () => {
    const err = errorOf(await svc.app.inject({ method: 'POST', url: '/sharing/rest/oauth2/revokeToken', payload: { f: 'json' } }));
    expect(err.code).toBe(400);
    expect(err.fieldErrors).toHaveProperty('auth_token');
  });
});
