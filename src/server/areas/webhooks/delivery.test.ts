/**
 * Webhook deliveries against a real receiver on 127.0.0.1: events from real operations through
 * the outbox, the payload and both signatures, success, 500, 302, timeouts and slow receivers,
 * retries with backoff on a controllable clock, the deactivation policy at, below and above its
 * threshold and window, redelivery, the test event, the background loop, and a restart in the
 * middle of a delivery that loses nothing.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { buildApp } from '../../app.ts';
import { WEBHOOK_DISPATCH_DEFAULTS, type WebhookDispatchSettings } from '../../config.ts';
import type { PortalContext } from '../../context.ts';
import { claimDeliveries } from '../../jobs/webhooks/claim.ts';
import { runWebhookDispatch, startWebhookDispatcher } from '../../jobs/webhooks/dispatcher.ts';
import { fanOut } from '../../jobs/webhooks/fanOut.ts';

const DAY = 86_400_000;
const clock = { t: Date.UTC(2026, 0, 10, 12), now: () => clock.t };

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
const received: Received[] = [];
let concurrent: Record<string, number> = {};
let maxConcurrent: Record<string, number> = {};
let receiver: http.Server;
let hookBase: string;

let svc: TestService;
let adminToken = '';
let issuedAt = 0;
/** The admin's token, signed in again once the test clock has moved on (tokens last an hour). */
async function tok(): Promise<string> {
  if (!adminToken || clock.t - issuedAt > 30 * 60_000) {
    adminToken = await svc.tokenFor('admin');
    issuedAt = clock.t;
  }
  return adminToken;
}
let base: string;
const hooks: string[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const key = path.split('/')[1];
      concurrent[key] = (concurrent[key] ?? 0) + 1;
      maxConcurrent[key] = Math.max(maxConcurrent[key] ?? 0, concurrent[key]);
      const finish = (status: number, body: string, headers: Record<string, string> = {}) => {
        concurrent[key]--;
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
      };
      if (path.startsWith('/ok')) finish(200, '{"success":"true"}');
      else if (path.startsWith('/fail')) finish(500, 'x'.repeat(5000));
      else if (path.startsWith('/redirect')) finish(302, '', { location: `${hookBase}/ok/redirected` });
      else if (path.startsWith('/slow')) setTimeout(() => finish(200, 'slow ok'), 1200);
      else if (path.startsWith('/hang')) setTimeout(() => finish(200, 'too late'), 3000);
      else finish(404, 'no');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startService({ clock });
  base = `portals/${svc.orgId}/webhooks`;
  // Events before any webhook exist: consumed without deliveries.
  await runWebhookDispatch(svc.app.portal);
});
afterAll(async () => {
  await svc.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});
afterEach(async () => {
  for (const id of hooks.splice(0)) await svc.post(`${base}/${id}/delete`, {}, await tok());
  await svc.post(
    `${base}/settings/update`,
    { notificationAttempts: '3', notificationTimeOutInSeconds: '10', notificationElapsedTimeInSeconds: '5' },
    await tok(),
  );
  received.length = 0;
  concurrent = {};
  maxConcurrent = {};
});

async function hook(path: string, params: Record<string, string> = {}): Promise<string> {
  const res = await svc.post(`${base}/createWebhook`, { name: `hook ${path}`, url: `${hookBase}${path}`, changes: 'allChanges', ...params }, await tok());
  expect(res.success, JSON.stringify(res)).toBe(true);
  hooks.push(res.id);
  return res.id;
}
const createGroup = async (title = `G ${Math.random()}`) => (await svc.post('community/createGroup', { title }, await tok())).group.id as string;
const status = async (id: string) =>
  (await svc.post(`${base}/${id}/notificationStatus`, { num: '100' }, await tok())) as { WebhookStatus: any[]; total: number; nextStart: number };
const dispatch = () => runWebhookDispatch(svc.app.portal);
/** The portal with some of the dispatcher's settings overridden, as a Config would give them. */
const withDispatch = (dispatch: Partial<WebhookDispatchSettings>): PortalContext => ({
  ...svc.app.portal,
  config: { ...svc.app.portal.config, webhooks: { ...WEBHOOK_DISPATCH_DEFAULTS, ...dispatch } },
});
/** A loop polling every `ms`, on either database. */
const polling = (ms: number, more: Partial<WebhookDispatchSettings> = {}) => withDispatch({ pollMs: ms, embeddedPollMs: ms, ...more });
const settings = async (p: Record<string, string>) => svc.post(`${base}/settings/update`, p, await tok());
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64');

