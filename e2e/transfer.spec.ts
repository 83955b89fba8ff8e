import { expect, test, type APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';

async function rest(request: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...form } });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}
const tokenFor = async (request: APIRequestContext, username: string) =>
  (await rest(request, 'generateToken', { username, password: DEMO_PASSWORD })).token as string;

test('an administrator transfers a mix of transferable and blocked items and reads the reasons', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const admin = await tokenFor(request, 'admin');
  const user1 = await tokenFor(request, 'user1');
  const add = async (title: string) => (await rest(request, 'content/users/user1/addItem', { title, type: 'Web Map', token: user1 })).id as string;
  const [first, second, shared] = [await add(`Parks ${tag}`), await add(`Trails ${tag}`), await add(`Field crews map ${tag}`)];
  const group = (await rest(request, 'community/createGroup', { title: `Field crews ${tag}`, access: 'org', token: admin })).group.id as string;
  await rest(request, `community/groups/${group}/addUsers`, { users: 'user1', token: admin });
  await rest(request, `content/users/user1/items/${shared}/share`, { groups: group, token: user1 });

  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Members' }).click();
  // Other specs add members to the same organization: find user1 rather than rely on the first page.
  await page.getByRole('searchbox', { name: 'Search members' }).fill('user1');
  await page.getByRole('button', { name: 'More actions for user1' }).click();
  await snap(page, 'members-transfer-action');
  await page.getByRole('menuitem', { name: 'Transfer content' }).click();
  await expect(page.getByRole('heading', { name: 'Transfer content', level: 1 })).toBeVisible();
  const items = page.getByRole('table', { name: 'Items of user1' });
  await expect(items.getByText(`Parks ${tag}`)).toBeVisible();
  // Only this test's three items.
  await page.getByRole('button', { name: 'Select none' }).click();
  for (const title of [`Parks ${tag}`, `Trails ${tag}`, `Field crews map ${tag}`]) await items.getByRole('checkbox', { name: `Select ${title}` }).check();
  await expect(page.getByTestId('transfer-selection')).toContainText('3 of');
  await snap(page, 'transfer-items');
  await page.getByRole('button', { name: 'Next: new owner' }).click();

  await page.getByRole('combobox', { name: 'New owner' }).fill('publisher1');
  await page.getByRole('option', { name: /publisher1/ }).click();
  await page.getByRole('textbox', { name: 'Folder' }).fill(`From user1 ${tag}`);
  await page.getByRole('button', { name: 'Check 3 items' }).click();

  const results = page.getByRole('table', { name: 'Pre-check results' });
  const counts = page.getByRole('status').filter({ hasText: 'transferable' });
  await expect(counts).toContainText('2 transferable');
  await expect(counts).toContainText('1 blocked');
  const blocked = results.getByRole('row', { name: new RegExp(`Field crews map ${tag}`) });
  await expect(blocked).toContainText('Blocked');
  await expect(blocked).toContainText(`publisher1 is not a member of the group 'Field crews ${tag}'`);
  await expect(blocked).toContainText(`Add publisher1 to the group “Field crews ${tag}”`);
  await expect(results.getByRole('row', { name: new RegExp(`Parks ${tag}`) })).toContainText('OK');
  await snap(page, 'transfer-precheck');

  await page.getByRole('button', { name: 'Transfer 2 items' }).click();
  const done = page.getByRole('table', { name: 'Transfer results' });
  await expect(done.getByRole('row', { name: new RegExp(`Parks ${tag}`) })).toContainText('Transferred');
  await expect(done.getByRole('row', { name: new RegExp(`Trails ${tag}`) })).toContainText('Transferred');
  await expect(page.getByText(`2 of 2 items now belong to publisher1, in the folder “From user1 ${tag}”.`)).toBeVisible();
  await expect(page.getByTestId('tasks-deactivated')).toContainText('Scheduled tasks deactivated: 0');
  await expect(page.getByRole('button', { name: 'Retry failed (0)' })).toBeDisabled();
  await snap(page, 'transfer-results');

  // The service agrees: two items moved, the blocked one stayed.
  const owner = async (id: string) => (await rest(request, `content/items/${id}`, { token: admin })).owner;
  expect([await owner(first), await owner(second), await owner(shared)]).toEqual(['publisher1', 'publisher1', 'user1']);
});
