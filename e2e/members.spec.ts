import { expect } from '@playwright/test';
import { createMember, DEMO_PASSWORD, signIn, signInOncePerFile, signOut, snap } from './support.ts';
import { chooseFileByKeyboard } from './keyboard.ts';
import { test } from './test.ts';

test('an administrator signs in, sees the organization, adds a member, changes a role and signs out', async ({ page }) => {
  await page.goto('/');
  // Not signed in: the console asks to sign in first.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill('admin');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password-1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid username or password.');
  await snap(page, 'sign-in-error');

  await signIn(page, 'admin');
  // The header's portal switcher names the organization too: look at the overview's own.
  await expect(page.getByTestId('org-name')).toHaveText('Demo Organization');
  await snap(page, 'overview');

  // Other specs add members to the same organization (member-jobs.spec.ts seventy whose names sort
  // before 'p'): the demo members lead a page of 100 sorted by username, descending.
  await page.goto('/members?num=100&sortOrder=desc');
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByText('publisher1', { exact: true })).toBeVisible();
  await expect(table.getByText('partner_admin')).toHaveCount(0);

  // The member added below, by name: wherever the sort puts them, the search shows them.
  await page.goto('/members?q=erin_example');
  await expect(page.getByText('No members match')).toBeVisible();

  // Add a member; the first try uses a taken username and shows the service's reason by the field.
  await page.getByRole('button', { name: 'Add member' }).click();
  const form = page.getByRole('form', { name: 'Add member' });
  await form.getByLabel('First name').fill('Erin');
  await form.getByLabel('Last name').fill('Example');
  await form.getByLabel('Email').fill('erin@example.com');
  await form.getByLabel('Username').fill('user1');
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('Erin.Example.77');
  await form.getByRole('button', { name: 'Add member' }).click();
  await expect(form.getByText(/already taken/)).toBeVisible();
  await form.getByLabel('Username').fill('erin_example');
  await form.getByRole('button', { name: 'Add member' }).click();
  await expect(form).toHaveCount(0);
  await expect(table.getByText('erin_example')).toBeVisible();
  await snap(page, 'members-added');

  // Change erin_example's role to Publisher.
  await page.getByRole('button', { name: 'Change role of erin_example' }).click();
  const change = page.getByRole('form', { name: 'Change role' });
  await change.getByRole('combobox', { name: 'New role' }).click();
  await page.getByRole('option', { name: 'Publisher' }).click();
  await change.getByRole('button', { name: 'Change role' }).click();
  await expect(change).toHaveCount(0);
  await expect(table.getByRole('row', { name: /erin_example/ })).toContainText('Publisher');
  await snap(page, 'members-role-changed');

  await signOut(page);

  // The new member can sign in with the password given, and sees the Publisher role.
  await signIn(page, 'erin_example', 'Erin.Example.77');
  await expect(page.getByText('Publisher').first()).toBeVisible();
  await signOut(page);
});

