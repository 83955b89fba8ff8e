/**
 * Keyboard only: the content list's row selection and its bulk actions — delete two items (preview,
 * run, results read and announced, focus back on the list), then transfer two others with the
 * transfer wizard (new owner picked from the search list, pre-check, run), focus followed at each
 * step.
 */
import { expect, type Page } from '@playwright/test';
import { snap } from './support.ts';
import { announced, apiAs, expectVisibleFocus, keyboardSignIn, tabTo } from './keyboard.ts';
import { test } from './test.ts';

test.setTimeout(180_000);

/** Ticks the rows' checkboxes of the content list with Tab and Space. */
async function tickRows(page: Page, titles: string[]) {
  const list = page.getByRole('table', { name: 'Content' });
  for (const title of titles) {
    await expect(list.getByRole('link', { name: title })).toBeVisible({ timeout: 15_000 });
    const box = list.getByRole('checkbox', { name: `Select ${title}` });
    await tabTo(page, box);
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  await expect(page.getByRole('status').filter({ hasText: 'selected' })).toHaveText(`${titles.length} selected`);
}

/** Types into the content list's search box (focus moves there with Shift+Tab from the list). */
async function searchContent(page: Page, text: string) {
  const search = page.getByRole('searchbox', { name: 'Search content' });
  await tabTo(page, search);
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('an administrator selects rows of the content list and deletes them, all by keyboard', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const admin = await apiAs(request, 'admin');
  const titles = [`Old survey ${tag}`, `Old parcels ${tag}`];
  const ids: string[] = [];
  for (const title of titles) ids.push((await admin('content/users/admin/addItem', { title, type: 'Web Map', text: '{}' })).id);

  await keyboardSignIn(page, 'admin');
  await tabTo(page, page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Content', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await searchContent(page, tag);
  await tickRows(page, titles);

  // The bulk actions sit above the list: Shift+Tab goes back to them.
  const deleteButton = page.getByRole('button', { name: 'Delete…' });
  await tabTo(page, deleteButton, { back: true });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete 2 items' });
  await expect(dialog).toBeVisible();
  for (const title of titles) await expect(dialog.getByRole('listitem').filter({ hasText: title })).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Delete 2 items' }));
  await snap(page, 'keyboard-content-delete-preview');
  await page.keyboard.press('Enter');

  // The confirm button is gone: the counts take focus and the result is announced.
  const counts = dialog.getByTestId('bulk-counts');
  await expect(counts).toBeFocused({ timeout: 15_000 });
  await expectVisibleFocus(page);
  await expect(counts).toHaveText('2 deleted0 failed');
  await expect(announced(page)).toHaveText('2 deleted, 0 failed.');
  for (const title of titles)
    await expect(dialog.getByRole('table', { name: 'Delete results' }).getByRole('row', { name: new RegExp(title) })).toContainText('Deleted');

  // Closing: the selection (and its bar) is gone with the items; focus goes back to the list — its
  // "select all", or (the search now finds nothing, "select all" is disabled) its search field.
  // The footer's Close (the header's X is named Close too).
  await tabTo(page, dialog.getByRole('button', { name: 'Close' }).last());
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('searchbox', { name: 'Search content' })).toBeFocused();
  await expectVisibleFocus(page);
  await expect(page.getByRole('button', { name: 'Delete…' })).toHaveCount(0);

  // The portal agrees.
  for (const id of ids) await expect(admin(`content/items/${id}`, {})).rejects.toThrow();
});

test('an administrator transfers selected items with the transfer wizard, all by keyboard', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const admin = await apiAs(request, 'admin');
  const titles = [`Hydrants ${tag}`, `Valves ${tag}`];
  const ids: string[] = [];
  for (const title of titles) ids.push((await admin('content/users/admin/addItem', { title, type: 'Web Map', text: '{}' })).id);
  const folder = `From admin ${tag}`;

  await keyboardSignIn(page, 'admin');
  await tabTo(page, page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Content', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Content' })).toBeVisible();
  await searchContent(page, tag);
  await tickRows(page, titles);

  // "Transfer ownership…" opens the wizard with the two items ticked.
  await tabTo(page, page.getByRole('link', { name: 'Transfer ownership…' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Transfer content' })).toBeVisible();
  await expect(page.getByTestId('transfer-selection')).toContainText(/^2 of \d+ items? selected/);

  // Step 1 → 2: the button goes with its step, after the owner's whole list (two stops a row, and
  // the administrator owns what every earlier spec added); the next step's heading takes focus.
  await tabTo(page, page.getByRole('button', { name: 'Next: new owner' }), { max: 600 });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'New owner and folder' })).toBeFocused();
  await expectVisibleFocus(page);

  // The new owner: typed into the search list, picked with the arrow keys and Enter.
  const owner = page.getByRole('combobox', { name: 'New owner' });
  await tabTo(page, owner);
  await page.keyboard.type('publisher1');
  const option = page.getByRole('option', { name: /publisher1/ });
  await expect(option).toBeVisible({ timeout: 15_000 });
  for (let i = 0; i < 10 && (await option.getAttribute('data-combobox-selected')) === null; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(option).toBeHidden();
  await expect(owner).toHaveValue(/publisher1/);

  const folderBox = page.getByRole('textbox', { name: 'Folder' });
  await tabTo(page, folderBox);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(folder);

  await tabTo(page, page.getByRole('button', { name: 'Check 2 items' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Pre-check' })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'transferable' })).toContainText('2 transferable', { timeout: 15_000 });
  await snap(page, 'keyboard-transfer-precheck');

  await tabTo(page, page.getByRole('button', { name: 'Transfer 2 items' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Transfer' })).toBeFocused();
  const results = page.getByRole('table', { name: 'Transfer results' });
  for (const title of titles) await expect(results.getByRole('row', { name: new RegExp(title) })).toContainText('Transferred', { timeout: 15_000 });
  await expect(announced(page)).toHaveText('2 transferred, 0 failed.');
  await expect(page.getByText(`2 of 2 items now belong to publisher1, in the folder “${folder}”.`)).toBeVisible();

  // Tab goes on from the focused heading to what the step offers.
  // Started from Content, the wizard stays in Content.
  await expect(page).toHaveURL(/\/content\/transfer\?/);
  await tabTo(page, page.getByRole('link', { name: 'Back to Content' }));

  for (const id of ids) expect((await admin(`content/items/${id}`, {})).owner).toBe('publisher1');
});
