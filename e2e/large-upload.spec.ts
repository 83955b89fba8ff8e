/**
 * Files from 9 to 33 MB through the console, end to end: Add item → File (one request below the
 * 32 MB multipart threshold, parts from it on) and the item page's "Replace the data". The sizes are
 * the fewest megabytes that still cross each line: 9 under the old 10 MB request limit, 12 over it,
 * 33 over the multipart threshold (four whole 8 MB parts and a short last one). Larger files showed
 * nothing more (the 33 MB replacement still sends over 30 MB in one request) and cost time: with 30
 * and 40 MB the walk moved 173 MB instead of 99, and its test took 1.2 min instead of 47 s. Each
 * upload makes an item of the file's exact size and the administrator stays signed in; a refused
 * upload says why on the page and does not end the session. The CSV files are made in a temporary
 * folder and removed afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { apiAs } from './keyboard.ts';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

const MB = 1024 * 1024;
let dir: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'large-upload-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CSV of exactly `mb` MB: a header, then whole rows, padded with spaces. */
function csv(name: string, mb: number): string {
  const row = '1234567,hydrant,42.5\n';
  const chunk = Buffer.alloc(MB, ' ');
  for (let at = 0; at + row.length <= MB; at += row.length) chunk.write(row, at);
  const body = Buffer.concat(Array.from({ length: mb }, () => chunk));
  body.write('id,name,value\n'.padEnd(row.length, ' '), 0);
  const file = path.join(dir, name);
  writeFileSync(file, body);
  return file;
}

async function stillSignedIn(page: Page) {
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible();
  await expect(page.getByText('Session ended')).toHaveCount(0);
}

test('files of 9, 12 and 33 MB are added and replace an item’s data, each with its exact size', async ({ page, request }) => {
  test.setTimeout(180_000);
  const api = await apiAs(request, 'admin');
  const tag = Date.now().toString(36);
  const sizeOf = async (title: string) => {
    const found = await api('search', { q: `title:"${title}" AND owner:admin`, num: '10' });
    const item = (found.results as { id: string; title: string; size: number }[]).find((r) => r.title === title);
    return item && { id: item.id, size: item.size };
  };

  // Every upload names its caller before the file: the token in the header, none as a field.
  const uploads: { url: string; auth?: string }[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.headers()['content-type']?.startsWith('multipart/form-data'))
      uploads.push({ url: r.url(), auth: r.headers()['x-esri-authorization'] });
  });
  await signIn(page, 'admin', DEMO_PASSWORD, 30_000);
  await page.getByRole('link', { name: 'Content', exact: true }).click();
  for (const mb of [9, 12, 33]) {
    const title = `Hydrants ${mb} MB ${tag}`;
    await page.getByRole('button', { name: 'Add item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add item' });
    await dialog
      .locator('input[type=file]')
      .first()
      .setInputFiles(csv(`hydrants-${mb}.csv`, mb));
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
    await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveValue('CSV');
    await dialog.getByRole('button', { name: 'Add item' }).click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    if (mb > 32) await expect(page.getByRole('region', { name: 'Uploads and downloads' }).getByText('Added')).toBeVisible({ timeout: 60_000 });
    else await expect(page.getByText(`“${title}” was added.`)).toBeVisible();
    await stillSignedIn(page);
    await expect.poll(() => sizeOf(title), { timeout: 15_000 }).toMatchObject({ size: mb * MB });
  }
  await snap(page, 'large-upload-added');

  // The item page: the 9 MB item's data replaced by 12 and 33 MB files in turn (each in one request).
  const first = (await sizeOf(`Hydrants 9 MB ${tag}`))!;
  await page.goto(`/content/items/${first.id}`);
  await page.getByRole('tab', { name: 'Data and files' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Data and files' });
  for (const mb of [12, 33]) {
    await panel.locator('input[type=file]').setInputFiles(csv(`replacement-${mb}.csv`, mb));
    await panel.getByRole('button', { name: 'Replace the data' }).click();
    await expect(page.getByText(`was replaced with replacement-${mb}.csv (${mb} MB)`)).toBeVisible({ timeout: 60_000 });
    await stillSignedIn(page);
    await expect.poll(() => sizeOf(`Hydrants 9 MB ${tag}`), { timeout: 15_000 }).toEqual({ id: first.id, size: mb * MB });
  }
  await expect(page.getByText(/· 33 MB/)).toBeVisible();
  // 2 single-request adds, 5 addPart for the 33 MB file, 2 replacements.
  expect(uploads.length).toBeGreaterThanOrEqual(9);
  for (const u of uploads) expect(u.auth, u.url).toMatch(/^Bearer \S+$/);
  await snap(page, 'large-upload-replaced');
});

test('an upload the portal refuses shows the reason on the page and keeps the session', async ({ page, request }) => {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const title = `Refused ${Date.now().toString(36)}`;
  const added = await (
    await request.post('/sharing/rest/content/users/admin/addItem', {
      headers: { 'X-Esri-Authorization': `Bearer ${token}` },
      multipart: { f: 'json', title, type: 'CSV', file: { name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') } },
    })
  ).json();
  expect(added.success, JSON.stringify(added)).toBe(true);
  // The portal answers the upload Token Required although the console sent its token (as a proxy
  // that drops the header would make it): an upload error, not a lost session.
  await page.route('**/sharing/rest/content/users/admin/items/*/update', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 499, message: 'Token Required', details: ['Token Required'] } }),
        })
      : route.fallback(),
  );
  await signIn(page, 'admin', DEMO_PASSWORD, 30_000);
  await page.goto(`/content/items/${added.id}`);
  await page.getByRole('tab', { name: 'Data and files' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Data and files' });
  await panel.locator('input[type=file]').setInputFiles(csv('refused.csv', 12));
  await panel.getByRole('button', { name: 'Replace the data' }).click();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('The data was not replaced');
  await expect(alert).toContainText('answered 499');
  await expect(alert).toContainText('You are still signed in');
  await stillSignedIn(page);
  await expect(page).toHaveURL(new RegExp(`/content/items/${added.id}`));
  await snap(page, 'large-upload-refused');
});