describe('delivery', () => {
  it('posts the event of a real operation, signed both ways, and logs the attempt', async () => {
    const id = await hook('/ok/signed', { secret: 'topsecret', name: 'Signed' });
    const groupId = await createGroup('Signed group');
    expect(await dispatch()).toBe(1);
    expect(received).toHaveLength(1);
    const [r] = received;
    const payload = JSON.parse(r.body);
    expect(payload).toEqual({
      info: { webhookId: id, webhookName: 'Signed', portalURL: expect.any(String), when: clock.t },
      events: [
        {
          userId: expect.any(String),
          username: 'admin',
          when: clock.t,
          operation: 'add',
          source: 'group',
          id: groupId,
          properties: { title: ['Signed group'] },
        },
      ],
    });
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-esrihook-signature']).toBe(`sha256=${hmac('topsecret', r.body)}`);
    const msgId = r.headers['webhook-id'] as string;
    const ts = r.headers['webhook-timestamp'] as string;
    expect(ts).toBe(String(Math.floor(clock.t / 1000)));
    expect(r.headers['webhook-signature']).toBe(`v1,${hmac('topsecret', `${msgId}.${ts}.${r.body}`)}`);
    // A wrong secret does not verify.
    expect(r.headers['webhook-signature']).not.toBe(`v1,${hmac('other', `${msgId}.${ts}.${r.body}`)}`);

    const s = await status(id);
    expect(s).toMatchObject({ total: 1, start: 1, num: 1, nextStart: -1 });
    expect(s.WebhookStatus[0]).toMatchObject({
      deliveryId: msgId,
      event: `/groups/${groupId}/add`,
      attempt: 1,
      invokedTimestamp: clock.t,
      responseStatus: 200,
      responseBody: '{"success":"true"}',
      success: true,
      deliveryState: 'delivered',
      payload: r.body,
    });
    expect(s.WebhookStatus[0].requestHeaders['webhook-id']).toBe(msgId);
    // Nothing more to do.
    expect(await dispatch()).toBe(0);
  });

  it('without a secret no signature headers are sent; webhook-id still is', async () => {
    await hook('/ok/unsigned');
    await createGroup();
    await dispatch();
    expect(received[0].headers['x-esrihook-signature']).toBeUndefined();
    expect(received[0].headers['webhook-signature']).toBeUndefined();
    expect(received[0].headers['webhook-id']).toBeTruthy();
  });

  it('matches events by category, verb, subject and exact path; inactive webhooks get nothing', async () => {
    const groupId = await createGroup();
    await dispatch();
    await hook('/ok/items', { changes: 'manualChanges', events: '/items' });
    await hook('/ok/groupupdate', { changes: 'manualChanges', events: '/groups/update' });
    await hook('/ok/onegroup', { changes: 'manualChanges', events: `/groups/${groupId}` });
    await hook('/ok/role', { changes: 'manualChanges', events: '/users/user1/updateUserRole' });
    const off = await hook('/ok/off', { changes: 'manualChanges', events: '/' });
    await svc.post(`${base}/${off}/deactivate`, {}, await tok());
    await svc.post(`community/groups/${groupId}/update`, { snippet: 'changed' }, await tok());
    await createGroup();
    expect((await svc.post(`portals/${svc.orgId}/updateUserRole`, { username: 'user1', role: 'org_publisher' }, await tok())).success).toBe(true);
    await dispatch();
    const paths = received.map((r) => r.path).sort();
    expect(paths).toEqual(['/ok/groupupdate', '/ok/onegroup', '/ok/role']);
    const role = JSON.parse(received.find((r) => r.path === '/ok/role')!.body);
    expect(role.events[0]).toMatchObject({ operation: 'updateUserRole', source: 'user', id: 'user1' });
    await svc.post(`portals/${svc.orgId}/updateUserRole`, { username: 'user1', role: 'org_user' }, await tok());
    await dispatch();
  });

  it('a 500 is retried with exponential backoff, then fails; the response excerpt is capped at 2 KB', async () => {
    await settings({ notificationAttempts: '2', notificationElapsedTimeInSeconds: '1' });
    const id = await hook('/fail/retry');
    await createGroup();
    expect(await dispatch()).toBe(1);
    clock.t += 999;
    expect(await dispatch()).toBe(0);
    clock.t += 1;
    expect(await dispatch()).toBe(1);
    clock.t += 1999;
    expect(await dispatch()).toBe(0);
    clock.t += 1;
    expect(await dispatch()).toBe(1);
    clock.t += 100_000;
    expect(await dispatch()).toBe(0);
    const s = await status(id);
    expect(s.total).toBe(3);
    expect(s.WebhookStatus.map((a) => a.attempt)).toEqual([3, 2, 1]);
    expect(s.WebhookStatus.every((a) => a.responseStatus === 500 && !a.success && a.deliveryState === 'failed')).toBe(true);
    expect(s.WebhookStatus[0].responseBody.length).toBe(2048);
    expect(s.WebhookStatus[0].error).toContain('HTTP 500');
    // The same webhook-id on every retry.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('notificationAttempts 0 means one attempt only', async () => {
    await settings({ notificationAttempts: '0' });
    const id = await hook('/fail/once');
    await createGroup();
    expect(await dispatch()).toBe(1);
    clock.t += DAY;
    expect(await dispatch()).toBe(0);
    expect((await status(id)).WebhookStatus[0].deliveryState).toBe('failed');
  });

  it('a redirect is a failure and is not followed', async () => {
    await settings({ notificationAttempts: '0' });
    const id = await hook('/redirect/x');
    await createGroup();
    await dispatch();
    expect(received.map((r) => r.path)).toEqual(['/redirect/x']);
    const [a] = (await status(id)).WebhookStatus;
    expect(a).toMatchObject({ responseStatus: 302, success: false });
    expect(a.error).toContain('redirect');
  });

  it('a receiver that does not answer within the timeout fails the attempt', async () => {
    await settings({ notificationAttempts: '0', notificationTimeOutInSeconds: '1' });
    const id = await hook('/hang/x');
    await createGroup();
    const started = Date.now();
    await dispatch();
    expect(Date.now() - started).toBeLessThan(2500);
    const [a] = (await status(id)).WebhookStatus;
    expect(a).toMatchObject({ responseStatus: null, success: false, deliveryState: 'failed' });
    expect(a.error).toMatch(/1000 ms/);
    expect(a.durationMs).toBeGreaterThanOrEqual(900);
  });

  it('a slow receiver does not delay another webhook; at most perWebhook deliveries per webhook at once', async () => {
    await hook('/slow/x');
    await hook('/ok/fast');
    // One more than a webhook may have in flight: the slow receiver is held at its limit.
    const events = WEBHOOK_DISPATCH_DEFAULTS.perWebhook + 1;
    for (let i = 0; i < events; i++) await createGroup();
    await dispatch();
    const fast = received.filter((r) => r.path === '/ok/fast');
    const slow = received.filter((r) => r.path === '/slow/x');
    expect(fast).toHaveLength(events);
    expect(slow).toHaveLength(events);
    // The slow delivery its limit held back could start only once a first one ended (1.2 s after it
    // began): every delivery to the other webhook came before it, so none waited on the slow one.
    // (Against the clock instead, this failed on a loaded machine while the groups were being made.)
    const heldBack = Math.max(...slow.map((r) => r.at));
    for (const r of fast) expect(r.at).toBeLessThan(heldBack);
    expect(maxConcurrent.slow).toBe(WEBHOOK_DISPATCH_DEFAULTS.perWebhook);
  });
});

