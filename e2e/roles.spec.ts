import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, searchMembers, signIn, signOut, snap } from './support.ts';
import { test } from './test.ts';

/** Puts user1 back to the User role (other specs expect the demo accounts as seeded). */
async function restoreUser1(request: APIRequestContext) {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  const body = await (
    await request.post('/sharing/rest/portals/self/updateUserRole', { form: { username: 'user1', role: 'org_user', f: 'json', token } })
  ).json();
  expect(body).toMatchObject({ success: true });
}

test('an administrator builds a role from the checklist and assigns it to user1, who then sees what it allows', async ({ page, request }) => {
  const name = `Field analyst ${Date.now().toString(36)}`;
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Roles' }).click();
  await expect(page.getByRole('table', { name: 'Roles' }).getByRole('link', { name: 'Viewer', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'New role' }).click();

  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Description' }).fill('Views members and groups, creates groups, edits features with full control.');
  for (const label of ['View members of the organization', 'Create groups', 'Join groups in the organization', 'View groups of the organization']) {
    await page.getByRole('checkbox', { name: label, exact: true }).check();
  }
  // The filter narrows the list; full control includes plain editing, which is ticked and explained.
  await page.getByRole('searchbox', { name: 'Filter privileges' }).fill('edit');
  await page.getByRole('checkbox', { name: 'Edit with full control', exact: true }).check();
  const edit = page.getByRole('checkbox', { name: 'Edit features', exact: true });
  await expect(edit).toBeChecked();
  await expect(edit).toBeDisabled();
  await expect(page.getByText('Included by Edit with full control')).toBeVisible();
  await expect(page.getByTestId('pending-changes')).toHaveText('6 privileges added, 0 removed');
  await snap(page, 'roles-checklist');

  await page.getByRole('button', { name: 'Review and save' }).click();
  const review = page.getByRole('dialog', { name: 'Create this role?' });
  const added = review.getByRole('region', { name: 'Added' });
  for (const label of ['View members of the organization', 'Create groups', 'Edit features', 'Edit with full control'])
    await expect(added).toContainText(label);
  await expect(review.getByRole('region', { name: 'Removed' })).toContainText('Nothing removed.');
  await snap(page, 'roles-review');
  await review.getByRole('button', { name: 'Create role' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // Give it to user1 from the Members page.
  await page.getByRole('link', { name: 'Members' }).click();
  // Other specs add members to the same organization: find user1 rather than rely on the first page.
  await searchMembers(page, 'user1');
  await page.getByRole('checkbox', { name: 'Select user1' }).check();
  // A bulk action on the selection: Change role, with its preview and its results.
  await page.getByRole('button', { name: 'Act on selection' }).click();
  await page.getByRole('menuitem', { name: 'Change role' }).click();
  const assign = page.getByRole('dialog', { name: 'Change role: 1 member' });
  await assign.getByRole('combobox', { name: 'New role' }).click();
  await page.getByRole('option', { name }).click();
  await expect(assign.getByRole('table', { name: 'Preview' })).toContainText(`User → ${name}`);
  await assign.getByRole('button', { name: 'Change role 1 member' }).click();
  const results = assign.getByRole('table', { name: 'Change role results' });
  await expect(results).toContainText('Changed');
  await snap(page, 'roles-assigned');
  await assign.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('table', { name: 'Members' }).getByRole('row', { name: /user1/ })).toContainText(name);
  await signOut(page);

  try {
    // user1 sees the role and exactly what it allows.
    await signIn(page, 'user1');
    await expect(page.getByTestId('self-role')).toHaveText(name);
    for (const label of ['View members of the organization', 'Create groups', 'Edit features', 'Edit with full control']) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('Create, update and delete own content', { exact: true })).toHaveCount(0);
    await snap(page, 'roles-user1-overview');

    // What it enables: creating groups; what it does not: adding members, managing roles.
    await page.getByRole('link', { name: 'Groups' }).click();
    await expect(page.getByRole('button', { name: 'Create group' })).toBeEnabled();
    await page.getByRole('link', { name: 'Members' }).click();
    await expect(page.getByRole('button', { name: 'Add member' })).toBeDisabled();
    await page.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('table', { name: 'Roles' }).getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('status')).toContainText('Only a default administrator can create, change or delete roles.');
    await expect(page.getByRole('checkbox', { name: 'Edit with full control', exact: true })).toBeChecked();
    await snap(page, 'roles-user1-role');
    await signOut(page);
  } finally {
    await restoreUser1(request);
  }
});
