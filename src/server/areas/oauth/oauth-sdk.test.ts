/**
 * OAuth 2.0 as the ArcGIS Maps SDK for JavaScript (@arcgis/core 5.1) signs in: the browser goes to
 * `<portal>/sharing/oauth2/authorize` (no `/rest`) with the parameters `IdentityManager._doOAuthSignIn`
 * builds — a JSON `state` ({portalUrl, uid}), PKCE S256, `expiration` in minutes, `locale`,
 * `redirectToUserOrgUrl` — and the code goes to `<portal>/sharing/rest/oauth2/token` with the
 * verifier (`_getOAuthToken`); later the refresh token buys access tokens there. Every sign-in
 * endpoint answers under both /sharing/oauth2 and /sharing/rest/oauth2; the sign-in page's cookie
 * covers both and never authenticates a REST request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';

let svc: TestService;
let clockNow = Date.UTC(2026, 2, 1);
let publisherToken: string;
/** The SDK app: a page on another loopback port, registered as the app's redirect URI. */
const APP_PAGE = 'http://127.0.0.1:5999/sdk-app/';
const PORTAL_URL = 'https://127.0.0.1:3443';
const PREFIXES = ['/sharing/oauth2', '/sharing/rest/oauth2'] as const;

beforeAll(async () => {
  svc = await startService({ clock: { now: () => clockNow } });
  publisherToken = await svc.tokenFor('publisher1');
});
afterAll(() => svc.close());
beforeEach(async () => {
  clockNow += 60_000;
  await svc.db.query('DELETE FROM sign_in_throttle');
  publisherToken = await svc.tokenFor('publisher1');
});

async function registerApp(redirectUris = [APP_PAGE]): Promise<string> {
  const item = await svc.post('content/users/publisher1/addItem', { title: 'SDK app', type: 'Web Mapping Application' }, publisherToken);
  const app = await svc.post('oauth2/registerApp', { itemId: item.id, appType: 'browser', redirect_uris: JSON.stringify(redirectUris) }, publisherToken);
  expect(app.redirect_uris).toEqual(redirectUris);
  return app.client_id as string;
}

/** What the SDK generates: 32 random bytes, base64url, for the verifier and for the state's uid. */
const random32 = () => randomBytes(32).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The SDK's objectToQuery: encodeURIComponent on names and values, joined by `&`. */
const sdkQuery = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');

/** The authorize parameters exactly as IdentityManager._doOAuthSignIn sends them (redirect, not popup). */
function sdkAuthorize(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  const state = JSON.stringify({ portalUrl: PORTAL_URL, uid: random32() });
  const params = {
    client_id: clientId,
    response_type: 'code',
    state,
    expiration: '20160',
    locale: 'en-us',
    redirect_uri: APP_PAGE,
    redirectToUserOrgUrl: 'true',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
  return { params, state: params.state };
}

async function openPage(prefix: string, params: Record<string, string>, cookie?: string) {
  const res = await svc.app.inject({ method: 'GET', url: `${prefix}/authorize?${sdkQuery(params)}`, headers: cookie ? { cookie } : {} });
  const nonce = /name="nonce" value="([^"]+)"/.exec(res.body)?.[1];
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return { res, nonce, setCookie, cookie: setCookie.split(';')[0] };
}

