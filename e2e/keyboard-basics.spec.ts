/**
 * Keyboard only, the frame every task relies on: the skip link to the main content, focus moved
 * into a dialog and back to the control that opened it, and the first invalid field focused when a
 * form is sent with an error.
 */
import { expect } from '@playwright/test';
import { expectVisibleFocus, keyboardSignIn, tabTo } from './keyboard.ts';
import { test } from './test.ts';

test.setTimeout(120_000);

test('skip link, focus into a dialog and back, first invalid field focused on submit', async ({ page }) => {
  await keyboardSignIn(page, 'admin');
  await page.goto('/groups');
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();

  // The skip link is the first stop of the page and moves focus to <main>.
  await page.locator('body').focus();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  // The next Tab goes on inside the main content, not back to the header.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);

  // A dialog takes focus (its first field) and gives it back to its opener on Escape.
  const create = page.getByRole('button', { name: 'Create group' });
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create group' });
  const title = dialog.getByRole('textbox', { name: 'Title' });
  await expect(title).toBeFocused();
  await expectVisibleFocus(page);

  // Sent empty from its submit button: the error is tied to the field and focus goes back to it.
  await tabTo(page, dialog.getByRole('button', { name: 'Create group' }));
  await page.keyboard.press('Enter');
  await expect(title).toBeFocused();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expect(title).toHaveAccessibleDescription(/./);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(create).toBeFocused();
});
