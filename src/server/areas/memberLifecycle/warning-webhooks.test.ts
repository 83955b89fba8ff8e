/**
 * The lifecycle's warnings are webhook events like any other member event: `/users/<u>/expirationWarning`
 * and `/users/<u>/inactivityWarning` (and the category verbs `/users/expirationWarning`,
 * `/users/inactivityWarning`) can be subscribed to, and the runner's warnings reach a real receiver
 * on 127.0.0.1 through the outbox — only the subscribed ones, each once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { runWebhookDispatch } from '../../jobs/webhooks/dispatcher.ts';
import { MemberLifecycleRunner } from '../../jobs/memberLifecycle.ts';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-23T07:30:00Z');
const clock = { t: T0, now: () => clock.t };

const received: { path: string; body: any }[] = [];
let receiver: http.Server;
let hookBase = '';
let svc: TestService;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":"true"}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startService({ clock });
  await svc.db.query('UPDATE users SET last_login = $1', [T0]);
  // Events from the organization's setup: consumed before any webhook exists.
  await runWebhookDispatch(svc.app.portal);
});
afterAll(async () => {
  await svc.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const hooksBase = () => `portals/${svc.orgId}/webhooks`;
const lifecycle = () => `portals/${svc.orgId}/memberLifecycle`;
const delivered = (path: string) => received.filter((r) => r.path === path).flatMap((r) => r.body.events);

describe('lifecycle warnings as webhook events', () => {
  it('refuses a warning verb the catalogue does not have, in the error envelope', async () => {
    const admin = await svc.tokenFor('admin');
    const res = await svc.post(`${hooksBase()}/createWebhook`, { name: 'Wrong verb', url: `${hookBase}/x`, events: '/users/user1/expiryWarning' }, admin);
    expect(res.error).toMatchObject({ code: 400, message: expect.any(String) });
    expect(JSON.stringify(res.error)).toContain('expiryWarning');
  });

  it('delivers the expiry warning and the inactivity warning to the webhooks subscribed to them, once', async () => {
    const admin = await svc.tokenFor('admin');
    const one = await svc.post(
      `${hooksBase()}/createWebhook`,
      { name: 'user1 expiry', url: `${hookBase}/expiry`, events: '/users/user1/expirationWarning' },
      admin,
    );
    expect(one.success, JSON.stringify(one)).toBe(true);
    const all = await svc.post(
      `${hooksBase()}/createWebhook`,
      { name: 'Inactivity', url: `${hookBase}/inactive`, events: '/users/inactivityWarning,/users/viewer1/expirationWarning' },
      admin,
    );
    expect(all.success, JSON.stringify(all)).toBe(true);
    expect((await svc.post(`${hooksBase()}/${all.id}`, {}, admin)).events).toEqual(['/users/inactivityWarning', '/users/viewer1/expirationWarning']);

    // user1 expires in 10 days (warned 7 days before); publisher1 has been away 40 days (warned after 30).
    const at = T0 + 10 * DAY;
    expect((await svc.post(`${lifecycle()}/setExpiration`, { usernames: 'user1', expiration: String(at) }, admin)).results[0].status).toBe(true);
    await svc.db.query('UPDATE users SET last_login = $2 WHERE username = $1', ['publisher1', T0 + 3 * DAY - 40 * DAY]);
    const policy = await svc.post(
      `${lifecycle()}/policies/createPolicy`,
      { title: 'Away members', warnAfterDays: '30', actAfterDays: '90', action: 'disable' },
      admin,
    );
    clock.t = T0 + 3 * DAY;
    const adminLater = await svc.tokenFor('admin');
    expect((await svc.post(`${lifecycle()}/policies/${policy.id}/enable`, {}, adminLater)).policy.active).toBe(true);

    const runner = new MemberLifecycleRunner(svc.app.portal, { clock });
    expect(await runner.runDue()).toEqual({ warned: 1, expired: 0, policies: 1 });
    await runWebhookDispatch(svc.app.portal);

    expect(delivered('/expiry')).toEqual([
      expect.objectContaining({ source: 'user', id: 'user1', operation: 'expirationWarning', when: clock.t, properties: { expiration: at } }),
    ]);
    expect(delivered('/inactive')).toEqual([
      expect.objectContaining({
        source: 'user',
        id: 'publisher1',
        operation: 'inactivityWarning',
        properties: expect.objectContaining({ policyId: policy.id, policyTitle: 'Away members', action: 'disable' }),
      }),
    ]);

    // Nothing new is due: no second warning, no second delivery.
    received.length = 0;
    expect(await runner.runDue()).toEqual({ warned: 0, expired: 0, policies: 0 });
    await runWebhookDispatch(svc.app.portal);
    expect(received).toEqual([]);
  });
});
