/**
 * Keyboard only: an administrator creates a webhook and picks its events with the event picker —
 * one verb of a category, a whole category, one item's "shared" event — and removes a subscribed
 * event by its pill's button; focus stays in the list when a pill goes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { snap } from './support.ts';
import { apiAs, expectVisibleFocus, keyboardSignIn, tabTo } from './keyboard.ts';
import { test } from './test.ts';

test.setTimeout(180_000);

let receiver: http.Server;
test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
test.afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

test('an administrator picks a webhook’s events with the keyboard only', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  const admin = await apiAs(request, 'admin');
  const item = (await admin('content/users/admin/addItem', { title: `Watched map ${tag}`, type: 'Web Map', text: '{}' })).id as string;
  const name = `Keyboard feed ${tag}`;

  await keyboardSignIn(page, 'admin');
  await tabTo(page, page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Webhooks', exact: true }));
  await page.keyboard.press('Enter');
  const create = page.getByRole('button', { name: 'Create webhook' });
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create webhook' });
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type(name);
  await tabTo(page, dialog.getByRole('textbox', { name: 'Payload URL' }));
  await page.keyboard.type(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);

  const subscribed = dialog.getByRole('group', { name: 'Subscribed events' });
  // One verb of a category: Space ticks it and its URI is listed.
  const groupsAdded = dialog.getByRole('checkbox', { name: 'Groups: Added' });
  await tabTo(page, groupsAdded);
  await page.keyboard.press('Space');
  await expect(groupsAdded).toBeChecked();
  await expect(subscribed).toContainText('/groups/add');

  // A whole category: its verbs are then included (ticked and disabled).
  const allUsers = dialog.getByRole('checkbox', { name: 'All users events' });
  await tabTo(page, allUsers);
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('checkbox', { name: 'Users: Signed in' })).toBeDisabled();
  await expect(subscribed).toContainText('/users');

  // One item's "Shared" event: its id typed, the event picked from the list with the arrow keys.
  await tabTo(page, dialog.getByRole('textbox', { name: 'One item' }));
  await page.keyboard.type(item);
  await tabTo(page, dialog.getByRole('textbox', { name: 'Event of one item' }).or(dialog.getByRole('combobox', { name: 'Event of one item' })));
  await page.keyboard.press('ArrowDown');
  const shared = page.getByRole('option', { name: 'Shared', exact: true });
  await expect(shared).toBeVisible();
  for (let i = 0; i < 20 && (await shared.getAttribute('data-combobox-selected')) === null; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(shared).toBeHidden();
  await tabTo(page, dialog.getByRole('button', { name: 'Add one item' }));
  await page.keyboard.press('Enter');
  await expect(subscribed).toContainText(`/items/${item}/share`);

  // A subscribed event removed by its pill's button; focus moves to the pill now in its place.
  const removeGroupsAdd = subscribed.getByRole('button', { name: 'Remove /groups/add' });
  await tabTo(page, removeGroupsAdd);
  await page.keyboard.press('Enter');
  await expect(removeGroupsAdd).toHaveCount(0);
  await expect(groupsAdded).not.toBeChecked();
  await expect(subscribed.getByRole('button', { name: 'Remove /users' })).toBeFocused();
  await expectVisibleFocus(page);
  await snap(page, 'keyboard-webhook-events');

  await tabTo(page, dialog.getByRole('button', { name: 'Generate' }));
  await page.keyboard.press('Enter');
  await tabTo(page, dialog.getByRole('button', { name: 'Create webhook' }));
  await page.keyboard.press('Enter');
  const created = page.getByRole('dialog', { name: 'Webhook created' });
  await expect(created).toBeVisible({ timeout: 15_000 });
  await tabTo(page, created.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // The portal holds the events picked.
  const id = page.url().split('/').pop()!;
  const { orgId } = await (await request.get('/sharing/rest/portals/self?f=json')).json().then((p: { id: string }) => ({ orgId: p.id }));
  const webhook = await admin(`portals/${orgId}/webhooks/${id}`, {});
  expect([...webhook.events].sort()).toEqual([`/items/${item}/share`, '/users'].sort());
});
