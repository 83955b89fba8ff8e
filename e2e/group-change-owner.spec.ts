/**
 * Change owner on a group's page (Reassign Group): the administrator opens the dialog, picks the new
 * owner by keyboard and confirms; the page then names the new owner. Axe clean with the dialog open.
 */
import { expect } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { expectVisibleFocus, tabTo } from './keyboard.ts';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

test('an administrator gives a group to another member, by keyboard (1440 px)', async ({ page, request }) => {
  test.setTimeout(90_000);
  const token = (await (await request.post('/sharing/rest/generateToken', { form: { f: 'json', username: 'user1', password: DEMO_PASSWORD } })).json())
    .token as string;
  const title = `Trail crew ${Date.now().toString(36)}`;
  const made = await (await request.post('/sharing/rest/community/createGroup', { form: { f: 'json', token, title, access: 'org' } })).json();
  expect(made.error).toBeUndefined();

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'admin');
  await page.goto(`/groups/${made.group.id}`);
  await tabTo(page, page.getByRole('button', { name: 'Change owner' }));
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Change the owner of ${title}` });
  const box = dialog.getByRole('combobox', { name: /^New owner/ });
  await expect(box).toBeFocused();
  await box.pressSequentially('publisher1', { delay: 20 });
  await expect(page.getByRole('option', { name: /publisher1/ })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(/publisher1/);
  await expectAxeClean(page, '[role="dialog"]');
  await snap(page, 'group-change-owner-1440');

  await tabTo(page, dialog.getByRole('button', { name: 'Change owner' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Owned by').getByText('publisher1')).toBeVisible();
});