describe('deactivation policy', () => {
  it('counts final failures within daysInPast: below, at and beyond the window, and at the threshold', async () => {
    await settings({ notificationAttempts: '0' });
    const id = await hook('/fail/policy', { config: JSON.stringify({ deactivationPolicy: { numberOfFailures: 2, daysInPast: 1 } }) });
    const active = async () => (await svc.post(`${base}/${id}`, {}, await tok())).isActive as boolean;
    await createGroup();
    await dispatch();
    expect(await active()).toBe(true); // 1 failure: below
    clock.t += DAY + 1; // the first failure is now just outside the window
    await createGroup();
    await dispatch();
    expect(await active()).toBe(true);
    clock.t += DAY; // exactly daysInPast after the second: still inside
    await createGroup();
    await dispatch();
    expect(await active()).toBe(false); // 2 within the window: at the threshold
    await createGroup();
    await dispatch();
    expect(received).toHaveLength(3); // inactive: nothing delivered
    // Activating starts a new count: one failure does not deactivate again.
    clock.t += 1;
    await svc.post(`${base}/${id}/activate`, {}, await tok());
    clock.t += 1;
    await createGroup();
    await dispatch();
    expect(await active()).toBe(true);
    await createGroup();
    await dispatch();
    expect(await active()).toBe(false);
  });

  it('retries that succeed do not count as failures', async () => {
    await settings({ notificationAttempts: '1', notificationElapsedTimeInSeconds: '1' });
    const id = await hook('/fail/one', { config: JSON.stringify({ deactivationPolicy: { numberOfFailures: 1, daysInPast: 5 } }) });
    await createGroup();
    await dispatch();
    expect((await svc.post(`${base}/${id}`, {}, await tok())).isActive).toBe(true); // failed attempt, retry pending
    clock.t += 1000;
    await dispatch();
    expect((await svc.post(`${base}/${id}`, {}, await tok())).isActive).toBe(false); // now a final failure
  });
});

