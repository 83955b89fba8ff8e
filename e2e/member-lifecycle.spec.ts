import { expect } from '@playwright/test';
import { signIn, snap } from './support.ts';
import { test } from './test.ts';

/** A day `days` from today, as the browser's date field takes it (local time). */
function dayFromNow(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

test('an administrator sets an expiration, sees it on the Overview, and switches on an inactivity policy after its preview', async ({ page }) => {
  await signIn(page, 'admin');

  // The member page, by keyboard: the action opens the dialog with focus in the date field; Enter saves.
  await page.goto('/members/user1');
  await expect(page.getByRole('heading', { level: 1, name: 'Uma User' })).toBeVisible();
  const setExpiry = page.getByRole('button', { name: 'Set expiration' });
  await setExpiry.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Expiration of user1' });
  await expect(dialog.getByLabel('Disable on')).toBeFocused();
  // Three days away: inside the seven-day warning window, so the portal's runner warns at once.
  await dialog.getByLabel('Disable on').fill(dayFromNow(3));
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('member-expiration')).toContainText('Disabled on');
  // Focus went back to the action that opened the dialog.
  await expect(page.getByRole('button', { name: 'Change expiration' })).toBeFocused();

  await page.goto('/overview');
  const upcoming = page.getByTestId('upcoming-expirations');
  await expect(upcoming.getByRole('link', { name: 'Uma User' })).toBeVisible();
  await expect(upcoming.getByText('Warned')).toBeVisible({ timeout: 10_000 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await snap(page, 'lifecycle-overview-1440');

  // A new policy starts switched off, with who it would touch shown; then it is switched on.
  await page.goto('/members/policies');
  await expect(page.getByRole('heading', { level: 1, name: 'Inactivity policies' })).toBeVisible();
  await page.getByRole('button', { name: 'New policy' }).click();
  const form = page.getByRole('form', { name: 'New inactivity policy' });
  await form.getByLabel('Title').fill('Quiet for a season');
  await form.getByRole('textbox', { name: /^Warn after/ }).fill('60');
  await form.getByRole('textbox', { name: /^Act after/ }).fill('30');
  await form.getByRole('button', { name: 'Create policy' }).click();
  // The form's rule: acting comes after warning.
  await expect(form.getByText('This must be more than the days before the warning')).toBeVisible();
  await form.getByRole('textbox', { name: /^Act after/ }).fill('90');
  await form.getByRole('button', { name: 'Create policy' }).click();
  await expect(form).toHaveCount(0);

  const card = page.getByRole('region', { name: 'Quiet for a season' });
  await expect(card.getByText('Off', { exact: true })).toBeVisible();
  await expect(card.getByText('If it ran now')).toBeVisible();
  await expect(card.getByRole('heading', { name: /^Would be disabled/ })).toBeVisible();
  await snap(page, 'lifecycle-policy-preview-1440');
  const toggle = card.getByRole('switch', { name: 'Switched on' });
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  // Switched on, it runs at once on the portal's runner: its run is listed.
  await expect(card.getByRole('heading', { name: 'Recent runs' })).toBeVisible({ timeout: 10_000 });

  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'lifecycle-policies-390');
  await page.goto('/overview');
  await expect(page.getByTestId('inactivity-warnings')).toContainText('1 inactivity policy on');
  await snap(page, 'lifecycle-overview-390');

  // Leave the organization as it was for the specs after this one.
  await page.goto('/members/policies');
  await page.getByRole('region', { name: 'Quiet for a season' }).getByRole('switch', { name: 'Switched on' }).click();
  await expect(page.getByRole('region', { name: 'Quiet for a season' }).getByText('Off', { exact: true })).toBeVisible();
  await page.goto('/members/user1');
  await page.getByRole('button', { name: 'Change expiration' }).click();
  await page.getByRole('dialog', { name: 'Expiration of user1' }).getByRole('button', { name: 'Clear expiration' }).click();
  await expect(page.getByTestId('member-expiration')).toHaveText('No expiration');
});
