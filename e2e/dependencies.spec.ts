/**
 * Where is this layer used, and what breaks if it changes: a layer used by a map used by an app.
 * The layer's page shows both; deleting or deprecating it names both before confirming; pointing
 * the map at a replacement rewrites the map's data, and undo from the map's history restores it.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

async function rest(request: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...form } });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

test('a layer used by a map used by an app: both named before delete and deprecate, the map pointed at a replacement, and undone', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const { token } = await rest(request, 'generateToken', { username: 'admin', password: DEMO_PASSWORD });
  const add = async (fields: Record<string, string>) => (await rest(request, 'content/users/admin/addItem', { token, ...fields })).id as string;
  const oldUrl = `http://127.0.0.1:9/arcgis/rest/services/Parks_${tag}/FeatureServer`;
  const newUrl = `http://127.0.0.1:9/arcgis/rest/services/Parks2024_${tag}/FeatureServer`;
  const layerTitle = `Parks ${tag}`;
  const replacementTitle = `Parks 2024 ${tag}`;
  const mapTitle = `City map ${tag}`;
  const appTitle = `City app ${tag}`;
  const layer = await add({ title: layerTitle, type: 'Feature Service', url: oldUrl });
  const replacement = await add({ title: replacementTitle, type: 'Feature Service', url: newUrl });
  const mapData = {
    operationalLayers: [{ id: 'parks', title: 'Parks', layerType: 'ArcGISFeatureLayer', itemId: layer, url: `${oldUrl}/0` }],
    baseMap: { title: 'Basemap', baseMapLayers: [] },
    version: '2.31',
  };
  const map = await add({ title: mapTitle, type: 'Web Map', text: JSON.stringify(mapData) });
  await add({ title: appTitle, type: 'Web Mapping Application', text: JSON.stringify({ source: 'x', values: { webmap: map } }) });

  await signIn(page, 'admin');

  // 1. The layer's page: Used by names the map, and with the switch the app beneath it.
  await page.goto(`/content/items/${layer}`);
  await expect(page.getByRole('heading', { level: 1, name: layerTitle })).toBeVisible();
  await page.getByRole('tab', { name: 'Dependencies' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Dependencies' });
  await expect(panel.getByRole('link', { name: mapTitle })).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByText("From the portal's index.")).toBeVisible();
  await panel.getByRole('switch', { name: 'Show everything that depends on it' }).check();
  await expect(panel.getByRole('link', { name: appTitle })).toBeVisible();
  await snap(page, 'dependencies-used-by');

  // 2. Delete names both before anything is deleted; cancelled.
  await page.getByRole('button', { name: 'Delete item' }).click();
  let dialog = page.getByRole('dialog', { name: /Delete/ });
  const stops = dialog.getByRole('list', { name: 'Items that will stop working' });
  await expect(stops).toContainText(mapTitle, { timeout: 20_000 });
  await expect(stops).toContainText(appTitle);
  await snap(page, 'dependencies-delete-impact');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // 3. Deprecate names both too, and offers the replacement.
  await page.getByRole('tab', { name: 'Content status' }).click();
  await page.getByRole('radio', { name: 'Deprecated', exact: true }).check();
  await page.getByRole('button', { name: 'Apply status' }).click();
  dialog = page.getByRole('dialog', { name: /^Deprecate/ });
  const users = dialog.getByRole('list', { name: 'Items that use the deprecated item' });
  await expect(users).toContainText(mapTitle, { timeout: 20_000 });
  await expect(users).toContainText(appTitle);
  await snap(page, 'dependencies-deprecate-impact');
  await dialog.getByRole('button', { name: 'Deprecate and point to a replacement…' }).click();

  // 4. The replacement: the map is rewritten (id and service address), the layer deprecated.
  dialog = page.getByRole('dialog', { name: /point to a replacement/ });
  await dialog.getByRole('combobox', { name: 'Replacement' }).fill(replacementTitle);
  await page.getByRole('option', { name: new RegExp(replacementTitle) }).click();
  await expect(dialog.getByTestId('replace-referrer')).toContainText(mapTitle);
  await snap(page, 'dependencies-replace');
  await dialog.getByRole('button', { name: 'Point 1 item to the replacement and deprecate' }).click();
  await expect(dialog.getByRole('table', { name: 'Replacement results' })).toContainText(mapTitle, { timeout: 30_000 });
  await snap(page, 'dependencies-replace-results');
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  const readMap = async () => (await (await request.get(`/sharing/rest/content/items/${map}/data?f=json&token=${token}`)).json()) as typeof mapData;
  await expect.poll(async () => (await readMap()).operationalLayers[0].itemId).toBe(replacement);
  expect((await readMap()).operationalLayers[0].url).toBe(`${newUrl}/0`);
  const layerItem = await (await request.get(`/sharing/rest/content/items/${layer}?f=json&token=${token}`)).json();
  expect(layerItem.contentStatus).toBe('deprecated');
  expect(layerItem.replacedBy).toBe(replacement);

  // The layer's page names its replacement: "Deprecated — use …", a link to it.
  await page.goto(`/content/items/${layer}`);
  const useReplacement = page.getByRole('link', { name: `Deprecated — use ${replacementTitle}` });
  await expect(useReplacement).toBeVisible();
  await expect(page.getByTestId('replaced-by')).toHaveText(`— use ${replacementTitle}`);
  await snap(page, 'dependencies-deprecated-names-replacement');
  await useReplacement.click();
  await expect(page.getByRole('heading', { name: replacementTitle, level: 1 })).toBeVisible();

  // Activity: the swap and the deprecation are one entry, open to both rows.
  await page.goto('/activity');
  const run = page.getByTestId('replacement-entry').filter({ hasText: `admin replaced '${layerTitle}' with '${replacementTitle}'` });
  await expect(run).toContainText(`admin replaced '${layerTitle}' with '${replacementTitle}': 1 item now uses it`);
  await page.waitForLoadState('networkidle');
  await run.getByText('Show its 2 changes').click();
  await expect(run.getByText(`admin marked '${layerTitle}' as deprecated`)).toBeVisible();
  await expect(run.getByText(`admin replaced references to '${layerTitle}' with '${replacementTitle}'`)).toBeVisible();
  await snap(page, 'dependencies-replacement-history-entry');

  // 5. Undo from the map's history: the map names the old layer again.
  await page.goto(`/content/items/${map}`);
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('checkbox', { name: /^Select to undo: admin replaced references to/ }).check();
  await page.getByRole('button', { name: 'Undo selected (1)' }).click();
  const undo = page.getByRole('dialog', { name: 'Undo 1 change' });
  await undo.getByRole('button', { name: 'Undo 1 change' }).click();
  await expect(page.getByTestId('announcer-polite')).toHaveText('1 undone, 0 not undone.', { timeout: 30_000 });
  await snap(page, 'dependencies-undo');
  const restored = await readMap();
  expect(restored.operationalLayers[0].itemId).toBe(layer);
  expect(restored.operationalLayers[0].url).toBe(`${oldUrl}/0`);
});
