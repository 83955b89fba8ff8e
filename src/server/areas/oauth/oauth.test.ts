/**
 * OAuth 2.0: registered apps (register, read, update, unregister, registeredAppInfo, item delete),
 * the sign-in page (every bad request, CSRF, headers, escaping, throttling, cancel), the token
 * endpoint (code exchange with PKCE, single use under concurrency, refresh, exchange, revoke) and
 * /console-config.json with the console's own app.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { syncConsoleApp } from './consoleApp.ts';

let svc: TestService;
let clockNow = Date.UTC(2026, 0, 1);
const tokens: Record<string, string> = {};
const REDIRECT = 'https://app.example.com/callback';
const REDIRECT_WITH_QUERY = 'https://app.example.com/cb?tenant=a%20b';

beforeAll(async () => {
  svc = await startService({ clock: { now: () => clockNow } });
  for (const u of ['admin', 'publisher1', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());
let signedInAt = clockNow;
beforeEach(async () => {
  clockNow += 60_000;
  await svc.db.query('UPDATE users SET disabled = false');
  await svc.db.query('DELETE FROM sign_in_throttle');
  // Some tests move the clock by hours: the members' generateToken tokens last an hour.
  if (clockNow - signedInAt > 30 * 60_000) {
    for (const u of Object.keys(tokens)) tokens[u] = await svc.tokenFor(u);
    signedInAt = clockNow;
  }
});

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function appItem(owner = 'publisher1', title = 'Field App', type = 'Application'): Promise<string> {
  const body = await post(`content/users/${owner}/addItem`, { title, type }, tokens[owner]);
  expect(body.success).toBe(true);
  return body.id;
}

async function registered(owner = 'publisher1', uris = [REDIRECT, REDIRECT_WITH_QUERY], title?: string) {
  const itemId = await appItem(owner, title);
  const app = await post('oauth2/registerApp', { itemId, appType: 'browser', redirect_uris: JSON.stringify(uris) }, tokens[owner]);
  expect(app.client_id).toMatch(/^[A-Za-z0-9]{16}$/);
  return { itemId, clientId: app.client_id as string, app };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return {
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

async function openPage(query: Record<string, string>, cookie?: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/oauth2/authorize?${new URLSearchParams(query)}`, headers: cookie ? { cookie } : {} });
  const nonce = /name="nonce" value="([^"]+)"/.exec(res.body)?.[1];
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { res, nonce, setCookie, cookie: setCookie.split(';')[0] };
}

async function submit(fields: Record<string, string>, cookie?: string) {
  return svc.app.inject({
    method: 'POST',
    url: '/sharing/rest/oauth2/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** The whole browser step: the code and the redirect it came in. */
async function signIn(clientId: string, challenge: string, extra: Record<string, string> = {}, username = 'user1') {
  const page = await openPage(authorizeQuery(clientId, challenge, extra));
  expect(page.res.statusCode).toBe(200);
  const res = await submit({ nonce: page.nonce!, username, password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location));
  return { code: location.searchParams.get('code')!, location, res };
}

const exchange = (clientId: string, code: string, verifier: string, redirectUri = REDIRECT) =>
  post('oauth2/token', { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: redirectUri, code_verifier: verifier });

async function selfWith(token: string) {
  return post('community/self', {}, token);
}

const count = async (table: string) => Number((await svc.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))[0].n);

