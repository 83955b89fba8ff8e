/**
 * The wire audit (docs/wire-audit.md) pinned against the running local portal: each request is
 * sent the way the public ArcGIS REST documentation shows it — its parameter names, its encoding
 * (the documented multipart example included) — with Esri's own client, and each answer is held
 * to the fields the documentation lists. Former local spellings the portal still accepts are
 * pinned too, so an old console keeps working.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createItem, getItem } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWebhookDispatch } from '../../src/server/jobs/webhooks/dispatcher.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';
import { startService, type TestService } from '../support/service.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let publisher: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, publisher] = await signInDemo(portal, 'admin', 'publisher1');
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, unknown>, authentication = admin) => request(`${portal}/${path}`, { authentication, params });
const get = (path: string, params: Record<string, unknown> = {}, authentication = admin) =>
  request(`${portal}/${path}`, { authentication, params, httpMethod: 'GET' });

describe('Update User Role (portals/<orgId>/updateUserRole)', () => {
  const roleOf = async (username: string) => (await get(`community/users/${username}`)).role;

  it('takes the member as `user`, as the documentation example sends it, and answers {success}', async () => {
    const res = await post(`portals/${svc.orgId}/updateUserRole`, { user: 'publisher1', role: 'org_user' });
    expect(res).toMatchObject({ success: true });
    expect(await roleOf('publisher1')).toBe('org_user');
  });

  it('still accepts the former local name `username`', async () => {
    expect(await post(`portals/${svc.orgId}/updateUserRole`, { username: 'publisher1', role: 'org_publisher' })).toMatchObject({ success: true });
    expect(await roleOf('publisher1')).toBe('org_publisher');
  });

  it('names `user` when the member is missing, and changes nothing', async () => {
    const err = await rejection(post(`portals/${svc.orgId}/updateUserRole`, { role: 'org_user' }));
    expect(err.response.error.code).toBe(400);
    expect(err.response.error.fieldErrors).toEqual({ user: 'is required' });
    expect(await roleOf('publisher1')).toBe('org_publisher');
  });
});

describe('Create Role / Set Role Privileges / Role / Delete Role', () => {
  it('createRole answers {success, id}; setPrivileges takes a wrapped JSON object; the role reads back with the documented fields', async () => {
    const created = await post(`portals/${svc.orgId}/createRole`, { name: 'Audit role', description: 'Made by the wire audit' });
    expect(created).toMatchObject({ success: true, id: expect.any(String) });
    const roleId = created.id as string;
    // The documented example: privileges={"privileges": ["portal:user:createItem","portal:user:joinGroup"]}
    const set = await post(`portals/${svc.orgId}/roles/${roleId}/setPrivileges`, {
      privileges: JSON.stringify({ privileges: ['portal:user:createItem', 'portal:user:joinGroup'] }),
    });
    expect(set).toMatchObject({ success: true });
    const privileges = await get(`portals/${svc.orgId}/roles/${roleId}/privileges`);
    expect(privileges.privileges).toEqual(expect.arrayContaining(['portal:user:createItem', 'portal:user:joinGroup']));
    const role = await get(`portals/${svc.orgId}/roles/${roleId}`);
    expect(role).toMatchObject({
      id: roleId,
      name: 'Audit role',
      description: 'Made by the wire audit',
      created: expect.any(Number),
      modified: expect.any(Number),
    });
    expect(await post(`portals/${svc.orgId}/roles/${roleId}/delete`, {})).toMatchObject({ success: true });
  });
});

describe('Set User Default Settings / User Default Settings', () => {
  let groupId: string;
  beforeAll(async () => {
    groupId = (await post('community/createGroup', { title: 'Audit defaults group', access: 'org', tags: 'audit' })).group.id;
  });

  it('accepts the documented multipart request and reads back every documented field', async () => {
    const form = new FormData();
    form.append('role', 'org_publisher');
    form.append('userLicenseType', 'creatorUT');
    form.append('groups', JSON.stringify([groupId]));
    form.append('userType', 'arcgisonly');
    form.append('apps', '[]');
    form.append('appBundles', '[]');
    form.append('f', 'json');
    form.append('token', admin.token);
    // The token is bound to the referer rest-js sent when it was issued (client=referer).
    const res = await fetch(`${portal}/portals/${svc.orgId}/setUserDefaultSettings`, {
      method: 'POST',
      body: form,
      headers: { referer: '@esri/arcgis-rest-js' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });
    const stored = await get(`portals/${svc.orgId}/userDefaultSettings`);
    expect(stored).toMatchObject({ role: 'org_publisher', userLicenseType: 'creatorUT', groups: [groupId], userType: 'arcgisonly', apps: [], appBundles: [] });
  });

  it('accepts the same fields urlencoded (what rest-js sends) and clears them with userDefaultSettings/delete', async () => {
    expect(await post(`portals/${svc.orgId}/setUserDefaultSettings`, { role: 'org_user', groups: JSON.stringify([]) })).toMatchObject({ success: true });
    expect(await get(`portals/${svc.orgId}/userDefaultSettings`)).toMatchObject({ role: 'org_user', groups: [] });
    expect(await post(`portals/${svc.orgId}/userDefaultSettings/delete`, {})).toMatchObject({ success: true });
    const cleared = await get(`portals/${svc.orgId}/userDefaultSettings`);
    expect(cleared.role ?? null).toBeNull();
  });
});

describe('items: Set Content Status, relationships, User Item, Share', () => {
  let mapId: string;
  let serviceId: string;
  beforeAll(async () => {
    mapId = (await createItem({ item: { title: 'Audit map', type: 'Web Map', tags: ['audit'] }, text: '{}', authentication: publisher })).id;
    serviceId = (
      await createItem({
        item: { title: 'Audit service', type: 'Feature Service', url: 'https://example.com/arcgis/rest/services/Audit/FeatureServer', tags: ['audit'] },
        authentication: publisher,
      })
    ).id;
  });

  it('setContentStatus: status=deprecated answers {success, itemId}; the item carries contentStatus', async () => {
    expect(await post(`content/items/${mapId}/setContentStatus`, { status: 'deprecated', clearEmptyFields: false }, publisher)).toEqual({
      success: true,
      itemId: mapId,
    });
    expect((await getItem(mapId, { authentication: publisher })).contentStatus).toBe('deprecated');
  });

  it('setContentStatus: status=null (a documented value) removes the status', async () => {
    expect(await post(`content/items/${mapId}/setContentStatus`, { status: 'null' }, publisher)).toEqual({ success: true, itemId: mapId });
    expect((await getItem(mapId, { authentication: publisher })).contentStatus ?? null).toBeNull();
  });

  it('setContentStatus refuses an unknown status, naming the parameter', async () => {
    const err = await rejection(post(`content/items/${mapId}/setContentStatus`, { status: 'obsolete' }, publisher));
    expect(err.response.error.code).toBe(400);
    expect(Object.keys(err.response.error.fieldErrors ?? {})).toEqual(['status']);
  });

  it('addRelationship / relatedItems / deleteRelationship with the documented `relationshipTypes`', async () => {
    const rel = { originItemId: mapId, destinationItemId: serviceId, relationshipTypes: 'Map2Service' };
    expect(await post('content/users/publisher1/addRelationship', rel, publisher)).toMatchObject({ success: true });
    const related = await get(`content/items/${mapId}/relatedItems`, { relationshipTypes: 'Map2Service', direction: 'forward' }, publisher);
    expect(related.total).toBe(1);
    expect(related.relatedItems.map((i: { id: string }) => i.id)).toEqual([serviceId]);
    expect(await post('content/users/publisher1/deleteRelationship', rel, publisher)).toMatchObject({ success: true });
    expect((await get(`content/items/${mapId}/relatedItems`, { relationshipTypes: 'Map2Service', direction: 'forward' }, publisher)).total).toBe(0);
  });

  it('addRelationship without a type names `relationshipType`', async () => {
    const err = await rejection(post('content/users/publisher1/addRelationship', { originItemId: mapId, destinationItemId: serviceId }, publisher));
    expect(err.response.error.code).toBe(400);
    expect(err.response.error.fieldErrors).toHaveProperty('relationshipType');
  });

  it('the user item link answers {item, sharing: {access, groups}}', async () => {
    const link = await get(`content/users/publisher1/items/${mapId}`, {}, publisher);
    expect(link.item).toMatchObject({ id: mapId, owner: 'publisher1', title: 'Audit map', type: 'Web Map' });
    expect(link.sharing).toEqual(expect.objectContaining({ access: 'private', groups: [] }));
  });

  it('share as the owner takes everyone/org/groups and answers {notSharedWith, itemId}', async () => {
    expect(await post(`content/users/publisher1/items/${mapId}/share`, { everyone: false, org: true, groups: ' ' }, publisher)).toEqual({
      notSharedWith: [],
      itemId: mapId,
    });
    expect((await get(`content/users/publisher1/items/${mapId}`, {}, publisher)).sharing.access).toBe('org');
  });
});

describe('groups: Add Users to Group, Group Users List', () => {
  let groupId: string;
  beforeAll(async () => {
    groupId = (await post('community/createGroup', { title: 'Audit members group', access: 'org', tags: 'audit' })).group.id;
  });

  it('addUsers takes `users` (members) and `admins` (managers) and answers {notAdded}', async () => {
    const res = await post(`community/groups/${groupId}/addUsers`, { users: 'user1', admins: 'publisher1' });
    expect(res.notAdded).toEqual([]);
  });

  it('the documented path `userList` answers the owner and the members with their memberType', async () => {
    const list = await get(`community/groups/${groupId}/userList`, { sortField: 'username', sortOrder: 'asc', num: 25, start: 1 });
    expect(list).toMatchObject({ total: 3, start: 1, nextStart: -1, owner: { username: 'admin' } });
    expect(list.users.map((u: { username: string; memberType: string }) => [u.username, u.memberType])).toEqual([
      ['admin', 'owner'],
      ['publisher1', 'admin'],
      ['user1', 'member'],
    ]);
  });

  it('the lowercase `userlist` that rest-js searchGroupUsers asks for answers the same', async () => {
    const upper = await get(`community/groups/${groupId}/userList`);
    const lower = await get(`community/groups/${groupId}/userlist`);
    expect(lower).toEqual(upper);
  });
});

describe('webhooks: Create Webhook, webhooks, Notification Status', () => {
  let receiver: Server;
  let hookUrl: string;
  const received: string[] = [];
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.method === 'POST') received.push(body);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"success":"true"}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  let webhookId: string;

  it('createWebhook takes the documented example (name, url, secret="", config JSON, changes=allChanges)', async () => {
    const res = await post(`portals/${svc.orgId}/webhooks/createWebhook`, {
      name: 'Audit hook',
      url: hookUrl,
      secret: '',
      config: JSON.stringify({ deactivationPolicy: { numberOfFailures: 5, daysInPast: 5 } }),
      changes: 'allChanges',
    });
    expect(res).toMatchObject({ success: true });
    const list = await get(`portals/${svc.orgId}/webhooks`);
    const hook = list.webhooks.find((w: { name: string }) => w.name === 'Audit hook');
    // The documented record: id, accountId, payloadUrl, secret, isActive, name, config, ownerId, created, modified, events.
    expect(hook).toMatchObject({
      id: expect.any(String),
      accountId: svc.orgId,
      payloadUrl: hookUrl,
      secret: '',
      isActive: true,
      name: 'Audit hook',
      config: { deactivationPolicy: { numberOfFailures: 5, daysInPast: 5 } },
      ownerId: expect.any(String),
      created: expect.any(Number),
      modified: expect.any(Number),
      events: ['/'],
    });
    webhookId = hook.id;
  });

  it('notificationStatus answers the paging envelope and WebhookStatus entries with the documented fields', async () => {
    await post('community/createGroup', { title: 'Audit webhook trigger', access: 'private', tags: 'audit' });
    // Scaled out, an instance's own dispatcher may take the delivery before this process's pass
    // does, and the receiver then hears from it a little later: wait for it (at most 10 s).
    for (let i = 0; i < 100 && received.length === 0; i++) {
      await runWebhookDispatch(svc.app.portal);
      if (!received.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(received.length).toBeGreaterThan(0);
    // The receiver may have its request before the sender records the attempt (several instances
    // dispatch when scaled out): wait for the record, briefly.
    let status = await get(`portals/${svc.orgId}/webhooks/${webhookId}/notificationStatus`);
    for (let i = 0; i < 50 && !status.WebhookStatus?.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await get(`portals/${svc.orgId}/webhooks/${webhookId}/notificationStatus`);
    }
    expect(status).toMatchObject({ total: expect.any(Number), start: 1, num: expect.any(Number), nextStart: -1 });
    const entry = status.WebhookStatus[0];
    expect(entry).toMatchObject({ id: webhookId, isInvoked: true, responseText: '{"success":"true"}', invokedTimestamp: expect.anything() });
    expect(JSON.parse(entry.payload).info).toMatchObject({ webhookId, webhookName: 'Audit hook' });
  });
});

describe('Create Task / task', () => {
  it('takes the documented example fields and answers {success, taskId}; the task reads back with the documented record', async () => {
    const notebook = (await createItem({ item: { title: 'Audit notebook', type: 'Notebook', tags: ['audit'] }, text: '{}', authentication: admin })).id;
    const startDate = Date.now() + 86_400_000;
    const res = await post('community/users/admin/tasks/createTask', {
      title: 'OnceAnHour30Times',
      type: 'ExecuteNotebook',
      itemId: notebook,
      startDate,
      minute: '0',
      hour: '*',
      dayOfMonth: '*',
      month: '*',
      dayOfWeek: '?',
      maxOccurrences: 30,
    });
    expect(res).toMatchObject({ success: true, taskId: expect.any(String) });
    const task = await get(`community/users/admin/tasks/${res.taskId}`);
    expect(task).toMatchObject({
      id: res.taskId,
      itemId: notebook,
      type: 'ExecuteNotebook',
      title: 'OnceAnHour30Times',
      userId: 'admin',
      cronSchedule: { minute: '0', hour: '*', dayOfMonth: '*', month: '*', dayOfWeek: '?' },
      maxOccurrences: 30,
      startDate,
      active: true,
    });
    expect(task).toHaveProperty('created');
    expect(task).toHaveProperty('taskState');
  });

  it('the task list takes the documented sort fields, in any case (type, title, created, updated, nextRun)', async () => {
    for (const sortField of ['type', 'TITLE', 'created', 'updated', 'nextRun', 'nextrun']) {
      const page = await get('community/users/admin/tasks', { sortField, sortOrder: 'desc', start: 1, num: 10 });
      expect(page).toMatchObject({ start: 1, nextStart: -1, activeTasksAvailable: expect.any(Number) });
      expect(page.tasks.length).toBeGreaterThan(0);
    }
    const err = await rejection(get('community/users/admin/tasks', { sortField: 'owner' }));
    expect(err.response.error.code).toBe(400);
    expect(Object.keys(err.response.error.fieldErrors ?? {})).toEqual(['sortField']);
  });
});
