/**
 * Copy to… another organization: the demo organization's admin copies a map that uses a CSV layer
 * to the partner organization (signing in as its admin for the copy). The plan shows two items to
 * create and the CSV's id rewritten in the map; the copy runs, the result opens; a second run plans
 * updates instead of duplicates; undo deletes what the copy created. Keyboard for the sign-in, axe
 * on each step, screenshots of the plan and the results at 1440 and 390 px.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { DEMO_PASSWORD, signIn, signInOncePerFile, snap } from './support.ts';
import { test } from './test.ts';

async function rest(request: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...form } });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

/** A web map's JSON as these specs write and read it: one CSV layer, no basemap layers. */
interface WebMapData {
  operationalLayers: { id: string; title: string; layerType: string; itemId: string; url?: string }[];
  baseMap: { title: string; baseMapLayers: unknown[] };
  version: string;
}

/**
 * A CSV item `<name> <tag>` and a web map `<name> map <tag>` using it as a layer, both the admin's and
 * tagged "copy". `layerUrl` also gives the layer its data address (a map as Map Viewer saves it).
 */
async function addMapOfCsvLayer(
  request: APIRequestContext,
  token: string,
  { name, tag, csv, layerUrl }: { name: string; tag: string; csv: string; layerUrl?: (csvId: string) => string },
) {
  const added = await request.post('/sharing/rest/content/users/admin/addItem', {
    multipart: {
      f: 'json',
      token,
      title: `${name} ${tag}`,
      type: 'CSV',
      tags: 'copy',
      file: { name: `${name.toLowerCase()}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
  });
  const csvId = ((await added.json()) as { id: string }).id;
  const mapTitle = `${name} map ${tag}`;
  const layer = { id: name.toLowerCase(), title: name, layerType: 'CSV', itemId: csvId, ...(layerUrl ? { url: layerUrl(csvId) } : {}) };
  const mapData: WebMapData = { operationalLayers: [layer], baseMap: { title: 'Basemap', baseMapLayers: [] }, version: '2.31' };
  const map = await rest(request, 'content/users/admin/addItem', { token, title: mapTitle, type: 'Web Map', tags: 'copy', text: JSON.stringify(mapData) });
  return { csvId, mapId: map.id as string, mapTitle };
}

async function snapBoth(page: Page, dialog: Locator, name: string) {
  await snap(page, `${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog).toBeVisible();
  // The page settles into the narrow layout over a few frames: nothing wider than the screen once it has.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, `${name}-390`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('copy a map and its CSV layer to the partner organization: plan, apply, open, re-run updates, undo', async ({ page, request, browser, baseURL }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const tag = Date.now().toString(36);
  const { token } = await rest(request, 'generateToken', { username: 'admin', password: DEMO_PASSWORD });
  const { csvId, mapTitle } = await addMapOfCsvLayer(request, token, {
    name: 'Stops',
    tag,
    csv: 'name,lat,lon\nA,1,2\n',
    layerUrl: (id) => `${baseURL}/sharing/rest/content/items/${id}/data`,
  });

  // The partner's admin signs in beside the admin's steps, to open the result when it is there.
  const partner = await browser.newPage({ baseURL });
  const partnerSignedIn = signIn(partner, 'partner_admin');
  await signInOncePerFile(page, 'admin');
  await page.goto(`/content?q=${encodeURIComponent(mapTitle)}`);
  const list = page.getByRole('table', { name: 'Content' });
  await list.getByRole('checkbox', { name: `Select ${mapTitle}` }).check();
  await page.getByRole('button', { name: 'Copy to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy 1 item to…' });

  // 1. The target: the partner organization, signed in to for the copy by keyboard.
  await dialog.getByRole('textbox', { name: 'Username' }).focus();
  await page.keyboard.type('partner_admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('radio', { name: /partner_admin/ })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: `Stops ${tag} (CSV)` })).toBeChecked();
  await expectAxeClean(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Review the plan' }).click();

  // 2. The plan: two items to create, the CSV first, its id rewritten in the map.
  await expect(dialog.getByRole('status').filter({ hasText: '2 items' })).toContainText('2 to create, 0 to update');
  const steps = dialog.getByTestId('copy-plan-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText(`Stops ${tag}`);
  await expect(dialog.getByRole('list', { name: `Ids rewritten in ${mapTitle}` })).toContainText(`${csvId} (Stops ${tag}) → the new copy`);
  await expectAxeClean(page, '[role="dialog"]');
  // Dark too: the badges and code spans take their colours from the scheme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAxeClean(page, '[role="dialog"]');
  await page.emulateMedia({ colorScheme: 'light' });
  await snapBoth(page, dialog, 'copy-to-plan');

  // 3. Apply: progress per item, then the results link to the copies.
  await dialog.getByRole('button', { name: 'Copy 2 items' }).click();
  await expect(dialog.getByText('Copied 2 items: 2 created, 0 updated.')).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText('Copied 2 items: 2 created, 0 updated.')).toBeFocused();
  const mapLink = dialog.getByRole('link', { name: /Open the new item/ }).nth(1);
  const href = (await mapLink.getAttribute('href'))!;
  const newMapId = href.split('/').pop()!;
  await expectAxeClean(page, '[role="dialog"]');
  await snapBoth(page, dialog, 'copy-to-results');

  // The result opens: the partner's admin sees the new map in their organization, pointing at the new CSV.
  await partnerSignedIn;
  await partner.goto(href);
  await expect(partner.getByRole('heading', { level: 1, name: mapTitle })).toBeVisible();
  await partner.close();
  const partnerToken = (await rest(request, 'generateToken', { username: 'partner_admin', password: DEMO_PASSWORD })).token as string;
  const copied = (await (await request.get(`/sharing/rest/content/items/${newMapId}/data?f=json&token=${partnerToken}`)).json()) as WebMapData;
  expect(copied.operationalLayers[0].itemId).not.toBe(csvId);

  // 4. Again: the plan says update (found by the source keyword), and nothing is duplicated.
  await dialog.getByRole('button', { name: 'Copy again' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: '2 items' })).toContainText('0 to create, 2 to update');
  await expect(dialog.getByRole('list', { name: `Ids rewritten in ${mapTitle}` })).toContainText(
    `${csvId} (Stops ${tag}) → ${copied.operationalLayers[0].itemId}`,
  );
  await dialog.getByRole('button', { name: 'Copy 2 items' }).click();
  await expect(dialog.getByText('Copied 2 items: 0 created, 2 updated.')).toBeVisible({ timeout: 15_000 });

  // 5. Undo deletes the two items the copy created.
  await dialog.getByRole('button', { name: 'Undo: delete the 2 created items' }).click();
  await expect(dialog.getByText('Undone: 2 items this copy created deleted from the target.')).toBeVisible();
  const gone = await (await request.get(`/sharing/rest/content/items/${newMapId}?f=json&token=${partnerToken}`)).json();
  expect([400, 404]).toContain(gone.error?.code);
  await dialog.locator('[data-dialog-footer]').getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});

test('a copy cut off by a lost connection is offered on Content again, and resumes without copying anything twice', async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const tag = `r${Date.now().toString(36)}`;
  const { token } = await rest(request, 'generateToken', { username: 'admin', password: DEMO_PASSWORD });
  const { csvId, mapId, mapTitle } = await addMapOfCsvLayer(request, token, { name: 'Depots', tag, csv: 'n\n1\n' });
  await rest(request, `content/users/admin/items/${mapId}/share`, { token, org: 'true', everyone: 'false', groups: ' ' });

  await signInOncePerFile(page, 'admin');
  await page.goto(`/content?q=${encodeURIComponent(mapTitle)}`);
  await page
    .getByRole('table', { name: 'Content' })
    .getByRole('checkbox', { name: `Select ${mapTitle}` })
    .check();
  await page.getByRole('button', { name: 'Copy to…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy 1 item to…' });
  await dialog.getByRole('textbox', { name: 'Username' }).fill('partner_admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('radio', { name: /partner_admin/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Review the plan' }).click();
  // The map's organization sharing travels with it.
  await expect(dialog.getByTestId('copy-plan-step').nth(1)).toContainText('Shared with the organization.');

  // The connection drops after the CSV is copied: the map's addItem and the rollback's deletes never arrive.
  let adds = 0;
  await page.route('**/sharing/rest/content/users/partner_admin/addItem', (route) => (++adds > 1 ? route.abort('internetdisconnected') : route.continue()));
  await page.route('**/sharing/rest/content/users/partner_admin/items/*/delete', (route) => route.abort('internetdisconnected'));
  await dialog.getByRole('button', { name: 'Copy 2 items' }).click();
  await expect(dialog.getByText(/The copy stopped, and what it had created could not all be removed/)).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole('alert')).toContainText('Could not remove');
  await expectAxeClean(page, '[role="dialog"]');
  await page.unrouteAll();

  // The tab closes; opening Content again offers the unfinished copy.
  await page.reload();
  await page.goto('/content');
  const offer = page.getByTestId('unfinished-copy');
  await expect(offer).toContainText('Copying 2 items to Partner Organization (partner_admin) stopped after 1.');
  await expectAxeClean(page, '[data-testid="unfinished-copy"]');
  await offer.getByRole('button', { name: 'Resume the copy' }).click();
  const resume = page.getByRole('dialog', { name: /Resume the copy to/ });
  await resume.getByRole('textbox', { name: 'Username' }).focus();
  await page.keyboard.type('partner_admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(resume.getByRole('radio', { name: /partner_admin/ })).toBeChecked();
  await expectAxeClean(page, '[role="dialog"]');
  await snap(page, 'copy-to-resume');
  await resume.getByRole('button', { name: 'Resume: copy 1 more' }).click();
  await expect(resume.getByText('Copied 2 items: 2 created, 0 updated.')).toBeVisible({ timeout: 15_000 });
  await expectAxeClean(page, '[role="dialog"]');

  // One copy of each: the CSV made before the connection dropped was kept, not made again; the map is shared with the organization.
  const partnerToken = (await rest(request, 'generateToken', { username: 'partner_admin', password: DEMO_PASSWORD })).token as string;
  const search = async (id: string) =>
    (await (
      await request.get(`${baseURL}/sharing/rest/search?f=json&num=10&q=${encodeURIComponent(`typekeywords:source-${id}`)}&token=${partnerToken}`)
    ).json()) as {
      results: { id: string; access: string }[];
    };
  expect((await search(csvId)).results).toHaveLength(1);
  const mapCopies = (await search(mapId)).results;
  expect(mapCopies.map((r) => r.access)).toEqual(['org']);

  await resume.getByRole('button', { name: 'Undo: delete the 2 created items' }).click();
  await expect(resume.getByText('Undone: 2 items this copy created deleted from the target.')).toBeVisible();
  await resume.locator('[data-dialog-footer]').getByRole('button', { name: 'Close' }).click();
  await expect(offer).toBeHidden();
  expect((await search(csvId)).results).toHaveLength(0);
});

test('copy to a second portal on another loopback port, from the browser: CORS both ways, and a target without local extras', async ({
  page,
  request,
  portalPort,
}) => {
  test.setTimeout(180_000);
  // The worker's spare port (e2e/portals.ts), a portal of its own with LOCAL_EXTRAS=off: only documented operations answer there.
  const port = portalPort + 1;
  const other = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copy-target-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO_DATA: 'on', LOCAL_EXTRAS: 'off', PASSWORD_LOG_N: '10' },
    stdio: 'ignore',
  });
  try {
    const tag = `p${Date.now().toString(36)}`;
    const { token } = await rest(request, 'generateToken', { username: 'admin', password: DEMO_PASSWORD });
    const { csvId, mapId, mapTitle } = await addMapOfCsvLayer(request, token, { name: 'Halts', tag, csv: 'n\n1\n' });
    // The map is shared with a group whose copy is already in the target (tagged source-<id>), where
    // publisher1, the account copied into, is not a member: the copies cannot be shared to it there.
    const crewTitle = `Halts crew ${tag}`;
    const { group: crew } = await rest(request, 'community/createGroup', { token, title: crewTitle, access: 'org', tags: 'copy' });
    await rest(request, `content/users/admin/items/${mapId}/share`, { token, groups: crew.id });
    for (const until = Date.now() + 120_000; ;) {
      const up = await fetch(`${other}/sharing/rest/portals/self?f=json`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > until) throw new Error('the second portal did not start');
      await new Promise((r) => setTimeout(r, 500));
    }
    const otherRest = async (restPath: string, form: Record<string, string>) => {
      const body = (await fetch(`${other}/sharing/rest/${restPath}`, { method: 'POST', body: new URLSearchParams({ f: 'json', ...form }) }).then((r) =>
        r.json(),
      )) as Record<string, unknown> & { error?: unknown };
      if (body.error) throw new Error(`${restPath}: ${JSON.stringify(body.error)}`);
      return body;
    };
    const otherToken = ((await otherRest('generateToken', { username: 'admin', password: DEMO_PASSWORD })) as { token: string }).token;
    await otherRest('community/createGroup', { token: otherToken, title: crewTitle, access: 'org', tags: `source-${crew.id}` });

    await signInOncePerFile(page, 'admin');
    await page.goto(`/content?q=${encodeURIComponent(mapTitle)}`);
    await page
      .getByRole('table', { name: 'Content' })
      .getByRole('checkbox', { name: `Select ${mapTitle}` })
      .check();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy 1 item to…' });
    await dialog.getByRole('textbox', { name: 'Portal URL' }).fill(`${other}/sharing/rest`);
    await dialog.getByRole('textbox', { name: 'Username' }).fill('publisher1');
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('radio', { name: /publisher1/ })).toBeChecked({ timeout: 15_000 });
    await dialog.getByRole('button', { name: 'Review the plan' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: '2 items' })).toContainText('2 to create, 0 to update');
    const crewPlan = dialog.getByRole('list', { name: 'Groups in the target' }).getByRole('listitem').filter({ hasText: crewTitle });
    await expect(crewPlan).toContainText(`You are not a member of group ${crewTitle} in the target — the copies will not be shared to it.`);
    // The map's own card does not claim it will be shared with that group.
    await expect(dialog.getByText(`and the group ${crewTitle}`)).toHaveCount(0);
    await snapBoth(page, dialog, 'copy-to-group-skipped-plan');
    await dialog.getByRole('button', { name: 'Copy 2 items' }).click();
    await expect(dialog.getByText('Copied 2 items: 2 created, 0 updated.')).toBeVisible({ timeout: 20_000 });
    await expect(dialog.getByRole('list', { name: 'Groups not shared to' })).toContainText(`You are not a member of group ${crewTitle} in the target`);
    await snap(page, 'copy-to-group-skipped-results-1440');
    await expectAxeClean(page, '[role="dialog"]');

    // In the second portal: one copy of each, the map pointing at the CSV's copy there.
    const find = async (id: string) =>
      (
        (await (await fetch(`${other}/sharing/rest/search?f=json&q=${encodeURIComponent(`typekeywords:source-${id}`)}&token=${otherToken}`)).json()) as {
          results: { id: string }[];
        }
      ).results;
    const [csvCopy] = await find(csvId);
    const [mapCopy] = await find(mapId);
    expect(csvCopy?.id).toMatch(/^[0-9a-f]{32}$/);
    const copied = (await (await fetch(`${other}/sharing/rest/content/items/${mapCopy.id}/data?f=json&token=${otherToken}`)).json()) as WebMapData;
    expect(copied.operationalLayers[0].itemId).toBe(csvCopy.id);
    // Not shared to the crew's group there, which publisher1 may not share to.
    const mapGroups = (await (await fetch(`${other}/sharing/rest/content/items/${mapCopy.id}/groups?f=json&token=${otherToken}`)).json()) as Record<
      string,
      { title: string }[]
    >;
    expect(
      Object.values(mapGroups)
        .flat()
        .map((g) => g.title),
    ).not.toContain(crewTitle);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
