/**
 * Organization webhooks: who may manage them, the record, create/update validation (events
 * against the catalogue and the organization, config, url), paging, activate/deactivate/delete,
 * and the delivery settings with their ranges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { matchingSubscriptions, parseEventUri, subscriptionMatches } from '../../../shared/events.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let base: string;
const RECEIVER = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  base = `portals/${svc.orgId}/webhooks`;
});
afterAll(() => svc.close());

const create = (params: Record<string, string>, token = tokens.admin) => svc.post(`${base}/createWebhook`, { name: 'hook', url: RECEIVER, ...params }, token);

describe('event catalogue', () => {
  it('reads every kind of URI and rejects the rest', () => {
    expect(parseEventUri('/')).toEqual({ kind: 'all' });
    expect(parseEventUri('/items')).toEqual({ kind: 'category', source: 'item' });
    expect(parseEventUri('/items/add')).toEqual({ kind: 'verb', source: 'item', verb: 'add' });
    expect(parseEventUri('/roles/delete')).toEqual({ kind: 'verb', source: 'role', verb: 'delete' });
    expect(parseEventUri('/users/user1/updateUserRole')).toEqual({ kind: 'subject', source: 'user', subject: 'user1', verb: 'updateUserRole' });
    expect(parseEventUri('/groups/abc')).toEqual({ kind: 'subject', source: 'group', subject: 'abc' });
    for (const bad of ['', 'items', '/things', '/items/', '/items/x/add', '/items/x/bogus', '/roles/x', '/items/a/b/c', '//'])
      expect(parseEventUri(bad).kind).toBe('invalid');
  });

  it('matches an outbox URI against the root, the verb, the subject and the exact path', () => {
    expect(matchingSubscriptions('/items/abc/update').sort()).toEqual(['/', '/items', '/items/abc', '/items/abc/update', '/items/update'].sort());
    expect(subscriptionMatches(['/items/update'], '/items/abc/update')).toBe(true);
    expect(subscriptionMatches(['/items/delete'], '/items/abc/update')).toBe(false);
    expect(subscriptionMatches(['/items/other'], '/items/abc/update')).toBe(false);
    expect(subscriptionMatches(['/groups'], '/items/abc/update')).toBe(false);
  });
});

describe('who may manage webhooks', () => {
  it('administrators of the organization; others 403; another organization 403; no token 499', async () => {
    expect((await svc.post(base, {}, tokens.admin)).webhooks).toBeDefined();
    for (const u of ['publisher1', 'user1', 'partner_admin']) {
      expect((await svc.post(base, {}, tokens[u])).error.code).toBe(403);
      expect((await create({}, tokens[u])).error.code).toBe(403);
      expect((await svc.post(`${base}/settings`, {}, tokens[u])).error.code).toBe(403);
    }
    expect((await svc.post(base, {})).error.code).toBe(499);
    // The partner organization's administrator manages only its own.
    expect((await svc.post(`portals/${svc.partnerOrgId}/webhooks`, {}, tokens.partner_admin)).total).toBe(0);
    expect((await svc.post(`portals/${svc.partnerOrgId}/webhooks`, {}, tokens.admin)).error.code).toBe(403);
  });

  it('a custom administrator role without manageWebhooks is refused', async () => {
    await svc.db.query(
      `INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, 'rNOHOOKSAAAAAAAA', 'No hooks', '', $2, false, 0, 0)`,
      [svc.orgId, ['portal:admin:viewUsers']],
    );
    await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = 'rNOHOOKSAAAAAAAA' WHERE username = 'publisher1'`);
    const token = await svc.tokenFor('publisher1');
    const res = await svc.post(base, {}, token);
    expect(res.error.code).toBe(403);
    expect(res.error.details[0]).toContain('portal:admin:manageWebhooks');
    await svc.db.query(`UPDATE roles SET privileges = $2 WHERE org_id = $1 AND id = 'rNOHOOKSAAAAAAAA'`, [svc.orgId, ['portal:admin:manageWebhooks']]);
    expect((await svc.post(base, {}, token)).total).toBeGreaterThanOrEqual(0);
    await svc.db.query(`UPDATE users SET role = 'org_publisher', role_id = NULL WHERE username = 'publisher1'`);
  });
});

describe('create, read, update', () => {
  it('allChanges stores "/" and shows the secret once', async () => {
    const res = await create({
      name: 'All',
      changes: 'allChanges',
      secret: 's3cret',
      config: JSON.stringify({ deactivationPolicy: { numberOfFailures: 3, daysInPast: 2 } }),
    });
    expect(res).toMatchObject({ success: true, secret: 's3cret' });
    const record = await svc.post(`${base}/${res.id}`, {}, tokens.admin);
    expect(record).toMatchObject({
      id: res.id,
      accountId: svc.orgId,
      name: 'All',
      payloadUrl: RECEIVER,
      secret: '********',
      isActive: true,
      config: { deactivationPolicy: { numberOfFailures: 3, daysInPast: 2 } },
      events: ['/'],
    });
    expect(record.ownerId).toBeTruthy();
    expect(typeof record.created).toBe('number');
    const none = await create({ name: 'No secret', events: '/items' });
    expect((await svc.post(`${base}/${none.id}`, {}, tokens.admin)).secret).toBe('');
  });

  it('manualChanges takes events as a comma list or a JSON array', async () => {
    const group = await svc.post('community/createGroup', { title: 'Hook target group' }, tokens.admin);
    const a = await create({ changes: 'manualChanges', events: `/items, /groups/${group.group.id}/update,/users/user1,/roles/add` });
    expect((await svc.post(`${base}/${a.id}`, {}, tokens.admin)).events).toEqual(['/items', `/groups/${group.group.id}/update`, '/users/user1', '/roles/add']);
    const b = await create({ events: JSON.stringify(['/groups/add', '/users/user1/updateUserRole']) });
    expect((await svc.post(`${base}/${b.id}`, {}, tokens.admin)).events).toEqual(['/groups/add', '/users/user1/updateUserRole']);
  });

  it('refuses bad or unknown event URIs, naming each', async () => {
    const res = await create({ events: '/items,/nothing,/items/0123456789abcdef0123456789abcdef,/users/nobody_here/update,/items/x/bogus' });
    expect(res.error.code).toBe(400);
    expect(res.error.details).toHaveLength(4);
    expect(res.error.details.join(' ')).toContain('/nothing');
    expect(res.error.details.join(' ')).toContain('0123456789abcdef0123456789abcdef');
    expect(res.error.details.join(' ')).toContain('nobody_here');
    expect(res.error.details.join(' ')).toContain('bogus');
    // A user of another organization does not exist here.
    expect((await create({ events: '/users/partner_admin' })).error.code).toBe(400);
    expect((await create({ changes: 'manualChanges' })).error.details[0]).toContain('events');
    expect((await create({ events: '[not json' })).error.code).toBe(400);
  });

  it('requires name and url; refuses a URL the outbound guard refuses', async () => {
    expect((await svc.post(`${base}/createWebhook`, { url: RECEIVER, events: '/' }, tokens.admin)).error.fieldErrors).toHaveProperty('name');
    expect((await svc.post(`${base}/createWebhook`, { name: 'x', events: '/' }, tokens.admin)).error.fieldErrors).toHaveProperty('url');
    expect((await create({ url: 'ftp://example.com/x', events: '/' })).error.fieldErrors).toHaveProperty('url');
    expect((await create({ url: 'not a url', events: '/' })).error.fieldErrors).toHaveProperty('url');
  });

  it('config: deactivationPolicy numbers are positive integers (1 ok, 0 and -1 and 1.5 refused)', async () => {
    const policy = (n: unknown, d: unknown) => JSON.stringify({ deactivationPolicy: { numberOfFailures: n, daysInPast: d } });
    expect((await create({ events: '/', config: policy(1, 1) })).success).toBe(true);
    expect((await create({ events: '/', config: policy('2', '3') })).success).toBe(true);
    for (const [n, d] of [
      [0, 1],
      [1, 0],
      [-1, 5],
      [1.5, 5],
      ['x', 5],
    ]) {
      const res = await create({ events: '/', config: policy(n, d) });
      expect(res.error?.code, `${n}/${d}`).toBe(400);
    }
    expect((await create({ events: '/', config: '{bad json' })).error.fieldErrors).toHaveProperty('config');
  });

  it('update: name, url and events required; secret kept unless sent; config kept unless sent', async () => {
    const { id } = await create({
      name: 'Before',
      events: '/items',
      secret: 'keep-me',
      config: JSON.stringify({ deactivationPolicy: { numberOfFailures: 4, daysInPast: 4 } }),
    });
    const path = `${base}/${id}/update`;
    for (const missing of ['name', 'url', 'events']) {
      const params: Record<string, string> = { name: 'After', url: RECEIVER, events: '/groups' };
      delete params[missing];
      expect((await svc.post(path, params, tokens.admin)).error.fieldErrors).toHaveProperty(missing);
    }
    expect(await svc.post(path, { name: 'After', url: 'http://127.0.0.1:9/other', events: '/groups,/roles', secret: '********' }, tokens.admin)).toEqual({
      success: true,
    });
    const after = await svc.post(`${base}/${id}`, {}, tokens.admin);
    expect(after).toMatchObject({
      name: 'After',
      payloadUrl: 'http://127.0.0.1:9/other',
      events: ['/groups', '/roles'],
      secret: '********',
      config: { deactivationPolicy: { numberOfFailures: 4, daysInPast: 4 } },
    });
    const [{ secret }] = await svc.db.query<{ secret: string }>('SELECT secret FROM webhooks WHERE id = $1', [id]);
    expect(secret).toBe('keep-me');
    await svc.post(path, { name: 'After', url: RECEIVER, events: '/groups', secret: '' }, tokens.admin);
    expect((await svc.post(`${base}/${id}`, {}, tokens.admin)).secret).toBe('');
    expect((await svc.post(path, { name: 'After', url: RECEIVER, events: '/nope' }, tokens.admin)).error.code).toBe(400);
    expect((await svc.post(`${base}/doesnotexist/update`, { name: 'x', url: RECEIVER, events: '/' }, tokens.admin)).error.code).toBe(404);
    expect((await svc.post(path, { name: 'x', url: RECEIVER, events: '/' }, tokens.partner_admin)).error.code).toBe(403);
  });

  it('deactivate, activate, delete; GET is refused for writes; unknown id 404', async () => {
    const { id } = await create({ events: '/' });
    expect(await svc.post(`${base}/${id}/deactivate`, {}, tokens.admin)).toEqual({ success: true });
    expect((await svc.post(`${base}/${id}`, {}, tokens.admin)).isActive).toBe(false);
    expect(await svc.post(`${base}/${id}/activate`, {}, tokens.admin)).toEqual({ success: true });
    expect((await svc.post(`${base}/${id}`, {}, tokens.admin)).isActive).toBe(true);
    const get = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${base}/${id}/delete?f=json&token=${tokens.admin}` });
    expect(get.json().error.code).toBe(405);
    // Through another organization's path, even its own administrator does not find it.
    expect((await svc.post(`portals/${svc.partnerOrgId}/webhooks/${id}`, {}, tokens.partner_admin)).error.code).toBe(404);
    expect((await svc.post(`portals/${svc.partnerOrgId}/webhooks/${id}/delete`, {}, tokens.partner_admin)).error.code).toBe(404);
    expect(await svc.post(`${base}/${id}/delete`, {}, tokens.admin)).toEqual({ success: true });
    expect((await svc.post(`${base}/${id}`, {}, tokens.admin)).error.code).toBe(404);
    expect((await svc.post(`${base}/${id}/delete`, {}, tokens.admin)).error.code).toBe(404);
  });
});

describe('list paging', () => {
  it('always carries total, start, num and nextStart', async () => {
    const all = await svc.post(base, { num: '100' }, tokens.admin);
    const total = all.total;
    expect(total).toBeGreaterThan(3);
    expect(all).toMatchObject({ start: 1, num: total, nextStart: -1 });
    const first = await svc.post(base, { start: '1', num: '2' }, tokens.admin);
    expect(first).toMatchObject({ total, start: 1, num: 2, nextStart: 3 });
    const last = await svc.post(base, { start: String(total), num: '2' }, tokens.admin);
    expect(last).toMatchObject({ total, start: total, num: 1, nextStart: -1 });
    expect(last.webhooks[0].id).toBe(all.webhooks[total - 1].id);
    const beyond = await svc.post(base, { start: String(total + 5) }, tokens.admin);
    expect(beyond).toMatchObject({ total, num: 0, nextStart: -1, webhooks: [] });
    expect((await svc.post(base, { start: '0' }, tokens.admin)).error.code).toBe(400);
    // The partner organization's list does not show these.
    expect((await svc.post(`portals/${svc.partnerOrgId}/webhooks`, {}, tokens.partner_admin)).webhooks).toEqual([]);
  });
});

describe('settings', () => {
  it('defaults 3 / 10 / 5', async () => {
    expect(await svc.post(`${base}/settings`, {}, tokens.partner_admin).catch(() => null)).toMatchObject({ error: { code: 403 } });
    expect(await svc.post(`portals/${svc.partnerOrgId}/webhooks/settings`, {}, tokens.partner_admin)).toEqual({
      notificationAttempts: 3,
      notificationTimeOutInSeconds: 10,
      notificationElapsedTimeInSeconds: 5,
    });
  });

  it('update takes each value at its limits and refuses one beyond; values not sent are kept', async () => {
    const update = (p: Record<string, string>) => svc.post(`${base}/settings/update`, p, tokens.admin);
    const cases: [string, number, number][] = [
      ['notificationAttempts', 0, 5],
      ['notificationTimeOutInSeconds', 1, 60],
      ['notificationElapsedTimeInSeconds', 1, 100],
    ];
    for (const [name, min, max] of cases) {
      expect(await update({ [name]: String(min) })).toEqual({ success: true });
      expect((await svc.post(`${base}/settings`, {}, tokens.admin))[name]).toBe(min);
      expect(await update({ [name]: String(max) })).toEqual({ success: true });
      expect((await svc.post(`${base}/settings`, {}, tokens.admin))[name]).toBe(max);
      expect((await update({ [name]: String(min - 1) })).error.fieldErrors).toHaveProperty(name);
      expect((await update({ [name]: String(max + 1) })).error.fieldErrors).toHaveProperty(name);
      expect((await update({ [name]: '2.5' })).error.fieldErrors).toHaveProperty(name);
    }
    await update({ notificationAttempts: '2' });
    expect(await svc.post(`${base}/settings`, {}, tokens.admin)).toEqual({
      notificationAttempts: 2,
      notificationTimeOutInSeconds: 60,
      notificationElapsedTimeInSeconds: 100,
    });
    expect((await svc.post(`${base}/settings/update`, { notificationAttempts: '1' }, tokens.user1)).error.code).toBe(403);
    // The other organization's settings did not move.
    expect((await svc.post(`portals/${svc.partnerOrgId}/webhooks/settings`, {}, tokens.partner_admin)).notificationAttempts).toBe(3);
  });
});