/** The page's form posts to its relative action "authorize": the path the page was shown on. */
function submit(prefix: string, fields: Record<string, string>, cookie?: string) {
  return svc.app.inject({
    method: 'POST',
    url: `${prefix}/authorize`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
}

async function signIn(prefix: string, params: Record<string, string>) {
  const page = await openPage(prefix, params);
  expect(page.res.statusCode, page.res.body).toBe(200);
  const res = await submit(prefix, { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
  expect(res.statusCode).toBe(302);
  return { res, location: String(res.headers.location), page };
}

/** Where the SDK posts: `_getOAuthToken`, with esriRequest's f=json. */
async function tokenCall(params: Record<string, string>, prefix = '/sharing/rest/oauth2') {
  const res = await svc.app.inject({ method: 'POST', url: `${prefix}/token`, payload: { f: 'json', ...params } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const exchangeCode = (clientId: string, code: string, verifier: string, redirectUri = APP_PAGE, prefix?: string) =>
  tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }, prefix);

/** What the SDK reads back from the redirect: query `code` and `state` (JSON.parse'd). */
function sdkReadsRedirect(location: string) {
  const url = new URL(location);
  return { base: `${url.origin}${url.pathname}`, code: url.searchParams.get('code'), state: url.searchParams.get('state'), url };
}

describe.each(PREFIXES)('the SDK sign-in with the page under %s', (prefix) => {
  it('authorize → sign in → redirect with code and the JSON state → token with the verifier → signed in → refresh', async () => {
    const clientId = await registerApp();
    const verifier = random32();
    const { params, state } = sdkAuthorize(clientId, s256(verifier));
    const { location } = await signIn(prefix, params);

    const back = sdkReadsRedirect(location);
    expect(back.base).toBe(APP_PAGE);
    expect(back.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The state comes back exactly as sent, percent-encoded as one query value.
    expect(back.state).toBe(state);
    expect(location).toContain(`state=${encodeURIComponent(state)}`);
    expect(JSON.parse(back.state!)).toEqual(JSON.parse(state));
    expect([...back.url.searchParams.keys()].sort()).toEqual(['code', 'state']);

    const issued = await exchangeCode(clientId, back.code!, verifier);
    expect(issued).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: LIMITS.oauthAccessTokenMinutes * 60,
      username: 'user1',
      ssl: false,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      // expiration=20160 (the SDK's default): the refresh token's validity, in seconds here.
      refresh_token_expires_in: 20160 * 60,
    });
    expect((await svc.post('community/self', {}, issued.access_token)).username).toBe('user1');

    // The SDK's refresh: grant_type=refresh_token with client_id and the refresh token only.
    const refreshed = await tokenCall({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: clientId });
    expect(refreshed).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: LIMITS.oauthAccessTokenMinutes * 60,
      username: 'user1',
      ssl: false,
    });
    expect(refreshed.access_token).not.toBe(issued.access_token);
    expect((await svc.post('community/self', {}, refreshed.access_token)).username).toBe('user1');
  });

  it('answers the token endpoint under the same prefix too (POST only), and revokeToken', async () => {
    const clientId = await registerApp();
    const verifier = random32();
    const { location } = await signIn(prefix, sdkAuthorize(clientId, s256(verifier)).params);
    const issued = await exchangeCode(clientId, sdkReadsRedirect(location).code!, verifier, APP_PAGE, prefix);
    expect(issued.username).toBe('user1');
    const get = await svc.app.inject({ method: 'GET', url: `${prefix}/token?grant_type=refresh_token&client_id=${clientId}` });
    expect(get.json().error.code).toBe(405);
    const revoke = await svc.app.inject({
      method: 'POST',
      url: `${prefix}/revokeToken`,
      payload: { f: 'json', auth_token: issued.refresh_token, client_id: clientId },
    });
    expect(revoke.json()).toEqual({ success: true });
    expect((await svc.post('community/self', {}, issued.access_token)).error.code).toBe(498);
    const after = await tokenCall({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, client_id: clientId });
    expect(after.error).toMatchObject({ code: 498, error: 'invalid_request' });
  });

  it('sends a Cancel back as error=access_denied with the JSON state, which the SDK parses', async () => {
    const clientId = await registerApp();
    const { params, state } = sdkAuthorize(clientId, s256(random32()));
    const page = await openPage(prefix, params);
    const res = await submit(prefix, { nonce: page.nonce!, action: 'cancel' }, page.cookie);
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('error_description')).toBeTruthy();
    expect(JSON.parse(url.searchParams.get('state')!)).toEqual(JSON.parse(state));
    expect(url.searchParams.get('code')).toBeNull();
  });
});

describe('the sign-in page cookie', () => {
  it('has Path=/sharing (both prefixes), HttpOnly, SameSite=Lax, no Secure over http; a page shown under one prefix posts under the other', async () => {
    const clientId = await registerApp();
    const verifier = random32();
    const { params, state } = sdkAuthorize(clientId, s256(verifier));
    const page = await openPage('/sharing/oauth2', params);
    expect(page.setCookie).toMatch(/^portal_oauth_binding=[A-Za-z0-9_-]{43}; Path=\/sharing; Max-Age=1800; HttpOnly; SameSite=Lax$/);
    const res = await submit('/sharing/rest/oauth2', { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    expect(res.statusCode).toBe(302);
    expect(sdkReadsRedirect(String(res.headers.location)).state).toBe(state);
  });

  it('is refused when missing or from another browser, and a binding cookie left from the old narrower path still counts', async () => {
    const clientId = await registerApp();
    const page = await openPage('/sharing/oauth2', sdkAuthorize(clientId, s256(random32())).params);
    const fields = { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' };
    expect((await submit('/sharing/oauth2', fields)).statusCode).toBe(400);
    expect((await submit('/sharing/oauth2', fields, `portal_oauth_binding=${random32()}`)).statusCode).toBe(400);
    // Browsers send the longer-path cookie first (an old Path=/sharing/rest/oauth2 one), then this one.
    const res = await submit('/sharing/rest/oauth2', fields, `portal_oauth_binding=${random32()}; ${page.cookie}`);
    expect(res.statusCode).toBe(302);
    expect(sdkReadsRedirect(String(res.headers.location)).code).toBeTruthy();
  });

  it('never authenticates a REST request', async () => {
    const clientId = await registerApp();
    const page = await openPage('/sharing/oauth2', sdkAuthorize(clientId, s256(random32())).params);
    await submit('/sharing/oauth2', { nonce: page.nonce!, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }, page.cookie);
    const self = await svc.app.inject({ method: 'GET', url: '/sharing/rest/community/self?f=json', headers: { cookie: page.cookie } });
    expect(self.json().error.code).toBe(499);
    const portal = await svc.app.inject({ method: 'GET', url: '/sharing/rest/portals/self?f=json', headers: { cookie: page.cookie } });
    expect(portal.json().user).toBeUndefined();
  });

  it('is Secure and under the PUBLIC_URL path when the portal is reached over https', async () => {
    const tls = await startService({ clock: { now: () => clockNow }, config: { publicUrl: 'https://127.0.0.1:3443/portal' } });
    try {
      const owner = await tls.tokenFor('publisher1');
      const item = await tls.post('content/users/publisher1/addItem', { title: 'SDK app', type: 'Application' }, owner);
      const { client_id: clientId } = await tls.post(
        'oauth2/registerApp',
        { itemId: item.id, appType: 'browser', redirect_uris: JSON.stringify([APP_PAGE]) },
        owner,
      );
      const res = await tls.app.inject({ method: 'GET', url: `/sharing/oauth2/authorize?${sdkQuery(sdkAuthorize(clientId, s256(random32())).params)}` });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(
        /^portal_oauth_binding=[A-Za-z0-9_-]{43}; Path=\/portal\/sharing; Max-Age=1800; HttpOnly; SameSite=Lax; Secure$/,
      );
    } finally {
      await tls.close();
    }
  });
});

describe('expiration: the refresh token validity, in minutes', () => {
  it('is honoured, capped at 90 days, two weeks when absent; the refresh token ends with it', async () => {
    const clientId = await registerApp();
    const issue = async (extra: Record<string, string>, omitExpiration = false) => {
      const verifier = random32();
      const { params } = sdkAuthorize(clientId, s256(verifier), extra);
      if (omitExpiration) delete (params as Partial<typeof params>).expiration;
      const { location } = await signIn('/sharing/oauth2', params);
      return exchangeCode(clientId, sdkReadsRedirect(location).code!, verifier);
    };
    const hour = await issue({ expiration: '60' });
    expect(hour.refresh_token_expires_in).toBe(3600);
    expect((await issue({ expiration: '99999999' })).refresh_token_expires_in).toBe(LIMITS.maxRefreshTokenMinutes * 60);
    expect((await issue({}, true)).refresh_token_expires_in).toBe(LIMITS.defaultRefreshTokenMinutes * 60);

    clockNow += 59 * 60_000;
    expect((await tokenCall({ grant_type: 'refresh_token', refresh_token: hour.refresh_token, client_id: clientId })).access_token).toBeTruthy();
    clockNow += 2 * 60_000;
    const late = await tokenCall({ grant_type: 'refresh_token', refresh_token: hour.refresh_token, client_id: clientId });
    expect(late.error).toMatchObject({ code: 498, error: 'invalid_request', error_description: 'refresh_token expired' });
  });

  it('refuses what is not a whole number of minutes, with the error page', async () => {
    const clientId = await registerApp();
    for (const expiration of ['0', '-5', '1.5', 'two weeks']) {
      const page = await openPage('/sharing/oauth2', sdkAuthorize(clientId, s256(random32()), { expiration }).params);
      expect(page.res.statusCode, expiration).toBe(400);
      expect(page.res.headers.location).toBeUndefined();
      expect(page.res.body).toContain('expiration');
    }
  });
});

describe('PKCE', () => {
  it('refuses a wrong verifier with invalid_grant and burns the code', async () => {
    const clientId = await registerApp();
    const verifier = random32();
    const { location } = await signIn('/sharing/oauth2', sdkAuthorize(clientId, s256(verifier)).params);
    const { code } = sdkReadsRedirect(location);
    const tokensBefore = await svc.db.query('SELECT count(*)::int AS n FROM tokens');
    const wrong = await exchangeCode(clientId, code!, random32());
    expect(wrong.error).toMatchObject({ code: 400, error: 'invalid_grant', error_description: 'Invalid code_verifier' });
    // The challenge itself is no verifier for S256.
    const asPlain = await exchangeCode(clientId, code!, s256(verifier));
    expect(asPlain.error).toMatchObject({ code: 400, error: 'invalid_grant' });
    expect((await exchangeCode(clientId, code!, verifier)).error).toMatchObject({ code: 400, error: 'invalid_grant' });
    expect(await svc.db.query('SELECT count(*)::int AS n FROM tokens')).toEqual(tokensBefore);
  });

  it('accepts plain, which the SDK sends outside a secure context (the verifier as the challenge)', async () => {
    const clientId = await registerApp();
    const verifier = random32();
    const { location } = await signIn('/sharing/oauth2', sdkAuthorize(clientId, verifier, { code_challenge_method: 'plain' }).params);
    expect((await exchangeCode(clientId, sdkReadsRedirect(location).code!, verifier)).username).toBe('user1');
  });

  it('requires a challenge: the implicit grant (response_type=token) is not offered', async () => {
    const clientId = await registerApp();
    const { params } = sdkAuthorize(clientId, s256(random32()));
    const { code_challenge: _c, code_challenge_method: _m, ...noPkce } = params;
    expect((await openPage('/sharing/oauth2', noPkce)).res.statusCode).toBe(400);
    const implicit = await openPage('/sharing/oauth2', { ...noPkce, response_type: 'token' });
    expect(implicit.res.statusCode).toBe(400);
    expect(implicit.res.headers.location).toBeUndefined();
    expect(implicit.res.body).toContain('response_type');
  });
});

describe('the client and its redirect URIs', () => {
  it('unknown client: the error page on authorize (nothing redirected), invalid_client on token', async () => {
    const verifier = random32();
    for (const prefix of PREFIXES) {
      const page = await openPage(prefix, sdkAuthorize('NoSuchClient1234', s256(verifier)).params);
      expect(page.res.statusCode).toBe(400);
      expect(page.res.headers.location).toBeUndefined();
      expect(page.res.headers['set-cookie']).toBeUndefined();
      expect(page.res.body).toContain('not registered');
    }
    expect((await exchangeCode('NoSuchClient1234', random32(), verifier)).error).toMatchObject({ code: 400, error: 'invalid_client' });
  });

  it('takes only a registered redirect URI, compared exactly: another port, host, path or query is refused', async () => {
    const clientId = await registerApp([APP_PAGE, 'http://[::1]:5999/sdk-app/']);
    for (const redirect of [
      'http://127.0.0.1:6000/sdk-app/',
      'http://localhost:5999/sdk-app/',
      'http://127.0.0.1:5999/sdk-app',
      'http://127.0.0.1:5999/sdk-app/?next=1',
      'https://127.0.0.1:5999/sdk-app/',
    ]) {
      for (const prefix of PREFIXES) {
        const page = await openPage(prefix, sdkAuthorize(clientId, s256(random32()), { redirect_uri: redirect }).params);
        expect(page.res.statusCode, `${prefix} ${redirect}`).toBe(400);
        expect(page.res.headers.location).toBeUndefined();
        expect(page.res.body).toContain('not registered for this app');
      }
    }
    // The second registered URI (IPv6 loopback) works.
    const verifier = random32();
    const v6 = 'http://[::1]:5999/sdk-app/';
    const { location } = await signIn('/sharing/oauth2', sdkAuthorize(clientId, s256(verifier), { redirect_uri: v6 }).params);
    expect(sdkReadsRedirect(location).base).toBe(v6);
    // The token request must name the authorize request's redirect URI.
    const mismatch = await exchangeCode(clientId, sdkReadsRedirect(location).code!, verifier, APP_PAGE);
    expect(mismatch.error).toMatchObject({ code: 400, error: 'invalid_grant' });
  });
});
