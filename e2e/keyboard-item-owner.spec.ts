/**
 * Keyboard only: the owner of an item chooses "Authoritative", reads (and hears) what it would change
 * and that only an administrator can apply it; an administrator then completes it.
 */
import { expect, type Page } from '@playwright/test';
import { snap } from './support.ts';
import { apiAs, expectVisibleFocus, keyboardSignIn, keyboardSignOut, tabTo } from './keyboard.ts';
import { test } from './test.ts';

/** From the item page's tab list to the content status choices, with arrow keys as tabs expect. */
async function openStatusTab(page: Page) {
  await tabTo(page, page.getByRole('tab', { selected: true }));
  const status = page.getByRole('tab', { name: 'Content status' });
  for (let i = 0; i < 8; i++) {
    if (await status.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press('ArrowRight');
  }
  await expect(status).toBeFocused();
  await expectVisibleFocus(page);
  await expect(status).toHaveAttribute('aria-selected', 'true');
  // Into the choices: Tab lands on the checked radio.
  const none = page.getByRole('radio', { name: 'None' });
  await tabTo(page, none);
  await expect(none).toBeChecked();
}

/** Arrow keys move (and check) through the radios until `name` is checked. */
async function arrowTo(page: Page, name: string) {
  const radio = page.getByRole('radio', { name, exact: true });
  for (let i = 0; i < 6 && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(radio).toBeChecked();
  await expect(radio).toBeFocused();
  await expectVisibleFocus(page);
}

test.setTimeout(120_000);

test('an item owner reads what "authoritative" changes and why they cannot apply it; an administrator completes it by keyboard', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const title = `Trail network ${tag}`;
  const publisher = await apiAs(request, 'publisher1');
  const { id } = await publisher('content/users/publisher1/addItem', { title, type: 'Web Map', text: '{}' });

  await keyboardSignIn(page, 'publisher1');
  await page.goto(`/content/items/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await openStatusTab(page);
  await arrowTo(page, 'Authoritative');

  const effects = ['It is listed first in search results across the organization.', 'It cannot be deleted while it is authoritative.'];
  for (const e of effects) await expect(page.getByText(e)).toBeVisible();
  const reason = /Only an administrator of the organization with .* can set or remove an authoritative status\./;
  await expect(page.getByTestId('status-refusal')).toHaveText(reason);
  const apply = page.getByRole('button', { name: 'Apply status' });
  await expect(apply).toBeDisabled();
  await expect(apply).toHaveAccessibleDescription(reason);
  // Heard without leaving the choices: the effects and the reason are in one polite live region.
  const consequences = page.getByTestId('status-consequences');
  await expect(consequences).toHaveAttribute('aria-live', 'polite');
  for (const e of effects) await expect(consequences).toContainText(e);
  await expect(consequences).toContainText(reason);
  await snap(page, 'keyboard-status-owner');

  // Deprecated is theirs to set; it is applied by keyboard and announced.
  await arrowTo(page, 'Deprecated');
  await expect(consequences).toContainText('It is marked deprecated wherever it is listed');
  await expect(consequences).not.toContainText(reason);
  await tabTo(page, apply);
  await page.keyboard.press('Enter');
  // Deprecating asks first, with what uses the item (the impact check), and is confirmed by keyboard.
  const confirm = page.getByRole('dialog', { name: /^Deprecate/ });
  await expect(confirm.getByTestId('impact-check')).toContainText('Nothing that you can see uses this item.');
  await tabTo(page, confirm.getByRole('button', { name: 'Deprecate', exact: true }));
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  // The result is a toast, itself an alert (spoken when it appears).
  await expect(page.getByRole('alert').filter({ hasText: 'The item is now deprecated.' })).toContainText('Content status changed');
  await expect(page.getByTestId('content-status-badge').first()).toHaveText('Deprecated');
  await keyboardSignOut(page);

  // The administrator completes it.
  await keyboardSignIn(page, 'admin');
  await page.goto(`/content/items/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await tabTo(page, page.getByRole('tab', { selected: true }));
  const status = page.getByRole('tab', { name: 'Content status' });
  for (let i = 0; i < 8 && !(await status.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowRight');
  await expect(status).toBeFocused();
  const deprecated = page.getByRole('radio', { name: 'Deprecated', exact: true });
  await tabTo(page, deprecated);
  await arrowTo(page, 'Authoritative');
  await expect(page.getByTestId('status-consequences')).toContainText('It cannot be deleted while it is authoritative.');
  await expect(page.getByTestId('status-refusal')).toHaveCount(0);
  await tabTo(page, apply);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'The item is now authoritative.' })).toContainText('Content status changed');
  await expect(page.getByTestId('content-status-badge').first()).toHaveText('Authoritative');
  await snap(page, 'keyboard-status-admin');
});
