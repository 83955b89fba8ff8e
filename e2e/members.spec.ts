import { expect } from '@playwright/test';
import { DEMO_PASSWORD, signIn, signOut, snap } from './support.ts';
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

  // Other specs add members to the same organization: show them all on one page (the size lives in the address).
  await page.goto('/members?num=100');
  const table = page.getByRole('table', { name: 'Members' });
  await expect(table.getByText('publisher1', { exact: true })).toBeVisible();
  await expect(table.getByText('partner_admin')).toHaveCount(0);

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
  const made = await page.request.post('/portaladmin/security/users/createUser', {
    form: {
      f: 'json',
      token,
      username,
      password: 'Dana.Example.77',
      email: `${username}@example.com`,
      firstname: 'Dana',
      lastname: 'Example',
      role: 'org_user',
    },
  });
  expect((await made.json()).status).toBe('success');

  await signIn(page, 'admin');
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
