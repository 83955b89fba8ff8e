import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

async function createGroupAsAdmin(request: APIRequestContext, title: string) {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const body = await (await request.post('/sharing/rest/community/createGroup', { form: { title, f: 'json', token } })).json();
  expect(body.success).toBe(true);
  return body.group as { id: string; title: string };
}

test('an administrator sets the new-member defaults, then clears them all after the before/after summary', async ({ page, request }) => {
  const group = await createGroupAsAdmin(request, `Newcomers ${Date.now().toString(36)}`);
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Settings' }).click();
  const current = page.getByRole('table', { name: 'Current new-member defaults' });
  await expect(current).toBeVisible();

  await page.getByRole('button', { name: 'Edit defaults' }).click();
  const form = page.getByRole('form', { name: 'New-member defaults' });
  await form.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Publisher' }).click();
  await form.getByRole('combobox', { name: 'User type' }).click();
  await page.getByRole('option', { name: 'Creator' }).click();
  await form.getByRole('combobox', { name: 'Apps' }).click();
  await page.getByRole('option', { name: 'ArcGIS only' }).click();
  await form.getByLabel('Groups').click();
  await page.getByRole('option', { name: group.title }).click();
  await page.keyboard.press('Escape');
  await form.getByRole('button', { name: 'Save defaults' }).click();

  await expect(current.getByRole('row', { name: /Role/ })).toContainText('Publisher');
  await expect(current.getByRole('row', { name: /User type/ })).toContainText('Creator');
  await expect(current.getByRole('row', { name: /Groups/ })).toContainText(group.title);
  await expect(current.getByRole('row', { name: /Apps/ })).toContainText('ArcGIS only');
  await snap(page, 'settings-defaults-set');

  await page.getByRole('button', { name: 'Clear all defaults' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear all new-member defaults?' });
  const summary = dialog.getByRole('table', { name: 'Before and after' });
  await expect(summary.getByRole('row', { name: /Role/ })).toHaveText(/RolePublisherNot set/);
  await expect(summary.getByRole('row', { name: /Groups/ })).toContainText(group.title);
  await snap(page, 'settings-clear-confirm');
  await dialog.getByRole('button', { name: 'Clear all defaults' }).click();
  await expect(dialog).toHaveCount(0);

  for (const label of ['Role', 'User type', 'Groups', 'Apps'])
    await expect(current.getByRole('row', { name: new RegExp(`^${label}`) })).toContainText('Not set');
  await expect(page.getByRole('button', { name: 'Clear all defaults' })).toBeDisabled();
  await snap(page, 'settings-defaults-cleared');
});

test('members who are not administrators do not get the Settings area', async ({ page }) => {
  await signIn(page, 'user1');
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await page.goto('/settings');
  await expect(page.getByText('You cannot open Settings')).toBeVisible();
  await expect(page.getByText(/portal:admin:manageSecurity/)).toBeVisible();
});
