/**
 * The console's API module sends the names the public documentation gives (docs/wire-audit.md):
 * every request here goes to the real service while a recorder keeps what went over the wire.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startClientService, type ClientTestService } from '../test/service.ts';
import {
  addRelationship,
  canReassignItems,
  configureApi,
  createGroup,
  createRole,
  createUser,
  createWebhook,
  deleteRelationship,
  deleteRole,
  getGroupUserlist,
  getItem,
  getRelatedItems,
  getRolePrivileges,
  getUser,
  getUserDefaultSettings,
  normalizeAttempt,
  request,
  setContentStatus,
  setRolePrivileges,
  setUserDefaultSettings,
  updateUserRole,
} from './index.ts';

interface Sent {
  method: string;
  path: string;
  params: Record<string, string>;
}

let svc: ClientTestService;
let adminToken: string;
let publisherToken: string;
const sent: Sent[] = [];
const realFetch = globalThis.fetch;

/** What the console sent to one operation (the last such request). */
function sentTo(pathEnd: string): Sent {
  const hit = [...sent].reverse().find((s) => s.path.endsWith(pathEnd));
  if (!hit) throw new Error(`nothing was sent to …${pathEnd}; sent: ${sent.map((s) => s.path).join(', ')}`);
  return hit;
}

beforeAll(async () => {
  svc = await startClientService();
  [adminToken, publisherToken] = (await Promise.all([svc.tokenFor('admin'), svc.tokenFor('publisher1')])).map((t) => t.token);
});
afterAll(() => svc?.close());

beforeEach(() => {
  configureApi({ portalUrl: svc.restUrl, token: adminToken });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input);
      const params = init.body ? new URLSearchParams(String(init.body)) : url.searchParams;
      sent.push({ method: init.method ?? 'GET', path: url.pathname, params: Object.fromEntries(params) });
      return realFetch(input, init);
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  sent.length = 0;
});

async function publisherItem(title: string, type: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await request<{ id: string }>(
    'content/users/publisher1/addItem',
    { title, type, ...extra },
    { method: 'POST', token: publisherToken, portalUrl: svc.restUrl },
  );
  return res.id;
}

describe('members and roles', () => {
  it('updateUserRole sends the member as `user` (not `username`) and the role changes', async () => {
    await expect(updateUserRole(svc.orgId, { username: 'user1', role: 'org_publisher' })).resolves.toMatchObject({ success: true });
    const s = sentTo('/updateUserRole');
    expect(s.method).toBe('POST');
    expect(s.params).toMatchObject({ user: 'user1', role: 'org_publisher' });
    expect(s.params).not.toHaveProperty('username');
    expect((await getUser('user1')).role).toBe('org_publisher');
    await updateUserRole(svc.orgId, { username: 'user1', role: 'org_user' });
    expect((await getUser('user1')).role).toBe('org_user');
  });

  it('setRolePrivileges sends the wrapped JSON object of the documented example', async () => {
    const { id } = await createRole(svc.orgId, { name: 'Console audit role' });
    expect(sentTo('/createRole').params).toMatchObject({ name: 'Console audit role' });
    await setRolePrivileges(svc.orgId, id, ['portal:user:createItem', 'portal:user:joinGroup']);
    expect(JSON.parse(sentTo('/setPrivileges').params.privileges)).toEqual({ privileges: ['portal:user:createItem', 'portal:user:joinGroup'] });
    expect((await getRolePrivileges(svc.orgId, id)).privileges).toEqual(expect.arrayContaining(['portal:user:createItem', 'portal:user:joinGroup']));
    await deleteRole(svc.orgId, id);
  });

  it('setUserDefaultSettings sends groups as JSON array text, as documented', async () => {
    const { group } = await createGroup({ title: 'Console audit defaults', access: 'org' });
    await setUserDefaultSettings(svc.orgId, { role: 'org_user', userLicenseType: 'creatorUT', groups: [group.id], userType: 'arcgisonly' });
    const s = sentTo('/setUserDefaultSettings');
    expect(s.params).toMatchObject({ role: 'org_user', userLicenseType: 'creatorUT', userType: 'arcgisonly' });
    expect(JSON.parse(s.params.groups)).toEqual([group.id]);
    expect(await getUserDefaultSettings(svc.orgId)).toMatchObject({ role: 'org_user', groups: [group.id] });
  });
});

