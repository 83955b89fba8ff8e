import { expect } from '@playwright/test';
import { signIn, signOut, snap } from './support.ts';
import { test } from './test.ts';

/**
 * An item owner uploads a file large enough to go in parts, adds a service URL related to it, and
 * an administrator marks the service authoritative: the badge shows, and deleting it is refused.
 */
test('upload a file in parts, add a URL item related to it, mark it authoritative, see the badge and the refused delete', async ({ page }) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const csvTitle = `Park inventory ${tag}`;
  const serviceTitle = `Parks service ${tag}`;
  // 34 MB: above the console's multipart threshold, so it goes as five 8 MB parts.
  const row = 'id,name,acres\n';
  const body = Buffer.alloc(34 * 1024 * 1024, 'x');
  body.write(row, 0);

  await signIn(page, 'publisher1');
  await page.getByRole('link', { name: 'Content', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();

  // 1. The file, dropped into the Add item dialog.
  await page.getByRole('button', { name: 'Add item' }).click();
  let dialog = page.getByRole('dialog', { name: 'Add item' });
  await dialog.locator('input[type=file]').first().setInputFiles({ name: 'parks.csv', mimeType: 'text/csv', buffer: body });
  await expect(dialog.getByText('sent in parts, with progress in the tray')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Title' }).fill(csvTitle);
  await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveValue('CSV');
  await snap(page, 'content-add-file');
  await dialog.getByRole('button', { name: 'Add item' }).click();
  await expect(dialog).toBeHidden();

  // The upload shows as a chip in the header; opened, the tray lists it with its parts.
  await page.getByRole('button', { name: /^Uploads and downloads/ }).click();
  const tray = page.getByRole('dialog', { name: 'Uploads and downloads' });
  await expect(tray).toBeVisible();
  await tray.getByRole('button', { name: 'Show parts' }).click();
  await expect(tray.getByTestId('upload-row')).toContainText('of 5 done');
  await expect(tray.getByTestId('upload-row').getByText('Added', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(tray.getByTestId('upload-row')).toContainText('part 5 of 5 done');
  await snap(page, 'content-upload-tray');
  await page.keyboard.press('Escape');
  await expect(tray).toBeHidden();
  await expect(page.getByRole('table', { name: 'Content' }).getByRole('link', { name: csvTitle })).toBeVisible();

  // 2. A service URL whose data is that file: Service2Data, the new item as the origin.
  await page.getByRole('button', { name: 'Add item' }).click();
  dialog = page.getByRole('dialog', { name: 'Add item' });
  await dialog.getByRole('tab', { name: 'URL', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill('http://127.0.0.1:9/arcgis/rest/services/Parks/FeatureServer');
  // The type is guessed from the URL (…/FeatureServer), and said so.
  await expect(dialog.getByRole('combobox', { name: 'Type' })).toHaveValue('Feature Service');
  await expect(dialog.getByTestId('type-from-url')).toContainText('The URL looks like a Feature Service');
  // Nothing answers on port 9 (tests stay on loopback): the empty Title takes the service's name from the path.
  await expect(dialog.getByRole('textbox', { name: 'Title' })).toHaveValue('Parks');
  await expect(dialog.getByText('Named after the service: change it if you like.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Title' }).fill(serviceTitle);
  await dialog.getByRole('radio', { name: 'The new item is the origin' }).check();
  await dialog.getByRole('combobox', { name: 'Relationship type' }).click();
  await page.getByRole('option', { name: /^Service2Data/ }).click();
  await dialog.getByRole('combobox', { name: 'Destination item' }).fill(csvTitle);
  await page.getByRole('option', { name: new RegExp(csvTitle) }).click();
  await snap(page, 'content-add-url-related');
  await dialog.getByRole('button', { name: 'Add item' }).click();
  await expect(dialog).toBeHidden();

  // "Open item" in the toast goes to the new item, whose page names its ID (with a copy button) and
  // where its URL points instead of "no data".
  await page
    .getByRole('alert')
    .filter({ hasText: `“${serviceTitle}” was added.` })
    .getByRole('button', { name: 'Open item' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: serviceTitle })).toBeVisible();
  const serviceId = page.url().split('/').pop()!;
  await expect(page.getByLabel('Item ID')).toHaveText(serviceId);
  await expect(page.getByRole('button', { name: 'Copy item ID' })).toBeVisible();
  await expect(page.getByText(/Feature Service · owned by/)).toContainText('links to 127.0.0.1:9');
  await page.getByRole('tab', { name: 'Related items' }).click();
  const forward = page.getByRole('table', { name: 'Related items: this item is the origin' });
  await expect(forward.getByRole('row', { name: new RegExp(csvTitle) })).toContainText('Service2Data');
  await snap(page, 'content-related');
  const serviceUrl = page.url();
  await signOut(page);

  // 3. An administrator marks the service authoritative, reading what that changes first.
  await signIn(page, 'admin');
  await page.goto(serviceUrl);
  // "Change owner" leads into the transfer wizard with this item selected.
  await page.getByRole('button', { name: 'Change owner' }).click();
  await expect(page).toHaveURL(new RegExp(`/content/transfer\\?from=publisher1&items=${serviceId}$`));
  await expect(page.getByTestId('transfer-selection')).toContainText(/^1 of/);
  await page.goto(serviceUrl);
  await page.getByRole('tab', { name: 'Content status' }).click();
  await page.getByRole('radio', { name: 'Authoritative', exact: true }).check();
  await expect(page.getByText('It cannot be deleted while it is authoritative.')).toBeVisible();
  await snap(page, 'content-status-preview');
  await page.getByRole('button', { name: 'Apply status' }).click();
  await expect(page.getByTestId('content-status-badge').first()).toHaveText('Authoritative');

  // 4. Deleting it is refused: the button says why, and the portal refuses a bulk delete too.
  const del = page.getByRole('button', { name: 'Delete item' });
  await expect(del).toHaveAttribute('aria-disabled', 'true');
  await expect(del).toHaveAccessibleDescription(/Authoritative items cannot be deleted/);
  await page.goto(`/content?scope=org&q=${encodeURIComponent(tag)}`);
  const list = page.getByRole('table', { name: 'Content' });
  await expect(list.getByRole('row', { name: new RegExp(serviceTitle) }).getByTestId('content-status-badge')).toHaveText('Authoritative');
  await list.getByRole('checkbox', { name: `Select ${serviceTitle}` }).check();
  await page.getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 1 item' });
  await expect(confirm.getByText('1 will be refused')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete 1 item' }).click();
  const results = confirm.getByRole('table', { name: 'Delete results' });
  await expect(results.getByRole('row', { name: new RegExp(serviceTitle) })).toContainText(/authoritative/i);
  await snap(page, 'content-refused-delete');
});
