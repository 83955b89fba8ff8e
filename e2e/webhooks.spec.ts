/**
 * Webhooks end to end: a real HTTP receiver on loopback, a webhook made in the console subscribed
 * to item events, an item added through the API, the delivery seen in the receiver (signed with
 * the secret shown once) and in the console with its payload, then redelivered with the same id.
 *
 * The service must allow loopback payload URLs: run with ALLOW_PRIVATE_OUTBOUND=on
 * (`ALLOW_PRIVATE_OUTBOUND=on E2E_PORT=3431 npx playwright test e2e/webhooks.spec.ts`).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, signIn, snap } from './support.ts';
import { test } from './test.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: http.Server;
let receiverUrl: string;

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/portal-events`;
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

async function adminToken(request: APIRequestContext): Promise<string> {
  return (await (await request.post('/sharing/rest/generateToken', { form: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json()).token;
}

/** Lets a drawer finish sliding in before a screenshot. */
const settle = (page: Page) => page.waitForTimeout(400);

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64');

test('a webhook made in the console receives an item added through the API; the delivery is shown and redelivered', async ({ page, request }) => {
  const tag = Date.now().toString(36);
  await signIn(page, 'admin');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  await page.getByRole('button', { name: 'Create webhook' }).click();
  const form = page.getByRole('dialog', { name: 'Create webhook' });
  await form.getByRole('textbox', { name: 'Name' }).fill(`Item feed ${tag}`);
  await form.getByRole('textbox', { name: 'Payload URL' }).fill(receiverUrl);
  await form.getByRole('checkbox', { name: 'All items events' }).check();
  await form.getByRole('button', { name: 'Generate' }).click();
  await snap(page, 'webhooks-create');
  await form.getByRole('button', { name: 'Create webhook' }).click();

  const reveal = page.getByRole('dialog', { name: 'Webhook created' });
  await expect(reveal.getByRole('button', { name: 'Copy secret' }), 'the service must allow loopback payload URLs (ALLOW_PRIVATE_OUTBOUND=on)').toBeVisible();
  const secret = (await reveal.getByLabel('Webhook secret').textContent())!.trim();
  expect(secret.length).toBeGreaterThan(30);
  await snap(page, 'webhooks-secret-once');
  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Item feed ${tag}` })).toBeVisible();
  await expect(page.getByText('No deliveries yet')).toBeVisible();

  // An item added through the API (as another client would).
  const token = await adminToken(request);
  const added = await (
    await request.post('/sharing/rest/content/users/admin/addItem', { form: { f: 'json', token, title: `Webhook map ${tag}`, type: 'Web Map', text: '{}' } })
  ).json();
  expect(added.success, JSON.stringify(added)).toBe(true);

  // The receiver gets it, signed with the secret shown once.
  await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  const first = received[0];
  const payload = JSON.parse(first.body);
  expect(payload.info.webhookName).toBe(`Item feed ${tag}`);
  expect(payload.events[0]).toMatchObject({ operation: 'add', source: 'item', id: added.id, username: 'admin' });
  expect(first.headers['x-esrihook-signature']).toBe(`sha256=${hmac(secret, first.body)}`);
  const msgId = first.headers['webhook-id'] as string;
  expect(first.headers['webhook-signature']).toBe(`v1,${hmac(secret, `${msgId}.${first.headers['webhook-timestamp']}.${first.body}`)}`);

  // The console shows the delivery and its payload.
  const attempts = page.getByRole('table', { name: 'Delivery attempts' });
  const row = attempts.getByRole('row').filter({ hasText: `/items/${added.id}/add` });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText('200');
  await expect(row).toContainText('delivered');
  await snap(page, 'webhooks-deliveries');
  await row.getByRole('button', { name: /^Attempt 1 of/ }).click();
  const drawer = page.getByRole('dialog', { name: `Delivery of /items/${added.id}/add` });
  await expect(drawer.getByLabel('Request body')).toContainText(added.id);
  await expect(drawer.getByLabel('Request headers')).toContainText(`webhook-id: ${msgId}`);
  await expect(drawer.getByLabel('Response body (first 2 KB)')).toContainText('"received": true');
  await settle(page);
  await snap(page, 'webhooks-delivery-payload');

  // Redeliver: the receiver gets the same delivery again, with the same webhook-id.
  await drawer.getByRole('button', { name: 'Redeliver' }).click();
  await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
  expect(received[1].headers['webhook-id']).toBe(msgId);
  expect(JSON.parse(received[1].body).events).toEqual(payload.events);
  await page.keyboard.press('Escape');
  await expect(attempts.getByRole('row').filter({ hasText: `/items/${added.id}/add` })).toHaveCount(2, { timeout: 10_000 });
  await snap(page, 'webhooks-redelivered');

  // The list shows the last delivery; the service webhooks tab lists the federated ones.
  await page.getByRole('link', { name: 'Webhooks', exact: true }).first().click();
  const list = page.getByRole('table', { name: 'Organization webhooks' });
  await expect(list.getByRole('row').filter({ hasText: `Item feed ${tag}` })).toContainText('200');
  await snap(page, 'webhooks-list');
  await page.getByRole('tab', { name: 'Service webhooks' }).click();
  await expect(page.getByRole('table', { name: 'Service webhooks' }).getByRole('button', { name: 'Show Parcel edits' })).toBeVisible();
  await page.getByRole('button', { name: 'Show Parcel edits' }).click();
  await expect(page.getByRole('table', { name: 'Service webhook details' })).toContainText('Features created');
  await settle(page);
  await snap(page, 'webhooks-service-detail');
});
