/**
 * Recover from a mistaken transfer: an administrator transfers three of a member's items (in a
 * folder) to themselves by mistake, opens Activity, selects the three transfers, reads the
 * pre-check and undoes them; the service then says each item is back with its owner, in its folder.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, snap } from './support.ts';
import { test } from './test.ts';

async function rest(request: APIRequestContext, path: string, form: Record<string, string>) {
  const res = await request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...form } });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}
/** The password form, given time (the run shares a small machine with other work). */
async function signIn(page: Page, username: string) {
  await page.goto('/sign-in');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Account menu for/ })).toBeVisible({ timeout: 30_000 });
}
const tokenFor = async (request: APIRequestContext, username: string) =>
  (await rest(request, 'generateToken', { username, password: DEMO_PASSWORD })).token as string;

test('an administrator undoes three mistaken transfers from Activity, and the items are back with their owner and folder', async ({ page, request }) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36);
  const admin = await tokenFor(request, 'admin');
  const user1 = await tokenFor(request, 'user1');
  const folder = (await rest(request, 'content/users/user1/createFolder', { title: `Survey ${tag}`, token: user1 })).folder as { id: string; title: string };
  const titles = [`Parcels ${tag}`, `Roads ${tag}`, `Hydrants ${tag}`];
  const ids: string[] = [];
  for (const title of titles)
    ids.push((await rest(request, `content/users/user1/${folder.id}/addItem`, { title, type: 'Web Map', text: '{}', token: user1 })).id as string);
  // The mistake: all three to the administrator's root folder.
  const moved = await rest(request, 'content/users/user1/reassignItems', {
    items: ids.join(','),
    targetUsername: 'admin',
    targetFolderName: '/',
    token: admin,
  });
  expect(moved.results.every((r: { success: boolean }) => r.success)).toBe(true);

  await signIn(page, 'admin');
  // By exact name in the main navigation: the Overview may also link to "Inactivity policies".
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Activity', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  // Every transfer by admin: the filters narrow the timeline to the actor.
  await page.getByRole('textbox', { name: 'Actor (username)' }).fill('admin');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const timeline = page.getByRole('table', { name: 'Organization activity' });
  for (const title of titles) await timeline.getByRole('checkbox', { name: `Select to undo: admin transferred '${title}' from user1 to admin` }).check();
  await page.getByRole('button', { name: 'Undo selected (3)' }).click();

  const dialog = page.getByRole('dialog', { name: 'Undo 3 changes' });
  const plan = dialog.getByRole('table', { name: 'Changes to undo' });
  for (const title of titles) {
    const row = plan.getByRole('row', { name: new RegExp(title) });
    await expect(row).toContainText(`Transfer '${title}' from admin back to user1, into the folder 'Survey ${tag}'.`);
    await expect(row).toContainText('Ready');
  }
  await expect(dialog.getByRole('heading', { name: 'Transfer pre-check: back to user1' })).toBeVisible();
  const check = dialog.getByRole('table', { name: 'Pre-check results' });
  for (const title of titles) await expect(check.getByRole('row', { name: new RegExp(title) })).toContainText('OK');
  await expect(dialog.getByRole('status').filter({ hasText: 'transferable' })).toContainText('3 transferable');
  await snap(page, 'history-undo-dialog');

  await dialog.getByRole('button', { name: 'Undo 3 changes' }).click();
  // The title now counts the rows shown.
  const ranDialog = page.getByRole('dialog', { name: 'Undo results: 3 of 3 changes undone' });
  const results = ranDialog.getByRole('table', { name: 'Undo results' });
  for (const title of titles) await expect(results.getByRole('row', { name: new RegExp(title) })).toContainText('Back with user1');
  await expect(ranDialog.getByTestId('bulk-counts')).toContainText('3 undone');
  await expect(page.getByTestId('announcer-polite')).toHaveText('3 undone, 0 not undone.');
  await snap(page, 'history-undo-results');
  await ranDialog.getByRole('button', { name: 'Done' }).click();
  await expect(ranDialog).toBeHidden();
  // Focus back on the control that opened the dialog.
  await expect(page.getByRole('button', { name: /^Undo selected/ })).toBeFocused();

  // The service agrees: each item is user1's again, in the folder it was in.
  for (const id of ids) {
    const item = await rest(request, `content/items/${id}`, { token: admin });
    expect([item.owner, item.ownerFolder]).toEqual(['user1', folder.id]);
  }
  // And the undo is itself in the history: three transfers back by admin.
  const back = await rest(request, 'portals/self/history', { all: 'true', actors: 'admin', types: 'i', num: '20', token: admin });
  const undone = back.items.filter((e: { id: string; data: { after?: { owner?: string } } }) => ids.includes(e.id) && e.data.after?.owner === 'user1');
  expect(undone).toHaveLength(3);
});