describe('items', () => {
  let mapId: string;
  let serviceId: string;
  beforeAll(async () => {
    mapId = await publisherItem('Console audit map', 'Web Map', { text: '{}' });
    serviceId = await publisherItem('Console audit service', 'Feature Service', { url: 'https://example.com/arcgis/rest/services/A/FeatureServer' });
  });
  beforeEach(() => configureApi({ portalUrl: svc.restUrl, token: publisherToken }));

  it('setContentStatus(null) sends the documented status=null, and the status goes', async () => {
    await setContentStatus(mapId, 'deprecated');
    expect(sentTo('/setContentStatus').params).toMatchObject({ status: 'deprecated' });
    expect((await getItem(mapId)).contentStatus).toBe('deprecated');
    await expect(setContentStatus(mapId, null)).resolves.toMatchObject({ success: true, itemId: mapId });
    expect(sentTo('/setContentStatus').params).toMatchObject({ status: 'null' });
    expect((await getItem(mapId)).contentStatus ?? null).toBeNull();
  });

  it('addRelationship and deleteRelationship send `relationshipTypes`', async () => {
    const rel = { originItemId: mapId, destinationItemId: serviceId, relationshipType: 'Map2Service' };
    await addRelationship('publisher1', rel);
    const added = sentTo('/addRelationship').params;
    expect(added).toMatchObject({ originItemId: mapId, destinationItemId: serviceId, relationshipTypes: 'Map2Service' });
    expect(added).not.toHaveProperty('relationshipType');
    expect((await getRelatedItems(mapId, ['Map2Service'], 'forward')).relatedItems.map((i) => i.id)).toEqual([serviceId]);
    expect(sentTo('/relatedItems').params).toMatchObject({ relationshipTypes: 'Map2Service', direction: 'forward' });
    await deleteRelationship('publisher1', rel);
    expect(sentTo('/deleteRelationship').params).toMatchObject({ relationshipTypes: 'Map2Service' });
    expect((await getRelatedItems(mapId, ['Map2Service'], 'forward')).relatedItems).toEqual([]);
  });

  it('canReassignItems sends items (a comma list) and targetUsername', async () => {
    configureApi({ portalUrl: svc.restUrl, token: adminToken });
    const res = await canReassignItems('publisher1', [mapId, serviceId], 'admin');
    expect(sentTo('/canReassignItems').params).toMatchObject({ items: `${mapId},${serviceId}`, targetUsername: 'admin' });
    expect(res.results.map((r) => [r.itemId, r.success])).toEqual([
      [mapId, true],
      [serviceId, true],
    ]);
  });
});

describe('groups and webhooks', () => {
  it('getGroupUserlist asks for the documented userList', async () => {
    const { group } = await createGroup({ title: 'Console audit members', access: 'org' });
    const list = await getGroupUserlist(group.id);
    expect(sentTo('/userList').method).toBe('GET');
    expect(list.owner.username).toBe('admin');
  });

  it('createWebhook sends name, url, config as JSON text and changes=allChanges for every event', async () => {
    const res = await createWebhook(svc.orgId, {
      name: 'Console audit hook',
      url: 'http://127.0.0.1:9/hook',
      events: ['/'],
      config: { deactivationPolicy: { numberOfFailures: 5, daysInPast: 5 } },
    });
    expect(res.success).toBe(true);
    const s = sentTo('/createWebhook').params;
    expect(s).toMatchObject({ name: 'Console audit hook', url: 'http://127.0.0.1:9/hook', changes: 'allChanges' });
    expect(s).not.toHaveProperty('events');
    expect(JSON.parse(s.config)).toEqual({ deactivationPolicy: { numberOfFailures: 5, daysInPast: 5 } });
  });
});

