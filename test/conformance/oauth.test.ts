/**
 * OAuth 2.0 with Esri's client: an app registered through rest-js `request()`, the authorize step
 * over real HTTP the way a browser does it (GET the page, post its form with the cookie, follow
 * nothing), the code exchanged with rest-js `fetchToken` exactly as `completeOAuth2` does (with the
 * PKCE verifier; `exchangeAuthorizationCode` sends none, so it cannot be used against a portal
 * that requires PKCE), then an `ArcGISIdentityManager` built from the answer: it reads the user
 * and the portal, refreshes (refresh_token and, near the refresh token's end, exchange_refresh_token)
 * and signs out (revokeToken with the refresh token).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createItem } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, fetchToken, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncConsoleApp } from '../../src/server/areas/oauth/consoleApp.ts';
import { DEMO_PASSWORD, startService, type TestService } from '../support/service.ts';
import { rejection } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let origin: string;
let admin: ArcGISIdentityManager;
let clientId: string;
const REDIRECT = 'http://127.0.0.1:9/app/callback';

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  origin = new URL(portal).origin;
  admin = await ArcGISIdentityManager.signIn({ username: 'admin', password: DEMO_PASSWORD, portal });
});
afterAll(() => svc.close());

/** What a browser does between beginOAuth2 and completeOAuth2: the page, the form, the redirect. */
async function browserSignIn(client: string, redirectUri: string, challenge: string, username = 'user1') {
  const query = new URLSearchParams({
    client_id: client,
    response_type: 'code',
    expiration: '20160',
    redirect_uri: redirectUri,
    state: JSON.stringify({ id: 'abc123', originalUrl: 'http://127.0.0.1:9/app/' }),
    locale: '',
    style: '',
    code_challenge_method: 'S256',
    code_challenge: challenge,
  });
  const page = await fetch(`${portal}/oauth2/authorize?${query}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const nonce = /name="nonce" value="([^"]+)"/.exec(html)![1];
  const action = new URL(/action="([^"]+)"/.exec(html)![1], page.url);
  const cookie = page.headers.get('set-cookie')!.split(';')[0];
  const res = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ nonce, username, password: DEMO_PASSWORD, action: 'signin' }),
  });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  expect(JSON.parse(location.searchParams.get('state')!)).toEqual({ id: 'abc123', originalUrl: 'http://127.0.0.1:9/app/' });
  return location.searchParams.get('code')!;
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function signedInManager(redirectUri = REDIRECT) {
  const { verifier, challenge } = pkce();
  const code = await browserSignIn(clientId, redirectUri, challenge);
  const answer = await fetchToken(`${portal}/oauth2/token`, {
    httpMethod: 'POST',
    params: { client_id: clientId, code_verifier: verifier, grant_type: 'authorization_code', redirect_uri: redirectUri, code },
  });
  return { answer, manager: new ArcGISIdentityManager({ clientId, portal, redirectUri, ...tokenOptions(answer) }) };
}

const tokenOptions = (a: Awaited<ReturnType<typeof fetchToken>>) => ({
  token: a.token,
  tokenExpires: a.expires,
  username: a.username,
  ssl: a.ssl,
  refreshToken: a.refreshToken,
  refreshTokenExpires: a.refreshTokenExpires,
});

describe('OAuth 2.0 with rest-js', () => {
  it('registers an Application item with request()', async () => {
    const item = await createItem({ item: { title: 'Conformance App', type: 'Application' }, authentication: admin });
    const app = await request(`${portal}/oauth2/registerApp`, {
      authentication: admin,
      params: { itemId: item.id, appType: 'browser', redirect_uris: JSON.stringify([REDIRECT]) },
    });
    expect(app).toMatchObject({
      itemId: item.id,
      client_id: expect.any(String),
      client_secret: expect.any(String),
      appType: 'browser',
      redirect_uris: [REDIRECT],
    });
    clientId = app.client_id;
    const read = await request(`${portal}/oauth2/apps/${clientId}`, { authentication: admin });
    expect(read).toMatchObject({ client_id: clientId, redirect_uris: [REDIRECT] });
    const refused = await rejection(request(`${portal}/oauth2/registerApp`, { authentication: admin, params: { itemId: item.id, appType: 'browser' } }));
    expect(refused.response.error.code).toBe(400);
  });

  it('signs in through the page; fetchToken reads the answer; the identity manager uses and refreshes it', async () => {
    const { answer, manager } = await signedInManager();
    expect(answer).toMatchObject({ token: expect.any(String), username: 'user1', ssl: false, refreshToken: expect.any(String) });
    expect(answer.expires.getTime()).toBeGreaterThan(Date.now() + 20 * 60_000);
    expect(answer.refreshTokenExpires!.getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3_600_000);

    expect((await manager.getUser()).username).toBe('user1');
    expect((await manager.getPortal()).id).toBe(svc.orgId);

    const before = manager.token;
    await manager.refreshCredentials();
    expect(manager.token).not.toBe(before);
    expect(manager.refreshToken).toBe(answer.refreshToken);
    expect((await manager.getUser()).username).toBe('user1');
    const self = await request(`${portal}/community/self`, { params: { token: manager.token } });
    expect(self.username).toBe('user1');
  });

  it('exchanges a refresh token near its end for a new one (exchange_refresh_token)', async () => {
    const { answer } = await signedInManager();
    const manager = new ArcGISIdentityManager({
      clientId,
      portal,
      redirectUri: REDIRECT,
      ...tokenOptions(answer),
      refreshTokenExpires: new Date(Date.now() + 3_600_000),
    });
    await manager.refreshCredentials();
    expect(manager.refreshToken).toBeTruthy();
    expect(manager.refreshToken).not.toBe(answer.refreshToken);
    expect((await manager.getUser()).username).toBe('user1');
    // The old refresh token is spent.
    const stale = new ArcGISIdentityManager({ clientId, portal, redirectUri: REDIRECT, ...tokenOptions(answer) });
    const err = await rejection(stale.refreshCredentials());
    expect(err.name).toBe('ArcGISTokenRequestError');
  });

  it('signOut revokes the refresh token and the access tokens issued from it', async () => {
    const { manager } = await signedInManager();
    await manager.refreshCredentials();
    const token = manager.token;
    await manager.signOut();
    const err = await rejection(request(`${portal}/community/self`, { params: { token } }));
    expect(err.response.error.code).toBe(498);
    const refresh = await rejection(manager.refreshCredentials());
    expect(refresh.name).toBe('ArcGISTokenRequestError');
  });

  it('a reused code is refused through fetchToken', async () => {
    const { verifier, challenge } = pkce();
    const code = await browserSignIn(clientId, REDIRECT, challenge);
    const params = { client_id: clientId, code_verifier: verifier, grant_type: 'authorization_code', redirect_uri: REDIRECT, code };
    await fetchToken(`${portal}/oauth2/token`, { httpMethod: 'POST', params: { ...params } });
    const err = await rejection(fetchToken(`${portal}/oauth2/token`, { httpMethod: 'POST', params: { ...params } }));
    expect(err.response.error).toMatchObject({ code: 400, error: 'invalid_grant' });
  });

  it('the console app: /console-config.json names its client_id, and its redirect URI works', async () => {
    const port = Number(new URL(portal).port);
    const consoleId = await syncConsoleApp(svc.app.portal, port);
    const config = await (await fetch(`${origin}/console-config.json`)).json();
    expect(config).toEqual({ portalUrl: portal, oauth: { clientId: consoleId } });
    const { verifier, challenge } = pkce();
    const redirectUri = `${origin}/oauth-callback`;
    const code = await browserSignIn(consoleId!, redirectUri, challenge, 'admin');
    const answer = await fetchToken(`${portal}/oauth2/token`, {
      httpMethod: 'POST',
      params: { client_id: consoleId!, code_verifier: verifier, grant_type: 'authorization_code', redirect_uri: redirectUri, code },
    });
    const manager = new ArcGISIdentityManager({ clientId: consoleId!, portal, redirectUri, ...tokenOptions(answer) });
    expect((await manager.getUser()).username).toBe('admin');
  });
});
