/**
 * OAuth 2.0 sign-in of the console on its own portal (the console app the demo data registers,
 * announced by /console-config.json): the portal's sign-in page, the callback, a page that needs
 * the token, refresh (a token ended by the portal, a token about to run out), sign-out revoking.
 */
import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD, signOut, snap } from './support.ts';
import { test } from './test.ts';

interface StoredSession {
  portalUrl: string;
  token: string;
  expires: number;
  clientId?: string;
  refreshToken?: string;
  user: { username: string };
}

/** The active portal's session as the tab stores it. */
function storedSession(page: Page): Promise<StoredSession> {
  return page.evaluate(() => {
    const active = sessionStorage.getItem('portal-admin-console.activePortal')!;
    return JSON.parse(sessionStorage.getItem('portal-admin-console.sessions')!)[active];
  });
}

async function signInOnPortalPage(page: Page, username: string) {
  await expect(page).toHaveURL(/\/sharing\/rest\/oauth2\/authorize\?/);
  await expect(page.getByRole('heading', { level: 1, name: /^Sign in to / })).toBeVisible();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('signs in through the portal, refreshes its token, and signing out ends the refresh token', async ({ page, request }) => {
  await page.goto('/members');
  await expect(page).toHaveURL(/\/sign-in\?returnTo=%2Fmembers$/);
  const oauth = page.getByRole('button', { name: /^Sign in with / });
  await expect(oauth).toBeVisible();
  // The password form stays, second.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await snap(page, 'oauth-sign-in-page');

  await oauth.click();
  await signInOnPortalPage(page, 'admin');

  // Back in the console, signed in, on the page asked for (which needs the token).
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Members' })).toBeVisible();
  const first = await storedSession(page);
  expect(first.user.username).toBe('admin');
  expect(first.refreshToken).toBeTruthy();
  expect(first.clientId).toBeTruthy();
  const local = await page.evaluate(() => JSON.stringify(localStorage));
  expect(local).not.toContain(first.token);
  expect(local).not.toContain(first.refreshToken!);

  // The header says which portal every page acts on.
  const switcher = page.getByRole('button', { name: /^Portal: / });
  await expect(switcher).toBeVisible();
  await switcher.click();
  await expect(page.getByRole('menuitem', { name: 'Sign in to another portal…' })).toBeVisible();
  await snap(page, 'oauth-header-switcher');
  await page.keyboard.press('Escape');

  // 1. The portal ends the access token: the next request gets 498, the console refreshes once and repeats it.
  const revoked = await request.post('/sharing/rest/oauth2/revokeToken', { form: { f: 'json', auth_token: first.token, client_id: first.clientId! } });
  expect((await revoked.json()).success).toBe(true);
  const refused = await request.get(`/sharing/rest/community/self?f=json&token=${first.token}`);
  expect((await refused.json()).error.code).toBe(498);
  await page.getByRole('link', { name: 'Roles' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Roles' })).toBeVisible();
  await expect(page.getByRole('table').first()).toBeVisible();
  await expect.poll(async () => (await storedSession(page)).token).not.toBe(first.token);
  const second = await storedSession(page);
  expect(second.refreshToken).toBe(first.refreshToken);

  // 2. The token is about to run out (a reload of a tab whose token has seconds left): refreshed before it does.
  await page.evaluate(() => {
    const active = sessionStorage.getItem('portal-admin-console.activePortal')!;
    const all = JSON.parse(sessionStorage.getItem('portal-admin-console.sessions')!);
    all[active].expires = Date.now() + 5_000;
    sessionStorage.setItem('portal-admin-console.sessions', JSON.stringify(all));
  });
  await page.goto('/members');
  await expect.poll(async () => (await storedSession(page)).token, { timeout: 10_000 }).not.toBe(second.token);
  const third = await storedSession(page);
  expect(third.expires).toBeGreaterThan(Date.now() + 20 * 60_000);
  await expect(page.getByRole('table', { name: 'Members' })).toBeVisible();
  const works = await request.get(`/sharing/rest/community/self?f=json&token=${third.token}`);
  expect((await works.json()).username).toBe('admin');

  // 3. Sign-out revokes the refresh token (and the access token): neither works afterwards.
  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  const afterRefresh = await request.post('/sharing/rest/oauth2/token', {
    form: { f: 'json', grant_type: 'refresh_token', client_id: third.clientId!, refresh_token: third.refreshToken! },
  });
  const afterBody = await afterRefresh.json();
  expect(afterBody.access_token).toBeUndefined();
  expect(afterBody.error.message).toMatch(/Invalid refresh_token/);
  const afterAccess = await request.get(`/sharing/rest/community/self?f=json&token=${third.token}`);
  expect((await afterAccess.json()).error.code).toBe(498);
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(third.refreshToken!);
});

test('Cancel on the portal’s page comes back to the sign-in page with the portal’s reason', async ({ page }) => {
  await page.goto('/sign-in?returnTo=%2Froles');
  await page.getByRole('button', { name: /^Sign in with / }).click();
  await expect(page).toHaveURL(/\/oauth2\/authorize\?/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/sign-in\?returnTo=%2Froles$/);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Sign-in cancelled');
  await expect(alert).toContainText('The user denied your request.');
  await snap(page, 'oauth-sign-in-cancelled');
});

test('a second portal: set up once with its client ID, then switch between the two from the header', async ({ page, request, baseURL }) => {
  // The same service under its other loopback name is, to the console, another portal.
  const other = `${baseURL!.replace('127.0.0.1', 'localhost')}/sharing/rest`;
  const config = await (await request.get('/console-config.json')).json();
  const clientId: string = config.oauth.clientId;

  await page.goto('/sign-in');
  await page.getByRole('button', { name: /^Sign in with / }).click();
  await signInOnPortalPage(page, 'admin');
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();

  await page.getByRole('button', { name: /^Portal: / }).click();
  await page.getByRole('menuitem', { name: 'Sign in to another portal…' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to another portal' })).toBeVisible();
  await page.getByLabel('Portal URL').fill(other);
  const setup = page.getByRole('region', { name: /^Sign in with / });
  await expect(setup).toBeVisible();
  await expect(setup.getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(`${baseURL}/oauth-callback`);
  await setup.getByLabel(/Client ID/).fill(clientId);
  await snap(page, 'oauth-another-portal-setup');
  await setup.getByRole('button', { name: /^Sign in with / }).click();
  await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/sharing\/rest\/oauth2\/authorize\?/);
  await signInOnPortalPage(page, 'publisher1');

  await expect(page).toHaveURL(/\/overview$/);
  const switcher = page.getByRole('button', { name: /^Portal: / });
  await expect(switcher).toContainText(new URL(other).host);
  await expect(page.getByRole('button', { name: 'Account menu for Pat Publisher' })).toBeVisible();
  await switcher.click();
  await expect(page.getByRole('menuitem')).toHaveCount(3);
  await snap(page, 'oauth-header-switcher-two-portals');
  await page.getByRole('menuitem', { name: new RegExp(`${new URL(baseURL!).host} · admin`) }).click();
  await expect(page.getByRole('button', { name: /^Account menu for Portal Administrator/ })).toBeVisible();
  await expect(switcher).toContainText(new URL(baseURL!).host);
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Now acting on' })).toBeVisible();
  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('table', { name: 'Members' })).toBeVisible();

  // At 320 px the header still names the portal.
  await page.setViewportSize({ width: 320, height: 640 });
  // The "Now acting on" notification may cover the header: closed here if it is still up (it also
  // closes by itself, and on a slow run it already has), and gone before the header is measured.
  const toast = page.locator('.mantine-Notification-root');
  if (await toast.count())
    await toast
      .getByRole('button')
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  await expect(toast).toHaveCount(0, { timeout: 15_000 });
  await expect(switcher).toBeVisible();
  for (const control of [switcher, page.getByRole('button', { name: /^Account menu for/ })]) {
    const box = (await control.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(320);
  }
  await snap(page, 'oauth-header-320');
});