describe('answers of other portals', () => {
  it('createUser answered with the documented {status:"success"} alone still names the new member', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ status: 'success' }), { status: 200, headers: { 'Content-Type': 'application/json' } })),
    );
    await expect(createUser({ username: 'elsewhere1', password: 'Good.Pass.42', email: 'e@example.com' })).resolves.toEqual({
      status: 'success',
      username: 'elsewhere1',
    });
  });

  it('createWebhook answered with the documented {success} alone finds the new webhook by name', async () => {
    const answers = [
      { success: true },
      {
        total: 1,
        start: 1,
        num: 1,
        nextStart: -1,
        webhooks: [
          { id: 'other', name: 'Other' },
          { id: 'h-new', name: 'Elsewhere hook' },
        ],
      },
    ];
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(new URL(url).pathname);
        return new Response(JSON.stringify(answers.shift()), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    await expect(
      createWebhook(svc.orgId, { name: 'Elsewhere hook', url: 'https://receiver.example/hook', secret: 's3cret', events: ['/items'] }),
    ).resolves.toEqual({
      success: true,
      id: 'h-new',
      name: 'Elsewhere hook',
      secret: 's3cret',
    });
    expect(calls.map((p) => p.split('/').pop())).toEqual(['createWebhook', 'webhooks']);
  });

  it('createUser on this portal answers the username it stored', async () => {
    await expect(
      createUser({ username: 'audit_member', password: 'Good.Pass.42', email: 'audit@example.com', firstname: 'Audit', lastname: 'Member' }),
    ).resolves.toEqual({ status: 'success', username: 'audit_member' });
    const s = sentTo('/createUser');
    expect(s.path).toMatch(/\/portaladmin\/security\/users\/createUser$/);
    expect(s.params).toMatchObject({ username: 'audit_member', firstname: 'Audit', lastname: 'Member', email: 'audit@example.com' });
  });

  it('a notificationStatus entry with only the documented fields reads as a finished attempt', () => {
    const a = normalizeAttempt(
      {
        id: '7c001f61f51e440baa81ab0616dc4143',
        isInvoked: true,
        invokedTimestamp: '2019-01-23 14:26:44.644' as unknown as number,
        responseText: '{"success":"true"}',
        payload: '{"info":{}}',
      },
      0,
    );
    expect(a).toMatchObject({
      id: '7c001f61f51e440baa81ab0616dc4143',
      invokedTimestamp: Date.UTC(2019, 0, 23, 14, 26, 44, 644),
      responseBody: '{"success":"true"}',
      success: true,
      deliveryState: 'delivered',
      requestHeaders: {},
      attempt: 1,
    });
    expect(a.deliveryId).toBe('7c001f61f51e440baa81ab0616dc4143-0');
  });

  it('an entry that was not invoked reads as failed; this portal’s own fields are kept', () => {
    expect(normalizeAttempt({ id: 'w', isInvoked: false, invokedTimestamp: 5, responseText: '', payload: '' }, 3)).toMatchObject({
      success: false,
      deliveryState: 'failed',
      invokedTimestamp: 5,
    });
    const local = normalizeAttempt(
      {
        id: 'w',
        isInvoked: true,
        responseText: 'x',
        deliveryId: 'd1',
        attempt: 2,
        success: false,
        deliveryState: 'pending',
        responseStatus: 500,
        responseBody: 'x',
        invokedTimestamp: 9,
        payload: '',
      },
      0,
    );
    expect(local).toMatchObject({ deliveryId: 'd1', attempt: 2, success: false, deliveryState: 'pending', responseStatus: 500 });
  });
});
