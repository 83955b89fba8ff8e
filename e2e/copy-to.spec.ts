/**
 * Copy to… another organization: the demo organization's admin copies a map that uses a CSV layer
 * to the partner organization (signing in as its admin for the copy). The plan shows two items to
 * create and the CSV's id rewritten in the map; the copy runs, the result opens; a second run plans
 * updates instead of duplicates; undo deletes what the copy created. Keyboard for the sign-in, axe
 * on each step, screenshots of the plan and the results at 1440 and 390 px.
 */
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

async function rest(request: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...form } });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
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
  const csv = await request.post('/sharing/rest/content/users/admin/addItem', {
    multipart: {
      f: 'json',
      token,
      title: `Stops ${tag}`,
      type: 'CSV',
      tags: 'copy',
      file: { name: 'stops.csv', mimeType: 'text/csv', buffer: Buffer.from('name,lat,lon\nA,1,2\n') },
    },
  });
  const csvId = ((await csv.json()) as { id: string }).id;
  const mapTitle = `Stops map ${tag}`;
  const mapData = {
    operationalLayers: [{ id: 'stops', title: 'Stops', layerType: 'CSV', itemId: csvId, url: `${baseURL}/sharing/rest/content/items/${csvId}/data` }],
    baseMap: { title: 'Basemap', baseMapLayers: [] },
    version: '2.31',
  };
  await rest(request, 'content/users/admin/addItem', { token, title: mapTitle, type: 'Web Map', tags: 'copy', text: JSON.stringify(mapData) });

  // The partner's admin signs in beside the admin's steps, to open the result when it is there.
  const partner = await browser.newPage({ baseURL });
  const partnerSignedIn = signIn(partner, 'partner_admin');
  await signIn(page, 'admin');
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
  const copied = (await (await request.get(`/sharing/rest/content/items/${newMapId}/data?f=json&token=${partnerToken}`)).json()) as typeof mapData;
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
