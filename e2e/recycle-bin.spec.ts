/**
 * The recycle bin: an administrator deletes items of two owners from Content (the summary per owner,
 * the count typed before the red button enables), finds them in the Recycle bin, restores one by
 * keyboard (it is back in Content with its data) and deletes another permanently.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

async function token(request: APIRequestContext, username: string): Promise<string> {
  const res = await request.post('/sharing/rest/generateToken', { form: { f: 'json', username, password: DEMO_PASSWORD, referer: 'e2e' } });
  return ((await res.json()) as { token: string }).token;
}

async function addCsv(request: APIRequestContext, owner: string, title: string, body: string): Promise<string> {
  const res = await request.post(`/sharing/rest/content/users/${owner}/addItem`, {
    multipart: {
      f: 'json',
      token: await token(request, owner),
      title,
      type: 'CSV',
      file: { name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from(body) },
    },
  });
  return ((await res.json()) as { id: string }).id;
}

test('delete items of two owners into the recycle bin, restore one, delete one for good', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const tag = `Bin${Date.now().toString(36)}`;
  const restored = await addCsv(request, 'user1', `${tag} Hydrants`, 'id,x\n1,2\n');
  await addCsv(request, 'user1', `${tag} Valves`, 'id\n3\n');
  await addCsv(request, 'admin', `${tag} Mains`, 'id\n4\n');

  await signIn(page, 'admin');
  await page.goto(`/content?scope=org&q=${tag}`);
  const list = page.getByRole('table', { name: 'Content' });
  for (const t of ['Hydrants', 'Valves', 'Mains']) await list.getByRole('checkbox', { name: `Select ${tag} ${t}` }).check();
  await page.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 3 items' });
  await expect(dialog.getByText('They go to the recycle bin')).toBeVisible();
  const owners = dialog.getByRole('table', { name: 'Items deleted per owner' });
  await expect(owners.getByRole('row', { name: 'user1 2' })).toBeVisible();
  await expect(owners.getByRole('row', { name: 'admin 1' })).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Delete 3 items' });
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: /^Type 3 to confirm/ }).fill('2');
  await expect(confirm).toBeDisabled();
  await dialog.getByRole('textbox', { name: /^Type 3 to confirm/ }).fill('3');
  await snap(page, 'recycle-bin-delete-summary-1440');
  await confirm.click();
  await expect(dialog.getByRole('table', { name: 'Delete results' })).toContainText('Deleted (in the recycle bin)');
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

  await page.getByRole('link', { name: 'Recycle bin' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Recycle bin' })).toBeVisible();
  const bin = page.getByRole('table', { name: 'Recycled items' });
  for (const t of ['Hydrants', 'Valves', 'Mains']) await expect(bin.getByRole('row', { name: new RegExp(`${tag} ${t}`) })).toContainText('14 days');
  await snap(page, 'recycle-bin-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'recycle-bin-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Restore by keyboard: Space ticks the row, Enter presses Restore.
  await bin.getByRole('checkbox', { name: `Select ${tag} Hydrants` }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Restore (1)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').getByText('Restored 1 item.')).toBeVisible();
  await expect(bin.getByRole('row', { name: new RegExp(`${tag} Hydrants`) })).toHaveCount(0);

  await bin.getByRole('checkbox', { name: `Select ${tag} Valves` }).check();
  await page.getByRole('button', { name: 'Delete permanently (1)' }).click();
  await page.getByRole('dialog', { name: 'Delete 1 item permanently' }).getByRole('button', { name: 'Delete 1 permanently' }).click();
  await expect(page.getByRole('status').getByText('Deleted permanently 1 item.')).toBeVisible();
  await expect(bin.getByRole('row', { name: new RegExp(`${tag} Valves`) })).toHaveCount(0);
  await expect(bin.getByRole('row', { name: new RegExp(`${tag} Mains`) })).toBeVisible();

  // The restored item is back in Content, with its data.
  await page.goto(`/content?scope=org&q=${tag}`);
  await expect(page.getByRole('table', { name: 'Content' }).getByRole('row', { name: new RegExp(`${tag} Hydrants`) })).toBeVisible();
  const data = await request.get(`/sharing/rest/content/items/${restored}/data?token=${await token(request, 'user1')}`);
  expect(await data.text()).toBe('id,x\n1,2\n');
});
