/**
 * Signing in as ArcGIS apps do: a token registered with IdentityManager (and checked with
 * checkSignInStatus), and OAuth 2.0 with a registered app, the SDK sending the browser to the
 * portal's sign-in page and back to the app with a code (PKCE).
 */
import { DEMO_PASSWORD } from '../support/service.ts';
import { expect, test } from './fixtures.ts';
import { addItem } from './support/data.ts';

test("the portal is served over HTTPS (the service's own certificate) and the SDK speaks https to it", async ({ app, env }) => {
  expect(env.portal.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const restUrl = await app.run(async () => {
    const portal = new window.sdk.Portal({ authMode: 'anonymous' });
    await portal.load();
    return portal.restUrl;
  });
  expect(restUrl).toBe(`${env.portal.url}/sharing/rest`);
  const portalRequests = app.requests.filter((url) => new URL(url).port === new URL(env.portal.url).port);
  expect(portalRequests.length).toBeGreaterThan(0);
  expect(portalRequests.every((url) => url.startsWith('https://'))).toBe(true);
});

test('registerToken, then checkSignInStatus resolves the credential and Portal.load() reads the user', async ({ app, env }) => {
  await app.registerToken('publisher1');
  const result = await app.run(async (sharingUrl) => {
    const credential = await window.sdk.IdentityManager.checkSignInStatus(sharingUrl);
    const portal = new window.sdk.Portal({ authMode: 'immediate' });
    await portal.load();
    return { userId: credential.userId, username: portal.user?.username, fullName: portal.user?.fullName, name: portal.name };
  }, `${env.portal.url}/sharing`);
  expect(result).toEqual({ userId: 'publisher1', username: 'publisher1', fullName: 'Pat Publisher', name: 'Demo Organization' });
  // checkSignInStatus validates the token against the Sharing API root.
  expect(app.requests.some((url) => new URL(url).pathname === '/sharing/rest')).toBe(true);
});

test('checkSignInStatus without a credential rejects (not signed in)', async ({ app, env }) => {
  const error = await app.run(
    (sharingUrl) =>
      window.sdk.IdentityManager.checkSignInStatus(sharingUrl).then(
        () => null,
        (err: { name?: string }) => err.name ?? String(err),
      ),
    `${env.portal.url}/sharing`,
  );
  expect(error).toBe('identity-manager:not-authenticated');
});

test('OAuth 2.0 sign-in: registered app, the portal sign-in page, back to the app signed in', async ({ app, env }) => {
  const { svc } = env.portal;
  const redirectUri = `${env.appOrigin}/`;
  const itemId = await addItem(svc, 'admin', { title: 'SDK OAuth app', type: 'Application', tags: 'sdk' });
  const registered = await svc.post(
    'oauth2/registerApp',
    { itemId, appType: 'browser', redirect_uris: JSON.stringify([redirectUri]) },
    await svc.tokenFor('admin'),
  );
  expect(registered.redirect_uris).toEqual([redirectUri]);
  const appId: string = registered.client_id;

  const { page } = app;
  // Not awaited: getCredential sends the browser away to the portal's authorize page.
  void page
    .evaluate(
      ({ appId, portalUrl }) => {
        const { IdentityManager, OAuthInfo } = window.sdk;
        IdentityManager.registerOAuthInfos([new OAuthInfo({ appId, portalUrl, popup: false })]);
        return IdentityManager.getCredential(`${portalUrl}/sharing`);
      },
      { appId, portalUrl: env.portal.url },
    )
    .catch(() => undefined);
  await page.waitForURL((url) => url.origin === env.portal.url && url.pathname.endsWith('/oauth2/authorize'));
  const authorize = new URL(page.url());
  expect(authorize.pathname).toBe('/sharing/oauth2/authorize');
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('redirect_uri')).toBe(redirectUri);

  await page.getByLabel('Username').fill('user1');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === env.appOrigin);
  await expect(page.locator('#status')).toHaveText('ready');

  const signedIn = await app.run(
    async ({ appId, portalUrl }) => {
      const { IdentityManager, OAuthInfo, Portal } = window.sdk;
      IdentityManager.registerOAuthInfos([new OAuthInfo({ appId, portalUrl, popup: false })]);
      const credential = await IdentityManager.checkSignInStatus(`${portalUrl}/sharing`);
      const again = await IdentityManager.getCredential(`${portalUrl}/sharing`);
      const portal = new Portal({ authMode: 'immediate' });
      await portal.load();
      return { userId: credential.userId, sameCredential: again === credential, username: portal.user?.username, hasToken: !!credential.token };
    },
    { appId, portalUrl: env.portal.url },
  );
  expect(signedIn).toEqual({ userId: 'user1', sameCredential: true, username: 'user1', hasToken: true });
  // The code was exchanged with the verifier at the portal's token endpoint.
  expect(app.requests.some((url) => new URL(url).pathname === '/sharing/rest/oauth2/token')).toBe(true);
});