describe('registerApp and the registered app', () => {
  it('registers an Application item: the documented shape, the secret once, the Registered App keyword', async () => {
    const { itemId, clientId, app } = await registered();
    expect(app).toEqual({
      itemId,
      client_id: clientId,
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      appType: 'browser',
      redirect_uris: [REDIRECT, REDIRECT_WITH_QUERY],
      httpReferrers: [],
      privileges: [],
      registered: clockNow,
      modified: clockNow,
      apnsProdCert: null,
      apnsSandboxCert: null,
      gcmApiKey: null,
      isBeta: false,
    });
    const item = await post(`content/items/${itemId}`, {}, tokens.publisher1);
    expect(item.typeKeywords).toContain('Registered App');
    const events = await svc.db.query<{ operation: string; username: string }>('SELECT operation, username FROM events WHERE subject_id = $1 ORDER BY seq', [
      itemId,
    ]);
    expect(events.at(-1)).toEqual({ operation: 'update', username: 'publisher1' });
    expect((await post('portals/self', {}, tokens.publisher1)).supportsOAuth).toBe(true);
    const [row] = await svc.db.query<{ client_secret_hash: string }>('SELECT client_secret_hash FROM oauth_apps WHERE client_id = $1', [clientId]);
    expect(row.client_secret_hash).toBe(createHash('sha256').update(app.client_secret).digest('hex'));
    const read = await post(`oauth2/apps/${clientId}`, {}, tokens.publisher1);
    expect(read).toEqual({ ...app, client_secret: undefined });
    expect('client_secret' in read).toBe(false);
  });

  it('refuses a second registration, another owner, a non-app item and bad redirect URIs, changing nothing', async () => {
    const { itemId } = await registered();
    const again = await post('oauth2/registerApp', { itemId, appType: 'browser', redirect_uris: '[]' }, tokens.publisher1);
    expect(again.error).toMatchObject({ code: 400, details: [expect.stringContaining('already registered')] });

    const other = await appItem('publisher1');
    const notOwner = await post('oauth2/registerApp', { itemId: other, appType: 'browser' }, tokens.admin);
    expect(notOwner.error.code).toBe(403);
    const partner = await post('oauth2/registerApp', { itemId: other, appType: 'browser' }, tokens.partner_admin);
    expect(partner.error.code).toBe(400);
    const map = await appItem('publisher1', 'A map', 'Web Map');
    const notApp = await post('oauth2/registerApp', { itemId: map, appType: 'browser' }, tokens.publisher1);
    expect(notApp.error).toMatchObject({ code: 400, fieldErrors: { itemId: expect.any(String) } });
    for (const uris of [
      '["https://a.example/\\u0000"]',
      '["https://a.example/\\ud800"]',
      '["https://a.example/a\\u0007b"]',
      '["javascript:alert(1)"]',
      '["https://a.example/cb#frag"]',
      '["not a url"]',
      'https://a.example',
      `["https://a.example/${'x'.repeat(LIMITS.redirectUriChars)}"]`,
    ]) {
      const bad = await post('oauth2/registerApp', { itemId: other, appType: 'browser', redirect_uris: uris }, tokens.publisher1);
      expect(bad.error, uris).toMatchObject({ code: 400, fieldErrors: expect.anything() });
    }
    const badType = await post('oauth2/registerApp', { itemId: other, appType: 'desktop' }, tokens.publisher1);
    expect(badType.error.fieldErrors).toHaveProperty('appType');
    const badReferrer = await post(
      'oauth2/registerApp',
      { itemId: other, appType: 'browser', httpReferrers: '["https://a.example/\\u0000"]' },
      tokens.publisher1,
    );
    expect(badReferrer.error.code).toBe(400);
    const rows = await svc.db.query('SELECT 1 FROM oauth_apps WHERE item_id IN ($1, $2)', [other, map]);
    expect(rows).toHaveLength(0);
    expect((await post(`content/items/${other}`, {}, tokens.publisher1)).typeKeywords ?? []).not.toContain('Registered App');
  });

  it('lets the owner and an administrator of its organization read, update and unregister; others get 403, unknown 400', async () => {
    const { clientId, itemId } = await registered();
    expect((await post(`oauth2/apps/${clientId}`, {}, tokens.admin)).client_id).toBe(clientId);
    expect((await post(`content/users/publisher1/items/${itemId}/registeredAppInfo`, {}, tokens.publisher1)).client_id).toBe(clientId);
    expect((await post(`oauth2/apps/${clientId}`, {}, tokens.user1)).error.code).toBe(403);
    expect((await post(`oauth2/apps/${clientId}`, {}, tokens.partner_admin)).error.code).toBe(403);
    expect((await post(`oauth2/apps/${clientId}/update`, { redirect_uris: '["https://evil.example/cb"]' }, tokens.partner_admin)).error.code).toBe(403);
    expect((await post(`oauth2/apps/${clientId}/unregister`, {}, tokens.user1)).error.code).toBe(403);
    expect((await post('oauth2/apps/NoSuchClient1234', {}, tokens.admin)).error.code).toBe(400);
    expect((await post('oauth2/apps/a%00b', {}, tokens.admin)).error.code).toBe(400);
    expect((await post(`content/users/publisher1/items/x%00/registeredAppInfo`, {}, tokens.admin)).error.code).toBe(400);
    expect((await post(`oauth2/apps/${clientId}`, {})).error.code).toBe(499);

    clockNow += 1000;
    const updated = await post(`oauth2/apps/${clientId}/update`, { redirect_uris: '["https://new.example/cb"]' }, tokens.admin);
    expect(updated).toMatchObject({ redirect_uris: ['https://new.example/cb'], appType: 'browser', modified: clockNow });
    expect((await post(`oauth2/apps/${clientId}/update`, { redirect_uris: '["javascript:x"]' }, tokens.admin)).error.code).toBe(400);
    expect((await post(`oauth2/apps/${clientId}`, {}, tokens.publisher1)).redirect_uris).toEqual(['https://new.example/cb']);

    const { verifier, challenge } = pkce();
    const page = await openPage(authorizeQuery(clientId, challenge, { redirect_uri: 'https://new.example/cb' }));
    const res = await submit({ nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    const code = new URL(String(res.headers.location)).searchParams.get('code')!;
    const issued = await exchange(clientId, code, verifier, 'https://new.example/cb');
    expect((await selfWith(issued.access_token)).username).toBe('user1');

    expect(await post(`oauth2/apps/${clientId}/unregister`, {}, tokens.admin)).toEqual({ success: true, itemId });
    expect((await post(`content/items/${itemId}`, {}, tokens.publisher1)).typeKeywords).not.toContain('Registered App');
    expect((await post(`oauth2/apps/${clientId}`, {}, tokens.publisher1)).error.code).toBe(400);
    // Everything issued to the app ends with it.
    expect((await selfWith(issued.access_token)).error.code).toBe(498);
    const refreshed = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token });
    expect(refreshed.error.code).toBe(400);
  });

  it('deleting the item unregisters the app', async () => {
    const { clientId, itemId } = await registered();
    expect((await post(`content/users/publisher1/items/${itemId}/delete`, {}, tokens.publisher1)).success).toBe(true);
    expect(await svc.db.query('SELECT 1 FROM oauth_apps WHERE client_id = $1', [clientId])).toHaveLength(0);
    expect((await openPage(authorizeQuery(clientId, pkce().challenge))).res.statusCode).toBe(400);
  });
});