describe('redelivery and the test event', () => {
  it('redeliver sends the same delivery again with the same webhook-id', async () => {
    const id = await hook('/ok/again', { secret: 'k' });
    await createGroup();
    await dispatch();
    const [first] = (await status(id)).WebhookStatus;
    clock.t += 5000;
    expect(await svc.post(`${base}/${id}/notificationStatus/${first.deliveryId}/redeliver`, {}, await tok())).toEqual({ success: true });
    expect(await dispatch()).toBe(1);
    expect(received).toHaveLength(2);
    expect(received[1].headers['webhook-id']).toBe(received[0].headers['webhook-id']);
    expect(received[1].headers['webhook-timestamp']).toBe(String(Math.floor(clock.t / 1000)));
    expect(JSON.parse(received[1].body).events).toEqual(JSON.parse(received[0].body).events);
    expect((await status(id)).total).toBe(2);
    expect((await svc.post(`${base}/${id}/notificationStatus/nope/redeliver`, {}, await tok())).error.code).toBe(404);
    expect((await svc.post(`${base}/${id}/notificationStatus/${first.deliveryId}/redeliver`, {}, await svc.tokenFor('user1'))).error.code).toBe(403);
  });

  it('a pending delivery is not redelivered', async () => {
    await settings({ notificationAttempts: '1' });
    const id = await hook('/fail/pending');
    await createGroup();
    await dispatch();
    const [a] = (await status(id)).WebhookStatus;
    expect(a.deliveryState).toBe('pending');
    // The latest attempt of a delivery awaiting its retry says when that retry is due (the 5 s interval after it, on the held clock).
    expect(a.nextAttemptAt).toBe(clock.t + 5_000);
    expect((await svc.post(`${base}/${id}/notificationStatus/${a.deliveryId}/redeliver`, {}, await tok())).error.code).toBe(400);
  });

  it('test sends a synthetic /webhooks/test event', async () => {
    const id = await hook('/ok/test', { changes: 'manualChanges', events: '/roles' });
    const res = await svc.post(`${base}/${id}/test`, {}, await tok());
    expect(res.success).toBe(true);
    await dispatch();
    expect(received).toHaveLength(1);
    expect(received[0].headers['webhook-id']).toBe(res.deliveryId);
    expect(JSON.parse(received[0].body).events[0]).toMatchObject({ operation: 'test', source: 'webhook', id, username: 'admin' });
    expect((await status(id)).WebhookStatus[0].event).toBe('/webhooks/test');
    expect((await svc.post(`${base}/nope/test`, {}, await tok())).error.code).toBe(404);
  });
});

