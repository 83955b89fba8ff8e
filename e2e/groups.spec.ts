import { expect, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn, signOut, snap } from './support.ts';
import { test } from './test.ts';

/** Calls the portal's REST API as a demo account (setup only: the test itself works in the console). */
async function asAdmin(request: APIRequestContext) {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  return async (path: string, params: Record<string, string>, root = '/sharing/rest') => {
    const body = await (await request.post(`${root}/${path}`, { form: { ...params, f: 'json', token } })).json();
    if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
    return body;
  };
}

test('a group owner picks members by name, adds a pasted list, sees who would be added first and, for each one not added, the reason', async ({
  page,
  request,
}) => {
  const tag = Date.now().toString(36);
  const api = await asAdmin(request);
  // Four members who may join groups, and two whose role lacks portal:user:joinGroup.
  const role = await api('portals/self/createRole', { name: `Viewers who cannot join ${tag}` });
  await api(`portals/self/roles/${role.id}/setPrivileges`, {
    privileges: JSON.stringify({ privileges: ['portal:user:viewOrgUsers', 'portal:user:viewOrgGroups', 'portal:user:viewOrgItems'] }),
  });
  const joiners = [1, 2, 3, 4].map((i) => `crew_${tag}_${i}`);
  const blocked = [1, 2].map((i) => `nojoin_${tag}_${i}`);
  for (const [username, r] of [...joiners.map((u) => [u, 'org_user']), ...blocked.map((u) => [u, role.id])]) {
    await api('security/users/createUser', { username, password: 'Crew.Member.2468', email: `${username}@example.com`, role: r }, '/portaladmin');
  }

  // publisher1 creates a group in the console and owns it.
  const title = `Field crew ${tag}`;
  await signIn(page, 'publisher1');
  await page.getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('button', { name: 'Create group' }).click();
  const form = page.getByRole('dialog', { name: 'Create group' });
  await form.getByRole('textbox', { name: 'Title' }).fill(title);
  await form.getByRole('textbox', { name: 'Summary' }).fill('Everyone in the field this season');
  await form.getByRole('radio', { name: /^Organization/ }).check();
  await form.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  await page.getByRole('button', { name: 'Add users' }).click();
  const dialog = page.getByRole('dialog', { name: `Add users to ${title}` });
  // Two members picked in the search, by full name and by username, with the keyboard.
  const picker = dialog.getByRole('combobox', { name: /^Find members/ });
  await picker.click();
  await picker.fill('Uma');
  await expect(page.getByRole('option', { name: /Uma User \(user1\)/ })).toBeVisible();
  // The list may still show the first page of members before the search settles: arrow down until
  // Uma is the highlighted option, then Enter picks it.
  const uma = page.getByRole('option', { name: /Uma User \(user1\)/ });
  await expect(page.getByRole('option')).not.toHaveCount(0);
  for (let i = 0; i < 10 && (await uma.getAttribute('data-combobox-selected')) === null; i++) await picker.press('ArrowDown');
  await picker.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Remove Uma User (user1)' })).toBeVisible();
  await picker.fill(joiners[0]);
  await expect(page.getByRole('option')).toHaveCount(1);
  await page.getByRole('option', { name: new RegExp(joiners[0]) }).click();
  await expect(dialog.getByRole('button', { name: new RegExp(`^Remove .*${joiners[0]}`) })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Remove Uma User (user1)' })).toBeVisible();
  // The rest pasted, with a repeat and a name nobody in the organization has.
  const pasted = [joiners[1], `${joiners[2]}, ${joiners[3]}`, `${blocked.join(' ')}`, `ghost_${tag}, ${joiners[0]}`].join('\n');
  await dialog.getByRole('textbox', { name: /^Or paste a list/ }).fill(pasted);
  await expect(dialog.getByTestId('names-summary')).toHaveText('7 users to add in 1 batch of at most 25, 1 left out, 1 duplicate left out.');
  const who = dialog.getByRole('table', { name: 'Who will be added' });
  await expect(who.getByRole('row', { name: new RegExp(`ghost_${tag}`) })).toContainText('Not found');
  await expect(who.getByRole('row', { name: /user1/ })).toContainText('Uma User (user1)Will be added');
  await snap(page, 'groups-add-users');
  await dialog.getByRole('button', { name: 'Add 7 users' }).click();

  const results = dialog.getByRole('table', { name: 'Add users results' });
  await expect(results).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText('5 added2 not added');
  for (const name of blocked) {
    await expect(results.getByRole('row', { name: new RegExp(name) })).toContainText('The user lacks the privilege to join groups (portal:user:joinGroup).');
  }
  await expect(results.getByRole('row', { name: new RegExp(joiners[3]) })).toContainText('Added');
  await expect(dialog.getByText(/1 name was left out before sending/)).toBeVisible();
  await snap(page, 'groups-not-added-reasons');

  // Retrying changes nothing while the reasons hold; the list is kept.
  await dialog.getByRole('button', { name: 'Retry the ones not added (2)' }).click();
  await expect(dialog.getByRole('status')).toHaveText('5 added2 not added');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const members = page.getByRole('table', { name: 'Group members' });
  for (const name of [...joiners, 'user1']) await expect(members.getByRole('row', { name: new RegExp(name) })).toContainText('Member');
  await expect(members.getByRole('row', { name: new RegExp(blocked[0]) })).toHaveCount(0);
  await expect(page.getByText('Showing 1–6 of 6 members')).toBeVisible();
  await expect(page.getByText('Nothing shared with this group yet')).toBeVisible();
  await snap(page, 'groups-members');
  await signOut(page);
});

test('someone who does not manage a group sees "Add users" disabled, with the reason', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const api = await asAdmin(request);
  const { group } = await api('community/createGroup', { title: `Admins only ${tag}`, access: 'org' });
  await signIn(page, 'user1');
  await page.goto(`/groups/${group.id}`);
  const add = page.getByRole('button', { name: 'Add users' });
  await expect(add).toBeDisabled();
  await add.hover({ force: true });
  await expect(page.getByText(/portal:admin:assignToGroups/).first()).toBeVisible();
  await snap(page, 'groups-as-user1');
});
