/**
 * Delivery rules beyond success and retry: a 410 Gone deactivates the webhook at once with its
 * reason; Retry-After on 429 and 503 is honoured up to the longest interval of the settings;
 * only 2xx counts (a 1xx-free 204 succeeds, a 304 fails); the console's list shows the latest
 * attempt, the failures within the policy window and why a webhook is inactive.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { WEBHOOK_DISPATCH_DEFAULTS } from '../../config.ts';
import { claimDeliveries } from '../../jobs/webhooks/claim.ts';
import { parseRetryAfter } from '../../jobs/webhooks/deliver.ts';
import { runWebhookDispatch } from '../../jobs/webhooks/dispatcher.ts';
import { fanOut } from '../../jobs/webhooks/fanOut.ts';

const clock = { t: Date.UTC(2026, 2, 1, 9), now: () => clock.t };
const received: string[] = [];
let receiver: http.Server;
let hookBase: string;
let svc: TestService;
let token: string;
let base: string;
const hooks: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      received.push(path);
      const [, kind, arg] = path.split('/');
      if (kind === 'gone') res.writeHead(410).end('gone');
      else if (kind === 'busy') res.writeHead(429, { 'retry-after': arg }).end('slow down');
      else if (kind === 'unavailable') res.writeHead(503, { 'retry-after': arg }).end('later');
      else if (kind === 'nocontent') res.writeHead(204).end();
      else if (kind === 'notmodified') res.writeHead(304).end();
      else res.writeHead(500).end('no');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startService({ clock });
  token = await svc.tokenFor('admin');
  base = `portals/${svc.orgId}/webhooks`;
  await runWebhookDispatch(svc.app.portal);
});
afterAll(async () => {
  await svc.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});
afterEach(async () => {
  for (const id of hooks.splice(0)) await svc.post(`${base}/${id}/delete`, {}, token);
  received.length = 0;
});

async function hook(path: string, params: Record<string, string> = {}): Promise<string> {
  const res = await svc.post(`${base}/createWebhook`, { name: `hook ${path}`, url: `${hookBase}${path}`, changes: 'allChanges', ...params }, token);
  expect(res.success, JSON.stringify(res)).toBe(true);
  hooks.push(res.id);
  return res.id;
}
const dispatch = () => runWebhookDispatch(svc.app.portal);
const createGroup = async () => (await svc.post('community/createGroup', { title: `G ${Math.random()}` }, token)).group.id as string;
const record = async (id: string) => svc.post(`${base}/${id}`, {}, token);
const listed = async (id: string) => ((await svc.post(base, { num: '100' }, token)).webhooks as any[]).find((w) => w.id === id);

describe('410 Gone', () => {
  it('fails the delivery without retries and deactivates the webhook, saying why; activate clears the reason', async () => {
    await svc.post(`${base}/settings/update`, { notificationAttempts: '3', notificationElapsedTimeInSeconds: '1' }, token);
    const id = await hook('/gone/x');
    await createGroup();
    expect(await dispatch()).toBe(1);
    clock.t += 60_000;
    expect(await dispatch()).toBe(0);
    expect(received).toEqual(['/gone/x']);
    const r = await record(id);
    expect(r.isActive).toBe(false);
    expect(r.deactivationReason).toContain('410 Gone');
    expect(r.deactivatedAt).toBe(clock.t - 60_000);
    const [attempt] = (await svc.post(`${base}/${id}/notificationStatus`, {}, token)).WebhookStatus;
    expect(attempt).toMatchObject({ responseStatus: 410, success: false, deliveryState: 'failed' });
    // Later events are not delivered to an inactive webhook.
    await createGroup();
    expect(await dispatch()).toBe(0);
    await svc.post(`${base}/${id}/activate`, {}, token);
    expect(await record(id)).toMatchObject({ isActive: true, deactivationReason: null, deactivatedAt: null });
  });
});

describe('Retry-After', () => {
  it('a 429 asking for 30 s waits 30 s, not the 1 s backoff', async () => {
    await svc.post(`${base}/settings/update`, { notificationAttempts: '1', notificationElapsedTimeInSeconds: '1' }, token);
    await hook('/busy/30');
    await createGroup();
    expect(await dispatch()).toBe(1);
    clock.t += 29_999;
    expect(await dispatch()).toBe(0);
    clock.t += 1;
    expect(await dispatch()).toBe(1);
  });

  it('a 503 asking for an hour waits no more than the longest interval of the settings (100 s)', async () => {
    await svc.post(`${base}/settings/update`, { notificationAttempts: '1', notificationElapsedTimeInSeconds: '1' }, token);
    await hook('/unavailable/3600');
    await createGroup();
    expect(await dispatch()).toBe(1);
    clock.t += 99_999;
    expect(await dispatch()).toBe(0);
    clock.t += 1;
    expect(await dispatch()).toBe(1);
  });

  it('a Retry-After shorter than the backoff does not shorten it', async () => {
    await svc.post(`${base}/settings/update`, { notificationAttempts: '1', notificationElapsedTimeInSeconds: '10' }, token);
    await hook('/busy/1');
    await createGroup();
    expect(await dispatch()).toBe(1);
    clock.t += 9_999;
    expect(await dispatch()).toBe(0);
    clock.t += 1;
    expect(await dispatch()).toBe(1);
  });

  it('reads delay-seconds and HTTP dates; anything else is ignored', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter(new Date(now - 5000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
  });
});

describe('only 2xx succeeds', () => {
  it('204 is a success; 304 is a failure', async () => {
    await svc.post(`${base}/settings/update`, { notificationAttempts: '0' }, token);
    const ok = await hook('/nocontent/x');
    const notModified = await hook('/notmodified/x');
    await createGroup();
    await dispatch();
    expect((await svc.post(`${base}/${ok}/notificationStatus`, {}, token)).WebhookStatus[0]).toMatchObject({ responseStatus: 204, success: true });
    expect((await svc.post(`${base}/${notModified}/notificationStatus`, {}, token)).WebhookStatus[0]).toMatchObject({
      responseStatus: 304,
      success: false,
      deliveryState: 'failed',
    });
  });
});

describe('the list says how each webhook is doing', () => {
  it('latest attempt, failures within the policy window, and the reason of a deactivation', async () => {
    await svc.post(`${base}/settings/update`, { notificationAttempts: '0' }, token);
    const id = await hook('/fail/x', { config: JSON.stringify({ deactivationPolicy: { numberOfFailures: 2, daysInPast: 1 } }) });
    expect(await listed(id)).toMatchObject({ lastDelivery: null, recentFailures: 0, isActive: true, deactivationReason: null });
    clock.t += 1; // failures count after the webhook's activation (its creation)
    await createGroup();
    await dispatch();
    expect(await listed(id)).toMatchObject({ lastDelivery: { at: clock.t, success: false, status: 500 }, recentFailures: 1, isActive: true });
    await createGroup();
    await dispatch();
    const w = await listed(id);
    expect(w).toMatchObject({ recentFailures: 2, isActive: false });
    expect(w.deactivationReason).toBe('Deactivated by its policy: 2 failed deliveries within 1 day (limit 2).');
  });

  it('an administrator’s deactivation names them', async () => {
    const id = await hook('/nocontent/y');
    await svc.post(`${base}/${id}/deactivate`, {}, token);
    expect((await record(id)).deactivationReason).toBe('Deactivated by admin.');
  });
});

describe('claims are fair between webhooks', () => {
  it("a webhook at its limit with a long backlog does not hide another webhook's newer delivery", async () => {
    const busy = await hook('/nocontent/busy', { changes: 'manualChanges', events: '/groups/add' });
    for (let i = 0; i < 40; i++) await createGroup();
    await fanOut(svc.app.portal);
    clock.t += 1000;
    const other = await hook('/nocontent/other', { changes: 'manualChanges', events: '/groups/add' });
    await createGroup();
    await fanOut(svc.app.portal);
    // The busy webhook has 41 due deliveries, all older than the other's one, and is at its limit.
    const claimed = await claimDeliveries(svc.app.portal, 8, new Map([[busy, WEBHOOK_DISPATCH_DEFAULTS.perWebhook]]));
    expect(claimed.map((c) => c.webhook_id)).toEqual([other]);
    // That claim is left to its lease (as if its process stopped); then everything is delivered.
    clock.t += 10_000 + WEBHOOK_DISPATCH_DEFAULTS.leaseMarginMs + 1;
    await runWebhookDispatch(svc.app.portal);
    expect(received.filter((p) => p === '/nocontent/busy')).toHaveLength(41);
    expect(received.filter((p) => p === '/nocontent/other')).toHaveLength(1);
  });
});