describe('oauth2/authorize: the sign-in page', () => {
  it('shows the portal sign-in page naming the app and the organization, with the framing and caching headers', async () => {
    const { clientId } = await registered('publisher1', [REDIRECT], 'Inspection <b>App</b>');
    const page = await openPage(authorizeQuery(clientId, pkce().challenge));
    expect(page.res.statusCode).toBe(200);
    expect(page.res.headers['content-type']).toMatch(/^text\/html/);
    expect(page.res.headers['x-frame-options']).toBe('DENY');
    expect(page.res.headers['cache-control']).toBe('no-store');
    expect(page.res.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(page.res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toContain("form-action 'self' https://app.example.com");
    const styleNonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(page.res.body).toContain(`<style nonce="${styleNonce}">`);
    expect(page.setCookie).toMatch(/^portal_oauth_binding=[A-Za-z0-9_-]{43}; Path=\/sharing; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(page.res.body).toContain('<html lang="en">');
    expect(page.res.body.match(/<h1/g)).toHaveLength(1);
    expect(page.res.body).toContain('Sign in to Demo Organization');
    expect(page.res.body).toContain('Inspection &lt;b&gt;App&lt;/b&gt;');
    expect(page.res.body).toContain('<label for="username">Username</label>');
    expect(page.res.body).toContain('<label for="password">Password</label>');
    expect(page.res.body).toContain('action="authorize"');
  });

  it('answers every bad request with an error page and never a redirect', async () => {
    const { clientId } = await registered();
    const { challenge } = pkce();
    const cases: [string, Record<string, string>][] = [
      ['unknown client', authorizeQuery('NoSuchClient1234', challenge)],
      ['malformed client', authorizeQuery('<script>alert(1)</script>', challenge)],
      ['missing client', { ...authorizeQuery(clientId, challenge), client_id: '' }],
      ['unregistered redirect', authorizeQuery(clientId, challenge, { redirect_uri: 'https://evil.example/callback' })],
      ['redirect differing in case', authorizeQuery(clientId, challenge, { redirect_uri: 'https://APP.example.com/callback' })],
      ['redirect with a trailing slash', authorizeQuery(clientId, challenge, { redirect_uri: `${REDIRECT}/` })],
      ['malformed redirect', authorizeQuery(clientId, challenge, { redirect_uri: 'javascript:alert(1)' })],
      ['oversized redirect', authorizeQuery(clientId, challenge, { redirect_uri: `${REDIRECT}?${'a'.repeat(LIMITS.redirectUriChars)}` })],
      ['response_type token', authorizeQuery(clientId, challenge, { response_type: 'token' })],
      ['no response_type', { ...authorizeQuery(clientId, challenge), response_type: '' }],
      ['no code_challenge', { ...authorizeQuery(clientId, challenge), code_challenge: '' }],
      ['short code_challenge', authorizeQuery(clientId, challenge.slice(0, 42))],
      ['code_challenge with bad characters', authorizeQuery(clientId, `${challenge.slice(0, 42)}+`)],
      ['unknown challenge method', authorizeQuery(clientId, challenge, { code_challenge_method: 'S512' })],
      ['oversized state', authorizeQuery(clientId, challenge, { state: 's'.repeat(LIMITS.oauthStateChars + 1) })],
      ['bad expiration', authorizeQuery(clientId, challenge, { expiration: 'soon' })],
      ['NUL in state', authorizeQuery(clientId, challenge, { state: 'a\u0000b' })],
    ];
    const forms = await count('oauth_sign_in_forms');
    for (const [name, query] of cases) {
      const { res } = await openPage(query);
      expect(res.statusCode, name).toBe(400);
      expect(res.headers.location, name).toBeUndefined();
      expect(res.headers['x-frame-options'], name).toBe('DENY');
      expect(String(res.headers['content-security-policy']), name).toContain("form-action 'self';");
      expect(res.body, name).toContain('<h1>Sign-in cannot continue</h1>');
      expect(res.body, name).not.toContain('<script>');
      expect(res.headers['set-cookie'], name).toBeUndefined();
    }
    const twice = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/oauth2/authorize?${new URLSearchParams(authorizeQuery(clientId, challenge))}&state=again`,
    });
    expect(twice.statusCode).toBe(400);
    await svc.app.inject({ method: 'HEAD', url: `/sharing/rest/oauth2/authorize?${new URLSearchParams(authorizeQuery(clientId, challenge))}` });
    expect(await count('oauth_sign_in_forms')).toBe(forms);
  });

  it('never puts a hostile state or username into the page unescaped', async () => {
    const { clientId } = await registered();
    const hostile = '"><script>alert(1)</script>';
    const page = await openPage(authorizeQuery(clientId, pkce().challenge, { state: hostile }));
    expect(page.res.body).not.toContain('<script>');
    const res = await submit({ nonce: page.nonce!, username: hostile, password: 'wrong-password1', action: 'signin' }, page.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('signs in: 302 to the redirect URI with the code and the state echoed exactly; & when the URI has a query', async () => {
    const { clientId } = await registered();
    const state = '{"id":"a b&c=d","originalUrl":"https://app.example.com/x?y=1#z"}';
    const { challenge } = pkce();
    const first = await signIn(clientId, challenge, { state });
    expect(`${first.location.origin}${first.location.pathname}`).toBe(REDIRECT);
    expect(first.location.searchParams.get('state')).toBe(state);
    expect(first.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(String(first.res.headers.location)).toContain(`state=${encodeURIComponent(state)}`);
    expect(String(first.res.headers['content-security-policy'])).toContain('https://app.example.com');

    const second = await signIn(clientId, challenge, { redirect_uri: REDIRECT_WITH_QUERY, state: 's2' });
    expect(String(second.res.headers.location)).toMatch(/^https:\/\/app\.example\.com\/cb\?tenant=a%20b&code=[A-Za-z0-9_-]{43}&state=s2$/);

    const noState = await signIn(clientId, challenge, { state: '' });
    expect(noState.location.searchParams.get('code')).toBeTruthy();
  });

  it('records the sign-in like generateToken', async () => {
    const { clientId } = await registered();
    clockNow += 5_000;
    await signIn(clientId, pkce().challenge, {}, 'user1');
    const [row] = await svc.db.query<{ last_login: number }>("SELECT last_login FROM users WHERE username = 'user1'");
    expect(row.last_login).toBe(clockNow);
  });

  it('refuses posts without the form nonce and its browser cookie, changing nothing', async () => {
    const { clientId } = await registered();
    const page = await openPage(authorizeQuery(clientId, pkce().challenge));
    const other = await openPage(authorizeQuery(clientId, pkce().challenge));
    const codes = await count('oauth_codes');
    const attempts: [string, Record<string, string>, string | undefined][] = [
      ['no cookie', { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, undefined],
      [
        'another browser',
        { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' },
        `portal_oauth_binding=${randomBytes(32).toString('base64url')}`,
      ],
      ['no nonce', { username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie],
      ['unknown nonce', { nonce: randomBytes(32).toString('base64url'), username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie],
      ['cancel without cookie', { nonce: page.nonce!, action: 'cancel' }, undefined],
    ];
    for (const [name, fields, cookie] of attempts) {
      const res = await submit(fields, cookie);
      expect(res.statusCode, name).toBe(400);
      expect(res.headers.location, name).toBeUndefined();
      expect(res.body, name).toContain('Sign-in cannot continue');
    }
    expect(await count('oauth_codes')).toBe(codes);
    // The other page's cookie is a different browser: its own form still works.
    const ok = await submit({ nonce: other.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, other.cookie);
    expect(ok.statusCode).toBe(302);
    // A form is used once.
    const replay = await submit({ nonce: other.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, other.cookie);
    expect(replay.statusCode).toBe(400);
    // Forms expire.
    clockNow += LIMITS.oauthSignInFormMinutes * 60_000 + 1;
    expect((await submit({ nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie)).statusCode).toBe(400);
  });

  it('shows a wrong password on the page, throttles by source like generateToken, and refuses disabled accounts', async () => {
    const { clientId } = await registered();
    const page = await openPage(authorizeQuery(clientId, pkce().challenge));
    const wrong = await submit({ nonce: page.nonce!, username: 'user1', password: 'not-the-password1', action: 'signin' }, page.cookie);
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toContain('Invalid username or password.');
    expect(wrong.body).toMatch(/id="sign-in-error" role="alert"/);
    expect(wrong.body).toMatch(/id="password"[^>]*aria-invalid="true" aria-describedby="sign-in-error" autofocus/);
    expect(wrong.body).toContain('value="user1"');
    const empty = await submit({ nonce: page.nonce!, username: '', password: '', action: 'signin' }, page.cookie);
    expect(empty.body).toContain('Enter your username and password.');
    const nul = await submit({ nonce: page.nonce!, username: 'user1\u0000', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    expect(nul.statusCode).toBe(200);
    expect(nul.body).toContain('Enter your username and password.');
    for (let i = 1; i < LIMITS.failedSignInsBeforeLock; i++) {
      await submit({ nonce: page.nonce!, username: 'user1', password: 'not-the-password1', action: 'signin' }, page.cookie);
    }
    const locked = await submit({ nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    expect(locked.statusCode).toBe(200);
    expect(locked.body).toContain('Too many invalid sign-in attempts');
    // The same wait holds for generateToken from that source; another source signs in.
    const viaToken = await post('generateToken', { username: 'user1', password: DEMO_PASSWORD });
    expect(viaToken.error.details[0]).toContain('Too many invalid sign-in attempts');
    const elsewhere = await svc.app.inject({
      method: 'POST',
      url: '/sharing/rest/generateToken',
      payload: { username: 'user1', password: DEMO_PASSWORD, f: 'json' },
      remoteAddress: '127.0.3.77',
    });
    expect(elsewhere.json().token).toEqual(expect.any(String));

    await svc.db.query('DELETE FROM sign_in_throttle');
    await svc.db.query("UPDATE users SET disabled = true WHERE username = 'user1'");
    const disabled = await submit({ nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    expect(disabled.body).toContain('This account has been disabled.');
    expect(disabled.headers.location).toBeUndefined();
  });

  // 200 views: one stored row per view shows at the first, and the sign-in throttle of that address
  // slows after LIMITS.signInSlowAfterFailures (10); 2,000 views cost half the file's time and proved no more.
  it('stores nothing per view: 200 anonymous views from one address, then a real user signs in through the form', async () => {
    const { clientId } = await registered('publisher1', [REDIRECT], 'Busy App');
    const { verifier, challenge } = pkce();
    const forms = await count('oauth_sign_in_forms');
    const first = await openPage(authorizeQuery(clientId, challenge));
    const url = `/sharing/rest/oauth2/authorize?${new URLSearchParams(authorizeQuery(clientId, challenge))}`;
    expect(200).toBeGreaterThan(10 * LIMITS.signInSlowAfterFailures);
    for (let i = 0; i < 200; i += 50) {
      const views = await Promise.all(Array.from({ length: 50 }, () => svc.app.inject({ method: 'GET', url })));
      expect(views.every((v) => v.statusCode === 200 && /name="nonce"/.test(v.body))).toBe(true);
    }
    expect(await count('oauth_sign_in_forms')).toBe(forms);
    // Shown before the flood, posted after it: the form is still good.
    const res = await submit({ nonce: first.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, first.cookie);
    expect(res.statusCode).toBe(302);
    const code = new URL(String(res.headers.location)).searchParams.get('code')!;
    const token = await exchange(clientId, code, verifier);
    expect(token.username).toBe('user1');
    // Only the sign-in left a record (its form, spent).
    expect(await count('oauth_sign_in_forms')).toBe(forms + 1);
  }, 180_000);

  it('refuses a tampered form and an expired one with a clear error page, issuing nothing', async () => {
    const { clientId } = await registered('publisher1', [REDIRECT, REDIRECT_WITH_QUERY]);
    const page = await openPage(authorizeQuery(clientId, pkce().challenge));
    const [version, payload, mac] = page.nonce!.split('.');
    // The payload rewritten to send the code elsewhere (another registered URI, another challenge), the MAC kept.
    const altered = Buffer.from(
      Buffer.from(payload, 'base64url').toString('utf8').replace(JSON.stringify(REDIRECT), JSON.stringify(REDIRECT_WITH_QUERY)),
    ).toString('base64url');
    expect(altered).not.toBe(payload);
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    const codes = await count('oauth_codes');
    const tampered: [string, string][] = [
      ['payload changed', `${version}.${altered}.${mac}`],
      ['MAC changed', `${version}.${payload}.${flipped}`],
      ['MAC missing', `${version}.${payload}`],
      ['unknown version', `f0.${payload}.${mac}`],
    ];
    for (const [name, value] of tampered) {
      const res = await submit({ nonce: value, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
      expect(res.statusCode, name).toBe(400);
      expect(res.headers.location, name).toBeUndefined();
      expect(res.body, name).toContain('was not issued by this portal or has been altered');
      const cancel = await submit({ nonce: value, action: 'cancel' }, page.cookie);
      expect(cancel.statusCode, name).toBe(400);
      expect(cancel.headers.location, name).toBeUndefined();
    }
    clockNow += LIMITS.oauthSignInFormMinutes * 60_000 + 1;
    const late = await submit({ nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    expect(late.statusCode).toBe(400);
    expect(late.headers.location).toBeUndefined();
    expect(late.body).toContain('This sign-in form has expired');
    expect(await count('oauth_codes')).toBe(codes);
  });

  it('a form signed in once is spent; a form whose redirect URI was removed from the app since is refused', async () => {
    const { itemId, clientId } = await registered('publisher1', [REDIRECT, REDIRECT_WITH_QUERY]);
    const page = await openPage(authorizeQuery(clientId, pkce().challenge));
    const fields = { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' };
    expect((await submit(fields, page.cookie)).statusCode).toBe(302);
    const again = await submit(fields, page.cookie);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('already been used');
    const later = await openPage(authorizeQuery(clientId, pkce().challenge));
    await post('oauth2/apps/' + clientId + '/update', { redirect_uris: JSON.stringify([REDIRECT_WITH_QUERY]) }, tokens.publisher1);
    const updated = await post(`content/users/publisher1/items/${itemId}/registeredAppInfo`, {}, tokens.publisher1);
    expect(updated.redirect_uris).toEqual([REDIRECT_WITH_QUERY]);
    const gone = await submit({ ...fields, nonce: later.nonce! }, later.cookie);
    expect(gone.statusCode).toBe(400);
    expect(gone.headers.location).toBeUndefined();
  });

  it('Cancel redirects with access_denied and the state', async () => {
    const { clientId } = await registered();
    const page = await openPage(authorizeQuery(clientId, pkce().challenge, { state: 'keep me' }));
    const res = await submit({ nonce: page.nonce!, action: 'cancel' }, page.cookie);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('keep me');
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('oauth2/token', () => {
  it('exchanges a code for an access token (usable everywhere, marked with its app) and a refresh token', async () => {
    const { clientId } = await registered();
    const { verifier, challenge } = pkce();
    const { code } = await signIn(clientId, challenge, { expiration: '600' });
    const res = await svc.app.inject({
      method: 'POST',
      url: '/sharing/rest/oauth2/token',
      payload: { grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier, f: 'json' },
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: LIMITS.oauthAccessTokenMinutes * 60,
      username: 'user1',
      ssl: false,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      refresh_token_expires_in: 600 * 60,
    });
    expect((await selfWith(body.access_token)).username).toBe('user1');
    const [row] = await svc.db.query<{ client_id: string; expires: number }>('SELECT client_id, expires FROM tokens WHERE token_hash = $1', [
      createHash('sha256').update(body.access_token).digest('hex'),
    ]);
    expect(row).toEqual({ client_id: clientId, expires: clockNow + LIMITS.oauthAccessTokenMinutes * 60_000 });
    // Single use.
    const again = await exchange(clientId, code, verifier);
    expect(again.error).toMatchObject({ code: 400, error: 'invalid_grant' });
  });

  it('caps the refresh token at 90 days and defaults to two weeks', async () => {
    const { clientId } = await registered();
    const a = pkce();
    const long = await exchange(clientId, (await signIn(clientId, a.challenge, { expiration: '99999999' })).code, a.verifier);
    expect(long.refresh_token_expires_in).toBe(LIMITS.maxRefreshTokenMinutes * 60);
    const b = pkce();
    const dflt = await exchange(clientId, (await signIn(clientId, b.challenge)).code, b.verifier);
    expect(dflt.refresh_token_expires_in).toBe(LIMITS.defaultRefreshTokenMinutes * 60);
  });

  it('refuses a wrong verifier (and burns the code), another client, another redirect URI, an expired code; nothing issued', async () => {
    const { clientId } = await registered();
    const other = await registered('admin');
    const tokensBefore = await count('tokens');
    const refreshBefore = await count('oauth_refresh_tokens');

    const a = pkce();
    const codeA = (await signIn(clientId, a.challenge)).code;
    expect((await exchange(clientId, codeA, pkce().verifier)).error).toMatchObject({ code: 400, error: 'invalid_grant' });
    expect((await exchange(clientId, codeA, a.verifier)).error).toMatchObject({ code: 400, error: 'invalid_grant' });

    const b = pkce();
    const codeB = (await signIn(clientId, b.challenge)).code;
    expect((await exchange(other.clientId, codeB, b.verifier)).error.error).toBe('invalid_grant');

    const c = pkce();
    const codeC = (await signIn(clientId, c.challenge)).code;
    expect((await exchange(clientId, codeC, c.verifier, REDIRECT_WITH_QUERY)).error.error).toBe('invalid_grant');

    const d = pkce();
    const codeD = (await signIn(clientId, d.challenge)).code;
    clockNow += LIMITS.oauthCodeMinutes * 60_000;
    expect((await exchange(clientId, codeD, d.verifier)).error.error).toBe('invalid_grant');

    expect((await exchange('NoSuchClient1234', 'x', a.verifier)).error).toMatchObject({ code: 400, error: 'invalid_client' });
    expect((await exchange(clientId, 'nonsense', 'short')).error).toMatchObject({ code: 400, fieldErrors: { code_verifier: expect.any(String) } });
    expect((await post('oauth2/token', { grant_type: 'password', client_id: clientId })).error.code).toBe(400);
    expect(await count('tokens')).toBe(tokensBefore);
    expect(await count('oauth_refresh_tokens')).toBe(refreshBefore);
    expect((await svc.app.inject({ method: 'GET', url: `/sharing/rest/oauth2/token?grant_type=authorization_code` })).json().error.code).toBe(405);
  });

  it('accepts plain PKCE (what rest-js sends outside a secure context)', async () => {
    const { clientId } = await registered();
    const verifier = randomBytes(48).toString('base64url');
    const { code } = await signIn(clientId, verifier, { code_challenge_method: 'plain' });
    expect((await exchange(clientId, code, verifier)).access_token).toBeTruthy();
  });

  it('lets only one of two concurrent exchanges of one code win', async () => {
    const { clientId } = await registered();
    const { verifier, challenge } = pkce();
    const { code } = await signIn(clientId, challenge);
    const results = await Promise.all([exchange(clientId, code, verifier), exchange(clientId, code, verifier), exchange(clientId, code, verifier)]);
    expect(results.filter((r) => r.access_token)).toHaveLength(1);
    expect(results.filter((r) => r.error?.error === 'invalid_grant')).toHaveLength(2);
  });

  it('refreshes; refuses another client, an expired, unknown or revoked refresh token and a disabled member', async () => {
    const { clientId } = await registered();
    const other = await registered('admin');
    const { verifier, challenge } = pkce();
    const issued = await exchange(clientId, (await signIn(clientId, challenge, { expiration: '120' })).code, verifier);

    const refreshed = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token });
    expect(refreshed).toEqual({ access_token: expect.any(String), expires_in: LIMITS.oauthAccessTokenMinutes * 60, username: 'user1', ssl: false });
    expect((await selfWith(refreshed.access_token)).username).toBe('user1');

    const wrongClient = await post('oauth2/token', { grant_type: 'refresh_token', client_id: other.clientId, refresh_token: issued.refresh_token });
    expect(wrongClient.error).toMatchObject({ code: 498, error: 'invalid_request' });
    const unknown = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x'.repeat(43) });
    expect(unknown.error).toMatchObject({ code: 498, error: 'invalid_request' });

    await svc.db.query("UPDATE users SET disabled = true WHERE username = 'user1'");
    const disabled = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token });
    expect(disabled.error.code).toBe(400);
    expect(disabled.access_token).toBeUndefined();
    await svc.db.query("UPDATE users SET disabled = false WHERE username = 'user1'");

    clockNow += 121 * 60_000;
    const expired = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token });
    expect(expired.error).toMatchObject({ code: 498, error: 'invalid_request', error_description: 'refresh_token expired', message: 'refresh_token expired' });
  });

  it('exchange_refresh_token rotates the refresh token', async () => {
    const { clientId } = await registered();
    const { verifier, challenge } = pkce();
    const issued = await exchange(clientId, (await signIn(clientId, challenge)).code, verifier);
    const wrongUri = await post('oauth2/token', {
      grant_type: 'exchange_refresh_token',
      client_id: clientId,
      refresh_token: issued.refresh_token,
      redirect_uri: 'https://x.example/cb',
    });
    expect(wrongUri.error.code).toBe(498);
    const rotated = await post('oauth2/token', {
      grant_type: 'exchange_refresh_token',
      client_id: clientId,
      refresh_token: issued.refresh_token,
      redirect_uri: REDIRECT,
    });
    expect(rotated).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      refresh_token_expires_in: LIMITS.defaultRefreshTokenMinutes * 60,
    });
    expect(rotated.refresh_token).not.toBe(issued.refresh_token);
    expect((await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token })).error.code).toBe(498);
    expect((await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: rotated.refresh_token })).access_token).toBeTruthy();
  });

  it('revokeToken ends an access token alone, or a refresh token with the access tokens issued from it', async () => {
    const { clientId } = await registered();
    const { verifier, challenge } = pkce();
    const issued = await exchange(clientId, (await signIn(clientId, challenge)).code, verifier);
    const second = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token });

    expect(await post('oauth2/revokeToken', { auth_token: issued.access_token, client_id: clientId })).toEqual({ success: true });
    expect((await selfWith(issued.access_token)).error.code).toBe(498);
    expect((await selfWith(second.access_token)).username).toBe('user1');

    const third = await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token });
    const res = await svc.app.inject({
      method: 'POST',
      url: '/sharing/rest/oauth2/revokeToken/',
      payload: { auth_token: issued.refresh_token, client_id: clientId, token_type_hint: 'refresh_token', f: 'json' },
    });
    expect(res.json()).toEqual({ success: true });
    expect((await selfWith(second.access_token)).error.code).toBe(498);
    expect((await selfWith(third.access_token)).error.code).toBe(498);
    expect((await post('oauth2/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: issued.refresh_token })).error.code).toBe(498);
  });
});

describe('/console-config.json and the console app', () => {
  it('registers the console once and keeps its redirect URIs in step with the address', async () => {
    const first = await syncConsoleApp(svc.app.portal, 4100);
    expect(first).toMatch(/^[A-Za-z0-9]{16}$/);
    const app = await post(`oauth2/apps/${first}`, {}, tokens.admin);
    expect(app.redirect_uris).toEqual(['http://127.0.0.1:4100/oauth-callback', 'http://localhost:4100/oauth-callback']);
    expect(app.appType).toBe('browser');
    const item = await post(`content/items/${app.itemId}`, {}, tokens.admin);
    expect(item).toMatchObject({ title: 'Portal Admin Console', type: 'Application', owner: 'admin' });
    expect(item.typeKeywords).toContain('Registered App');
    // Delete-protected: deleting it would end the console's sign-in for everyone.
    expect(item.protected).toBe(true);
    const deleted = await post(`content/users/admin/items/${app.itemId}/delete`, {}, tokens.admin);
    expect(deleted.error?.code, JSON.stringify(deleted)).toBe(400);
    expect(await svc.db.query('SELECT 1 FROM oauth_apps WHERE console')).toHaveLength(1);

    expect(await syncConsoleApp(svc.app.portal, 4200)).toBe(first);
    expect((await post(`oauth2/apps/${first}`, {}, tokens.admin)).redirect_uris).toEqual([
      'http://127.0.0.1:4200/oauth-callback',
      'http://localhost:4200/oauth-callback',
    ]);
    expect(await svc.db.query('SELECT 1 FROM oauth_apps WHERE console')).toHaveLength(1);

    const res = await svc.app.inject({ method: 'GET', url: '/console-config.json', headers: { host: 'localhost:0' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ portalUrl: 'http://localhost:0/sharing/rest', oauth: { clientId: first } });
    const other = await svc.app.inject({ method: 'GET', url: '/console-config.json', headers: { host: 'elsewhere.example' } });
    expect(other.json().portalUrl).toBe('http://127.0.0.1:0/sharing/rest');
  });

  it('follows PUBLIC_URL, and registers nothing without demo data', async () => {
    const plain = await startService({ demoData: false, config: { publicUrl: 'https://portal.example.org/admin' } });
    try {
      expect(await syncConsoleApp(plain.app.portal, 3000)).toBeUndefined();
      const res = await plain.app.inject({ method: 'GET', url: '/console-config.json' });
      expect(res.json()).toEqual({ portalUrl: 'https://portal.example.org/admin/sharing/rest' });
      expect(await plain.db.query('SELECT 1 FROM oauth_apps')).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });
});

describe('PUBLIC_URL', () => {
  it('takes an http(s) URL without a trailing slash, query or fragment, and names every other value', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.org/admin' }).publicUrl).toBe('https://portal.example.org/admin');
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.9:8080' }).publicUrl).toBe('http://127.0.0.9:8080');
    expect(loadConfig({}).publicUrl).toBeUndefined();
    for (const bad of [
      'https://portal.example.org/',
      'ftp://portal.example.org',
      'portal.example.org',
      'https://portal.example.org?x=1',
      'https://u:p@portal.example.org',
      'https://portal.example.org#a',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL=/);
    }
  });
});
