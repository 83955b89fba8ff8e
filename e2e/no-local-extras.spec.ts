/**
 * The built console on a portal without this portal's extras: a second service process started
 * here with LOCAL_EXTRAS=off (on the port after the worker's portal, e2e/portals.ts; fresh data
 * directory) serves the console and answers as another portal would (docs/local-extras.md). Signed
 * in there, local-only actions are disabled or replaced with the reason, and the pages show the
 * public answers.
 *
 * `npm run build && E2E_PORT=3397 npx playwright test e2e/no-local-extras.spec.ts`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { chooseFileByKeyboard, tabTo } from './keyboard.ts';
import { DEMO_PASSWORD, snap } from './support.ts';
import { test } from './test.ts';

let base = '';
const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-plain-'));
let server: ChildProcess;
let token = '';
let webhookId = '';
let orgId = '';

async function call(pathname: string, params: Record<string, string> = {}) {
  const res = await fetch(`${base}/sharing/rest/${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ f: 'json', ...(token ? { token } : {}), ...params }).toString(),
  });
  return res.json();
}

test.beforeAll(async ({ portalPort }) => {
  // A second service starting beside the worker's own service and browser: as long as the SDK suite
  // gives its portal (test/sdk/fixtures.ts).
  test.setTimeout(120_000);
  // The worker's spare port (e2e/portals.ts): workers running side by side do not collide.
  const port = portalPort + 1;
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'on',
      LOCAL_EXTRAS: 'off',
      ALLOW_PRIVATE_OUTBOUND: 'on',
      PASSWORD_LOG_N: '10',
    },
    stdio: 'ignore',
  });
  const until = Date.now() + 110_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/sharing/rest/portals/self?f=json`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error('the LOCAL_EXTRAS=off service did not start');
    await new Promise((r) => setTimeout(r, 300));
  }
  token = (await call('generateToken', { username: 'admin', password: DEMO_PASSWORD })).token;
  orgId = (await call('portals/self')).id;
  const hook = await call(`portals/${orgId}/webhooks/createWebhook`, { name: 'Plain hook', url: 'http://127.0.0.1:9/hook', events: '/items' });
  if (!hook.id) throw new Error(`createWebhook: ${JSON.stringify(hook)}`);
  webhookId = hook.id;
});

test.afterAll(() => {
  server?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

async function signInThere(page: Page, username = 'admin') {
  await page.goto(`${base}/sign-in`);
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
}

test('the portal answers without extras; the console disables local-only actions with the reason', async ({ page }) => {
  const self = await call('portals/self');
  expect(self.localExtras).toBeUndefined();
  expect((await call(`portals/${orgId}/webhooks/${webhookId}/test`)).error).toMatchObject({ code: 400, messageCode: 'GWM_0002' });

  await signInThere(page);
  await page.goto(`${base}/webhooks/${webhookId}`);
  await expect(page.getByRole('heading', { name: 'Plain hook', level: 1 })).toBeVisible();
  const send = page.getByRole('button', { name: 'Send test event' });
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await expect(send).toHaveAccessibleDescription('Not available on this portal: Demo Organization does not offer a test delivery.');
  await snap(page, 'no-local-extras-webhook');

  await page.goto(`${base}/collaborations`);
  await expect(page.getByText('You host')).toBeVisible();
  await expect(page.getByText('Not available on this portal: Demo Organization does not offer a collaboration history.')).toBeVisible();

  await page.goto(`${base}/settings`);
  await expect(
    page.getByText('Not available on this portal: Demo Organization does not offer a limit on members from other organizations per group.'),
  ).toBeVisible();
  await snap(page, 'no-local-extras-settings');
});

test('without the dependency operations the console builds the graph in the browser: a layer used by a map used by an app', async ({ page }) => {
  test.setTimeout(120_000);
  const add = async (fields: Record<string, string>) => {
    const added = await call('content/users/admin/addItem', fields);
    if (!added.id) throw new Error(`addItem: ${JSON.stringify(added)}`);
    return added.id as string;
  };
  const url = 'http://127.0.0.1:9/arcgis/rest/services/PlainParks/FeatureServer';
  const layer = await add({ title: 'Plain parks layer', type: 'Feature Service', url });
  const map = await add({
    title: 'Plain city map',
    type: 'Web Map',
    text: JSON.stringify({ operationalLayers: [{ id: 'p', layerType: 'ArcGISFeatureLayer', itemId: layer, url: `${url}/0` }], baseMap: { baseMapLayers: [] } }),
  });
  await add({ title: 'Plain city app', type: 'Web Mapping Application', text: JSON.stringify({ values: { webmap: map } }) });
  expect((await call(`content/items/${layer}/dependents`)).error).toMatchObject({ code: 400, messageCode: 'GWM_0002' });

  await signInThere(page);
  await page.goto(`${base}/content/items/${layer}`);
  await page.getByRole('tab', { name: 'Dependencies' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Dependencies' });
  await expect(panel.getByText(/Built in this browser from \d+ items? you can see/)).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole('link', { name: 'Plain city map' })).toBeVisible();
  await panel.getByRole('switch', { name: 'Show everything that depends on it' }).check();
  await expect(panel.getByRole('link', { name: 'Plain city app' })).toBeVisible();
  await snap(page, 'no-local-extras-dependencies');
});

test('a guest accepts with the invitation file, by keyboard; a file no longer open is refused with the reason', async ({ page }) => {
  // The demo collaboration's invitation as its host exported it (the partner has accepted it already).
  const [collaboration] = (await call(`portals/${orgId}/collaborations`)).collaborations;
  const [invitation] = (await call(`portals/${orgId}/collaborations/${collaboration.id}/invitations`)).collaborationInvitations;
  const file = path.join(dataDir, invitation.config.invitationRequestFilename);
  writeFileSync(file, invitation.invitationString);

  await signInThere(page, 'partner_admin');
  await page.goto(`${base}/collaborations`);
  const section = page.getByRole('region', { name: 'Accept an invitation' });
  await expect(section).toBeVisible();
  const chooser = await chooseFileByKeyboard(page, section.getByRole('button', { name: 'Invitation file' }));
  await chooser.setFiles(file);
  await expect(section.getByText(invitation.config.invitationRequestFilename)).toBeVisible();
  const accept = section.getByRole('button', { name: 'Accept invitation' });
  await tabTo(page, accept);
  await page.keyboard.press('Enter');
  await expect(section.getByRole('alert')).toContainText('was already accepted');
  await expectAxeClean(page);
  await snap(page, 'no-local-extras-accept-invitation-file');
});
