import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn, signOut, snap } from './support.ts';

/** Calls the portal's REST API as a demo account (setup only: the test itself works in the console). */
async function asAdmin(request: APIRequestContext) {
  const { token } = await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json();
  return async (path: string, params: Record<string, string>, root = '/sharing/rest') => {
    const body = await (await request.post(`${root}/${path}`, { form: { ...params, f: 'json', token } })).json();
    if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
    return body;
  };
}

test('a group owner adds a pasted list of users and sees, for each one not added, the reason', async ({ page, request }) => {
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
  const pasted = [joiners.slice(0, 2).join('\n'), `${joiners[2]}, ${joiners[3]}`, `${blocked.join(' ')}`, `ghost_${tag}, ${joiners[0]}`].join('\n');
  await dialog.getByRole('textbox', { name: 'Paste a list' }).fill(pasted);
  await expect(dialog.getByTestId('names-summary')).toHaveText('7 usernames to add in 1 batch of at most 25 (1 duplicate left out).');
  await snap(page, 'groups-add-users');
  await dialog.getByRole('button', { name: 'Add 7 users' }).click();

  const results = dialog.getByRole('table', { name: 'Add users results' });
  await expect(results).toBeVisible();
  await expect(dialog.getByRole('status')).toHaveText('4 added3 not added');
  for (const name of blocked) {
    await expect(results.getByRole('row', { name: new RegExp(name) })).toContainText('The user lacks the privilege to join groups (portal:user:joinGroup).');
  }
  await expect(results.getByRole('row', { name: new RegExp(`ghost_${tag}`) })).toContainText('The user does not exist.');
  await expect(results.getByRole('row', { name: new RegExp(joiners[3]) })).toContainText('Added');
  await snap(page, 'groups-not-added-reasons');

  // Retrying changes nothing while the reasons hold; the list is kept.
  await dialog.getByRole('button', { name: 'Retry the ones not added (3)' }).click();
  await expect(dialog.getByRole('status')).toHaveText('4 added3 not added');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const members = page.getByRole('table', { name: 'Group members' });
  for (const name of joiners) await expect(members.getByRole('row', { name: new RegExp(name) })).toContainText('Member');
  await expect(members.getByRole('row', { name: new RegExp(blocked[0]) })).toHaveCount(0);
  await expect(page.getByText('Showing 1–5 of 5 members')).toBeVisible();
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
