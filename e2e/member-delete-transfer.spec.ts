/**
 * Deleting a member without losing anything: in the delete dialog the administrator gives the
 * member's items to others — one new owner for everything, another for one item — runs the transfer
 * wizard's pre-check over that plan, transfers what passed, fixes the blocked item's owner, gives
 * the member's group to another member, and deletes the member. By keyboard, axe clean at each stage, at 1440 and 390 px.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { expectAxeClean } from './axe.ts';
import { expectVisibleFocus, tabTo } from './keyboard.ts';
import { createMember, DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

async function rest(request: APIRequestContext, path: string, form: Record<string, string>) {
  const body = await (await request.post(`/sharing/rest/${path}`, { form: { f: 'json', ...form } })).json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}
const tokenFor = async (request: APIRequestContext, username: string) =>
  (await rest(request, 'generateToken', { username, password: DEMO_PASSWORD })).token as string;

/** A publisher with a folder of one layer, two maps at the root and a group. */
async function seedLeaver(request: APIRequestContext, username: string) {
  await createMember(request, await tokenFor(request, 'admin'), {
    username,
    password: DEMO_PASSWORD,
    firstname: 'Lee',
    lastname: 'Leaving',
    role: 'org_publisher',
  });
  const token = await tokenFor(request, username);
  const folder = (await rest(request, `content/users/${username}/createFolder`, { title: 'Field work', token })).folder.id as string;
  const url = 'http://127.0.0.1:9/arcgis/rest/services/P/FeatureServer';
  await rest(request, `content/users/${username}/${folder}/addItem`, { title: 'Parks layer', type: 'Feature Service', url, token });
  await rest(request, `content/users/${username}/addItem`, { title: 'Parks map', type: 'Web Map', text: '{}', token });
  await rest(request, `content/users/${username}/addItem`, { title: 'Crew notes', type: 'Web Map', text: '{}', token });
  await rest(request, 'community/createGroup', { title: `Crew of ${username}`, token });
}

/** Types into a member field and picks the member with the keyboard. */
async function pickByKeyboard(page: Page, field: string, username: string) {
  const box = page.getByRole('combobox', { name: field });
  await tabTo(page, box);
  await box.pressSequentially(username, { delay: 20 });
  await expect(page.getByRole('option', { name: new RegExp(username) })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(new RegExp(username));
}

for (const size of [
  { name: 'wide', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`delete a member after a per-item transfer plan, by keyboard (${size.width} px)`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const leaver = `leaver_${size.name}_${Date.now().toString(36)}`;
    await seedLeaver(request, leaver);
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, 'admin');
    await page.goto(`/members/${leaver}`);
    await page.getByRole('button', { name: 'Delete member' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Delete/ });
    const plan = dialog.getByTestId('transfer-plan');
    await expect(plan.getByRole('combobox', { name: 'New owner of “Crew notes”' })).toBeVisible();
    await expect(dialog.getByTestId('owned-items-count')).toHaveText('3');
    await expectAxeClean(page, '[role="dialog"]');

    await pickByKeyboard(page, 'New owner of everything', 'publisher1');
    await pickByKeyboard(page, 'New owner of “Crew notes”', 'viewer1');
    const check = plan.getByRole('button', { name: 'Check the plan (3 items)' });
    await tabTo(page, check);
    await expectVisibleFocus(page);
    await page.keyboard.press('Enter');
    const blocked = plan.getByRole('region', { name: 'Pre-check for viewer1' });
    await expect(blocked.getByRole('row', { name: /Crew notes/ })).toContainText('Blocked');
    await expect(plan.getByRole('region', { name: 'Pre-check for publisher1' })).toContainText('2 transferable');
    await expectAxeClean(page, '[role="dialog"]');
    await snap(page, `member-delete-plan-checked-${size.width}`);

    const transfer = plan.getByRole('button', { name: 'Transfer 2 items' });
    await tabTo(page, transfer);
    await page.keyboard.press('Enter');
    await expect(plan.getByRole('table', { name: 'Transfer results' })).toContainText('Parks layer');
    await expect(dialog.getByTestId('owned-items-count')).toHaveText('1');
    await expectAxeClean(page, '[role="dialog"]');
    await snap(page, `member-delete-plan-transferred-${size.width}`);

    // The blocked item to publisher1 too, then the delete the portal now allows.
    await pickByKeyboard(page, 'New owner of “Crew notes”', 'publisher1');
    await tabTo(page, plan.getByRole('button', { name: 'Check the plan (1 item)' }));
    await page.keyboard.press('Enter');
    await tabTo(page, plan.getByRole('button', { name: 'Transfer 1 item' }));
    await page.keyboard.press('Enter');
    await expect(plan.getByText(/owns no items any more/)).toBeVisible();
    await expect(dialog.getByTestId('owned-items-count')).toHaveText('0');

    // The group to publisher1 (Reassign Group), on its own row.
    const groups = dialog.getByTestId('group-transfer-plan');
    await expect(dialog.getByTestId('owned-groups-count')).toHaveText('1');
    await pickByKeyboard(page, `New owner of the group “Crew of ${leaver}”`, 'publisher1');
    await tabTo(page, groups.getByRole('button', { name: 'Give 1 group away' }));
    await page.keyboard.press('Enter');
    await expect(groups.getByRole('status')).toHaveText('Given to publisher1.');
    await expect(dialog.getByTestId('owned-groups-count')).toHaveText('0');
    await expectAxeClean(page, '[role="dialog"]');
    await snap(page, `member-delete-group-given-${size.width}`);
    await tabTo(page, dialog.getByRole('button', { name: /^Delete 1 member/ }));
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('table', { name: /results$/ })).toContainText('Changed', { timeout: 20_000 });
    await snap(page, `member-delete-done-${size.width}`);
    // Done: the member is gone, and the console goes back to the members list.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/members$/);
    const gone = await (await request.post(`/sharing/rest/community/users/${leaver}`, { form: { f: 'json', token: await tokenFor(request, 'admin') } })).json();
    expect(gone.error?.code).toBe(400);
  });
}