test('a member without the privileges sees the actions disabled, with the privilege named', async ({ page }) => {
  await signIn(page, 'user1', DEMO_PASSWORD);
  await page.getByRole('link', { name: 'Members' }).click();
  const add = page.getByRole('button', { name: 'Add member' });
  await expect(add).toBeDisabled();
  await add.hover({ force: true });
  await expect(page.getByText(/portal:admin:inviteUsers/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change role of admin' })).toBeDisabled();
  await snap(page, 'members-as-user1');
});

test('an administrator disables a member from the keyboard, who then cannot sign in, and enables them again', async ({ page }) => {
  const { token } = await (await page.request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const username = `dana_${Date.now().toString(36)}`;
  await createMember(page.request, token, { username, password: 'Dana.Example.77', firstname: 'Dana', lastname: 'Example' });

  await signInOncePerFile(page, 'admin');
  await page.goto(`/members?q=${username}`);
  const row = page.getByRole('table', { name: 'Members' }).getByRole('row', { name: new RegExp(username) });
  await row.getByRole('button', { name: `More actions for ${username}` }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Disable account' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: `Disable the account of ${username}` });
  await expect(confirm).toContainText('signed out everywhere at once');
  await snap(page, 'members-disable-confirm');
  await confirm.getByRole('button', { name: 'Disable account' }).focus();
  await page.keyboard.press('Enter');
  await expect(row.getByText('Disabled')).toBeVisible();
  // Focus comes back to the menu's button.
  await expect(row.getByRole('button', { name: `More actions for ${username}` })).toBeFocused();
  await snap(page, 'members-disabled');

  const refused = await (await page.request.post('/sharing/rest/generateToken', { form: { username, password: 'Dana.Example.77', f: 'json' } })).json();
  expect(refused.error.details.join(' ')).toContain('This account has been disabled.');

  // The list refetches after the change and may draw the row again: focus its button anew before the key.
  await row.getByRole('button', { name: `More actions for ${username}` }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Enable account' }).click();
  await page
    .getByRole('dialog', { name: `Enable the account of ${username}` })
    .getByRole('button', { name: 'Enable account' })
    .click();
  await expect(row.getByText('Disabled')).toHaveCount(0);
  const again = await (await page.request.post('/sharing/rest/generateToken', { form: { username, password: 'Dana.Example.77', f: 'json' } })).json();
  expect(again.token).toEqual(expect.any(String));
});

test('filters members, selects all matching, previews and runs a bulk disable, reads each result, and opens a member page (1440 and 390 px)', async ({
  page,
}) => {
  const { token } = await (await page.request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const tag = `crew${Date.now().toString(36)}`;
  const names = [1, 2, 3].map((i) => `${tag}_${i}`);
  for (const [i, username] of names.entries()) {
    await createMember(page.request, token, { username, password: 'Crew.Member.77', firstname: 'Crew', lastname: `Member ${i + 1}` });
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOncePerFile(page, 'admin');
  await page.goto(`/members?q=${tag}`);
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByText(names[2], { exact: true })).toBeVisible();
  // A filter goes into the address, so the list can be shared and reloaded.
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Active' }).click();
  await expect(page).toHaveURL(/status=active/);
  await expect(page.getByText('Showing 1–3 of 3 members')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Members by user type' })).toContainText('Creator3');
  await snap(page, 'members-1440');

  await page.getByRole('button', { name: 'Select all 3 matching' }).click();
  await expect(page.getByTestId('selection-count')).toHaveText('All 3 members matching the filter selected');
  await page.getByRole('button', { name: 'Act on selection' }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disable: 3 members' });
  await expect(dialog.getByRole('table', { name: 'Preview' })).toContainText(`${names[0]}Active → DisabledWill change`);
  await expect(dialog.getByTestId('bulk-summary')).toHaveText('3 will change, 0 skipped.');
  await snap(page, 'members-bulk-preview-1440');
  await dialog.getByRole('button', { name: 'Disable 3 members' }).click();
  await expect(dialog.getByRole('table', { name: 'Disable results' })).toBeVisible();
  await expect(dialog.getByTestId('bulk-counts')).toHaveText('3 changed0 not changed');
  await snap(page, 'members-bulk-results-1440');
  await dialog.getByRole('button', { name: 'Done' }).click();
  // None of them is active any more.
  await expect(page.getByText('No members match')).toBeVisible();

  // Their page: the status, role, user type and actions.
  await page.goto(`/members/${names[0]}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Crew Member 1' })).toBeVisible();
  await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(page.getByText('Owns 0 items.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enable account' })).toBeEnabled();
  await snap(page, 'member-page-1440');

  // On a phone: the list, and the preview of enabling them again.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/members?q=${tag}&status=disabled`);
  await expect(page.getByText('Showing 1–3 of 3 members')).toBeVisible();
  await snap(page, 'members-390');
  await page.getByRole('button', { name: 'Select all 3 matching' }).click();
  await page.getByRole('button', { name: 'Act on selection' }).click();
  await page.getByRole('menuitem', { name: 'Enable' }).click();
  const enable = page.getByRole('dialog', { name: 'Enable: 3 members' });
  await expect(enable.getByTestId('bulk-summary')).toHaveText('3 will change, 0 skipped.');
  await snap(page, 'members-bulk-preview-390');
  await enable.getByRole('button', { name: 'Enable 3 members' }).click();
  await expect(enable.getByTestId('bulk-counts')).toHaveText('3 changed0 not changed');
});

test('an administrator adds members from a CSV file by keyboard: a preview of each row’s problems, then a result per row (1440 and 390 px)', async ({
  page,
}) => {
  const tag = `csv${Date.now().toString(36)}`;
  const csv = [
    'Username,Email,Password,First name,Last name,Role,User type',
    `${tag}_1,${tag}_1@example.com,Csv.Member.71,Cara,Sample,Publisher,Creator`,
    `${tag}_2,${tag}_2@example.com,Csv.Member.72,Cody,Sample,Viewer,Viewer`,
    `${tag}_3,${tag}_3@example.com,Csv.Member.73,Vera,Sample,Administrator,Viewer`,
    `user1,u1@example.com,Csv.Member.74,,,User,Creator`,
    `${tag}_1,again@example.com,short,,,Wizard,`,
  ].join('\n');

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOncePerFile(page, 'admin');
  await page.goto('/members');
  // The first row by username: earlier specs add members that push the demo ones to later pages.
  await expect(page.getByRole('table', { name: 'Members' }).getByText('admin', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add from a CSV file' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add members from a CSV file' });
  await expect(dialog.getByText(/At most 500 members and 256 KB a file/)).toBeVisible();
  // The file picker opens from the keyboard too (the dialog puts focus on it).
  await expect(dialog.getByRole('button', { name: /CSV file/ })).toBeFocused();
  const chooser = await chooseFileByKeyboard(page, dialog.getByRole('button', { name: /CSV file/ }));
  await chooser.setFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const rows = dialog.getByRole('table', { name: 'Rows of the file' });
  await expect(dialog.getByTestId('csv-summary')).toHaveText('2 will be added, 3 with problems.');
  await expect(rows.getByRole('row').filter({ hasText: 'user1' })).toContainText('Already a member');
  await expect(rows.getByRole('row').filter({ hasText: 'again@example.com' })).toContainText('Username is also on line 2');
  await expect(rows.getByRole('row').filter({ hasText: 'again@example.com' })).toContainText('Unknown role “Wizard”');
  await expect(rows.getByRole('row').filter({ hasText: `${tag}_3` })).toContainText(/Viewer/);
  await snap(page, 'members-csv-preview-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'members-csv-preview-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  const add = dialog.getByRole('button', { name: 'Add 2 members' });
  await add.focus();
  await page.keyboard.press('Enter');
  const results = dialog.getByRole('table', { name: 'Members added from the file' });
  await expect(dialog.getByTestId('bulk-counts')).toHaveText('2 added0 not added');
  await expect(results).toContainText(`${tag}_1 (line 2)`);
  await snap(page, 'members-csv-results-1440');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.goto(`/members?q=${tag}`);
  await expect(page.getByText('Showing 1–2 of 2 members')).toBeVisible();
});

test('deleting a member first shows what they own, kind by kind (1440 and 390 px)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInOncePerFile(page, 'admin');
  await page.goto('/members/publisher1');
  await page.getByRole('button', { name: 'Delete member' }).click();
  const dialog = page.getByRole('dialog', { name: /^Delete/ });
  const preview = dialog.getByTestId('ownership-preview');
  for (const kind of ['items', 'groups', 'folders', 'tasks', 'webhooks']) await expect(preview.getByTestId(`owned-${kind}-count`)).toBeVisible();
  await expect(preview.getByRole('region', { name: 'Scheduled tasks' })).toBeVisible();
  await snap(page, 'member-delete-preview-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'member-delete-preview-390');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});
