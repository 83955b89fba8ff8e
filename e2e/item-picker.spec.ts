/**
 * Item pickers scale (issue 39, 6): the scheduled task's item and the deprecation's replacement are
 * chosen with one picker that offers only the types the field accepts, asks the portal with the
 * typed text (its order, not 20 alphabetical titles), pages past 20 ("Load more") and fills the
 * fields that follow from the chosen item (a scene service's URL).
 */
import { expect } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { apiAs } from './keyboard.ts';
import { signIn, snap } from './support.ts';
import { test } from './test.ts';

test('the task and replacement pickers find "Hydrants 3D" among many items, only scene services, past the first 20', async ({ page, request }) => {
  test.setTimeout(150_000);
  const tag = Date.now().toString(36);
  const admin = await apiAs(request, 'admin');
  const add = async (title: string, type: string, extra: Record<string, string> = {}) =>
    (await admin('content/users/admin/addItem', { title, type, ...extra })).id as string;
  const sceneUrl = `http://127.0.0.1:9/arcgis/rest/services/Hydrants3D_${tag}/SceneServer`;
  // Many items named like it: layers (another type) and 24 other scene services.
  for (let i = 0; i < 24; i++) await add(`Hydrants ${String(i).padStart(2, '0')} ${tag}`, 'Feature Service');
  for (let i = 0; i < 24; i++) await add(`Hydrants scene ${String(i).padStart(2, '0')} ${tag}`, 'Scene Service', { url: `${sceneUrl}${i}` });
  const wanted = `Hydrants 3D ${tag}`;
  await add(wanted, 'Scene Service', { url: sceneUrl });

  await signIn(page, 'admin');
  await page.goto('/tasks');
  await page.getByRole('button', { name: 'New task' }).click();
  const form = page.getByRole('dialog', { name: 'New scheduled task' });
  await form.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Scene layer cache' }).click();
  const picker = form.getByRole('combobox', { name: /^Scene service/ });

  // Typed: the portal is asked with the text and the field's type; "Hydrants 3D" is offered, no layer is.
  await picker.pressSequentially('hydrants 3d', { delay: 20 });
  const found = page.getByRole('option', { name: new RegExp(wanted) });
  await expect(found).toBeVisible();
  // The portal's answer to the words typed, not a list filtered in the browser: the other scene services do not match "3d".
  await expect(page.getByRole('option', { name: /Hydrants scene/ })).toHaveCount(0);
  await expect(page.getByRole('option', { name: /Feature Service/ })).toHaveCount(0);
  await snap(page, 'item-picker-task');
  await expectAxeClean(page);
  await found.click();
  await expect(form.getByRole('textbox', { name: /Scene service URL/ })).toHaveValue(sceneUrl);

  // Past the first 20: "hydrants" matches 25 scene services; Load more brings the rest.
  await picker.fill('hydrants');
  const options = page.getByRole('listbox').getByRole('option');
  await expect.poll(() => options.count()).toBeGreaterThanOrEqual(20);
  await expect(page.getByRole('option', { name: /Feature Service/ })).toHaveCount(0);
  await page.getByRole('option', { name: /^Load more/ }).click();
  await expect.poll(() => page.getByRole('option', { name: new RegExp(`Scene Service.*${tag}|${tag}.*Scene Service`) }).count()).toBe(25);
  await page.keyboard.press('Escape');
  await form.getByRole('button', { name: 'Cancel' }).click();
  const discard = page.getByRole('button', { name: /Discard/ });
  if (await discard.isVisible()) await discard.click();

  // The replacement picker: the same search for an old scene service that a web scene uses.
  const old = await add(`Hydrants old scene ${tag}`, 'Scene Service', { url: `${sceneUrl}_old` });
  await add(`Hydrant scene viewer ${tag}`, 'Web Scene', {
    text: JSON.stringify({ operationalLayers: [{ id: 'h', layerType: 'ArcGISSceneServiceLayer', itemId: old }] }),
  });
  await page.goto(`/content/items/${old}`);
  await page.getByRole('tab', { name: 'Content status' }).click();
  await page.getByRole('radio', { name: 'Deprecated', exact: true }).check();
  await page.getByRole('button', { name: 'Apply status' }).click();
  await page
    .getByRole('dialog', { name: /^Deprecate/ })
    .getByRole('button', { name: 'Deprecate and point to a replacement…' })
    .click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: /point to a replacement/ });
  await dialog.getByRole('combobox', { name: /^Replacement/ }).pressSequentially('hydrants 3d', { delay: 20 });
  await expect(page.getByRole('option', { name: new RegExp(wanted) })).toBeVisible();
  await expect(page.getByRole('option', { name: /Hydrants scene/ })).toHaveCount(0);
  await expect(page.getByRole('option', { name: /Feature Service/ })).toHaveCount(0);
  await snap(page, 'item-picker-replacement');
  await expectAxeClean(page);
});
