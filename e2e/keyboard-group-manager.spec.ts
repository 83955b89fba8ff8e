/**
 * Keyboard only: a group manager (not the owner) pastes 30 usernames into "Add users", sees which are
 * left out before sending, and reads who was not added and why — in the results table and through
 * the console's live region.
 */
import { expect } from '@playwright/test';
import { snap } from './support.ts';
import { announced, apiAs, expectVisibleFocus, keyboardSignIn, tabTo } from './keyboard.ts';
import { test } from './test.ts';

test.setTimeout(180_000);

test('a group manager pastes 30 usernames by keyboard and hears who was not added and why', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const admin = await apiAs(request, 'admin');
  // 26 members who may join, 2 whose role lacks portal:user:joinGroup, 2 who do not exist.
  const role = await admin('portals/self/createRole', { name: `Cannot join ${tag}` });
  await admin(`portals/self/roles/${role.id}/setPrivileges`, {
    privileges: JSON.stringify({ privileges: ['portal:user:viewOrgUsers', 'portal:user:viewOrgGroups'] }),
  });
  const joiners = Array.from({ length: 26 }, (_, i) => `kb_${tag}_${i + 1}`);
  const blocked = [1, 2].map((i) => `kbno_${tag}_${i}`);
  const ghosts = [1, 2].map((i) => `kbghost_${tag}_${i}`);
  for (const [username, r] of [...joiners.map((u) => [u, 'org_user']), ...blocked.map((u) => [u, role.id])]) {
    await admin('security/users/createUser', { username, password: 'Crew.Member.2468', email: `${username}@example.com`, role: r }, '/portaladmin');
  }
  // The administrator owns the group; user1 manages it.
  const title = `Survey crew ${tag}`;
  const { group } = await admin('community/createGroup', { title, access: 'org' });
  await admin(`community/groups/${group.id}/addUsers`, { admins: 'user1' });

  await keyboardSignIn(page, 'user1');
  await page.goto(`/groups/${group.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  const addButton = page.getByRole('button', { name: 'Add users' });
  await tabTo(page, addButton);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Add users to ${title}` });
  await expect(dialog).toBeVisible();
  // Focus moves into the dialog, on its first field.
  await expect(dialog.getByRole('combobox', { name: /^Find members/ })).toBeFocused();

  const paste = dialog.getByRole('textbox', { name: /^Or paste a list/ });
  await tabTo(page, paste);
  const names = [...joiners.slice(0, 13), blocked[0], ghosts[0], ...joiners.slice(13), blocked[1], ghosts[1]];
  expect(names).toHaveLength(30);
  await page.keyboard.insertText(names.join('\n'));
  // Checked before sending: the two names nobody in the organization has are left out (user1 may not add outsiders).
  await expect(dialog.getByTestId('names-summary')).toHaveText('28 users to add in 2 batches of at most 25, 2 left out.');
  const who = dialog.getByRole('table', { name: 'Who will be added' });
  for (const name of ghosts) await expect(who.getByRole('row', { name: new RegExp(name) })).toContainText('Not found');

  // Tab stays inside the dialog: it cycles back to its first control rather than the page behind.
  const submit = dialog.getByRole('button', { name: 'Add 28 users' });
  await tabTo(page, submit);
  await snap(page, 'keyboard-group-add-users-focus');
  await page.keyboard.press('Enter');

  // The results take focus (the button is gone) and are announced with the reasons.
  const counts = dialog.getByTestId('bulk-counts');
  await expect(counts).toBeFocused({ timeout: 15_000 });
  await expectVisibleFocus(page);
  await expect(counts).toHaveText('26 added2 not added');
  const results = dialog.getByRole('table', { name: 'Add users results' });
  for (const name of blocked)
    await expect(results.getByRole('row', { name: new RegExp(name) })).toContainText('The user lacks the privilege to join groups (portal:user:joinGroup).');
  await expect(dialog.getByText(/2 names were left out before sending/)).toBeVisible();
  const said = announced(page, 'assertive');
  await expect(said).toContainText('26 added, 2 not added.');
  for (const name of blocked) await expect(said).toContainText(`${name} — The user lacks the privilege to join groups (portal:user:joinGroup).`);
  await snap(page, 'keyboard-group-results');

  // Done closes the dialog and focus returns to the button that opened it.
  await tabTo(page, dialog.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();

  // Escape closes it too, again back to the button. Focus starts in the member search, whose
  // suggestion list the first Escape closes (the combobox convention); the next closes the dialog.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  if (await dialog.isVisible()) await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(addButton).toBeFocused();
});