describe('background loop and restarts', () => {
  it('the dispatcher loop delivers without being called', async () => {
    await hook('/ok/loop');
    const loop = startWebhookDispatcher(polling(20));
    try {
      await createGroup();
      const deadline = Date.now() + 5000;
      while (!received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(received.map((r) => r.path)).toEqual(['/ok/loop']);
    } finally {
      await loop.stop();
    }
  });

  it('a POST that commits an event wakes the loop at once (no waiting for the next poll)', async () => {
    await hook('/ok/nudge');
    const loop = startWebhookDispatcher(polling(60_000));
    try {
      await new Promise((r) => setTimeout(r, 100)); // the first pass is over; the next poll is a minute away
      await createGroup();
      const deadline = Date.now() + 3000;
      while (!received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(received.map((r) => r.path)).toEqual(['/ok/nudge']);
    } finally {
      await loop.stop();
    }
  });

  it('deliveries to one receiver reuse kept connections; once a drained queue has seen enough attempts the tables are vacuumed', async () => {
    await hook('/ok/kept');
    const ports = new Set<number | undefined>();
    const onRequest = (req: http.IncomingMessage) => ports.add(req.socket.remotePort);
    receiver.on('request', onRequest);
    const vacuums = async () =>
      (await svc.db.query<{ n: number }>(`SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'webhook_deliveries'`))[0].n;
    const before = await vacuums();
    const loop = startWebhookDispatcher(polling(20, { vacuumAfterAttempts: 5 }));
    try {
      // One event at a time, each delivered before the next: a connection is then free to be kept
      // and used again (six at once, as a loaded machine could dispatch them, need six connections).
      const deadline = Date.now() + 10_000;
      for (let i = 0; i < 6; i++) {
        await createGroup();
        while (received.length < i + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      }
      expect(received.map((r) => r.path)).toEqual(Array(6).fill('/ok/kept'));
      expect(ports.size).toBeLessThan(6);
      if (svc.db.kind === 'pglite') {
        while ((await vacuums()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(await vacuums()).toBeGreaterThan(before);
      }
      // The loop goes on delivering after a vacuum.
      await createGroup();
      while (received.length < 7 && Date.now() < deadline + 3000) await new Promise((r) => setTimeout(r, 20));
      expect(received).toHaveLength(7);
    } finally {
      await loop.stop();
      receiver.off('request', onRequest);
    }
  });

  it('a delivery claimed by a process that stops is delivered once more, with the same id, after the lease', async () => {
    const id = await hook('/ok/crash');
    await createGroup();
    await fanOut(svc.app.portal);
    // The first process claims the delivery and stops before sending it.
    const [claimed] = await claimDeliveries(svc.app.portal, 8);
    expect(claimed.webhook_id).toBe(id);
    // A new app on the same database.
    const second = await buildApp({ db: svc.db, config: svc.config, clock });
    try {
      expect(await runWebhookDispatch(second.portal)).toBe(0); // the lease still holds
      clock.t += 10_000 + WEBHOOK_DISPATCH_DEFAULTS.leaseMarginMs;
      expect(await runWebhookDispatch(second.portal)).toBe(1);
      expect(await runWebhookDispatch(second.portal)).toBe(0);
      expect(received).toHaveLength(1);
      expect(received[0].headers['webhook-id']).toBe(claimed.id);
      const [a] = (await status(id)).WebhookStatus;
      expect(a).toMatchObject({ deliveryId: claimed.id, attempt: 2, success: true, deliveryState: 'delivered' });
    } finally {
      await second.close();
    }
  });

  it('a gap in the outbox sequence (a rolled-back transaction) does not stop later events for good', async () => {
    await hook('/ok/gap');
    const graced = withDispatch({ gapGraceMs: 300 });
    // A transaction that took a sequence number and rolled back.
    await svc.db
      .tx(async (q) => {
        await q.query(`SELECT nextval(pg_get_serial_sequence('events', 'seq'))`);
        throw new Error('rolled back');
      })
      .catch(() => {});
    await createGroup();
    if (svc.db.kind === 'postgres') {
      // Another process's transaction may still be committing the missing number: wait a little.
      expect(await runWebhookDispatch(graced)).toBe(0);
      await new Promise((r) => setTimeout(r, 350));
    }
    expect(await runWebhookDispatch(graced)).toBe(1);
    expect(received.map((r) => r.path)).toEqual(['/ok/gap']);
  });

  it('fan-out is one pass per event: two processes never make two deliveries of one event', async () => {
    await hook('/ok/once');
    await createGroup();
    const second = await buildApp({ db: svc.db, config: svc.config, clock });
    try {
      await Promise.all([runWebhookDispatch(svc.app.portal), runWebhookDispatch(second.portal)]);
      expect(received).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
