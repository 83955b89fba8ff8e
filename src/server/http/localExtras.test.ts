/**
 * LOCAL_EXTRAS (docs/local-extras.md): with the default (on) the local portal's extras are in its
 * answers and its local-only operations work; with LOCAL_EXTRAS=off every local-only operation
 * answers as a path with no operation does (400 GWM_0002 "Invalid URL", as ArcGIS does), every
 * declared extra is gone, and local-only parameters are ignored. The same fixtures run on both.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { withoutExtras } from './localExtras.ts';

interface Portal {
  svc: TestService;
  tokens: Record<string, string>;
  groupId: string;
  mapId: string;
  layerId: string;
  webhookId: string;
  taskId: string;
  collaborationId: string;
}

const word = () => `X${randomUUID().slice(0, 8)}`;

async function portalWith(localExtras: boolean): Promise<Portal> {
  const svc = await startService({ config: { localExtras } });
  const tokens: Record<string, string> = {};
  for (const u of ['admin', 'user1']) tokens[u] = await svc.tokenFor(u);
  const groupId = (await svc.post('community/createGroup', { title: word(), access: 'org' }, tokens.admin)).group.id;
  const mapId = (await svc.post('content/users/admin/addItem', { title: 'Map', type: 'Web Map', text: '{}' }, tokens.admin)).id;
  const layerId = (
    await svc.post('content/users/admin/addItem', { title: 'Layer', type: 'Feature Service', url: 'https://example.com/FeatureServer' }, tokens.admin)
  ).id;
  expect(
    await svc.post('content/users/admin/addRelationship', { originItemId: mapId, destinationItemId: layerId, relationshipType: 'Map2Service' }, tokens.admin),
  ).toEqual({ success: true });
  const hook = await svc.post(`portals/${svc.orgId}/webhooks/createWebhook`, { name: 'hook', url: 'http://127.0.0.1:9/hook', events: '/items' }, tokens.admin);
  expect(hook.success, JSON.stringify(hook)).toBe(true);
  const webhookId = hook.id;
  const task = await svc.post(
    'community/users/admin/tasks/createTask',
    {
      type: 'ExecuteReport',
      title: 'Members report',
      parameters: JSON.stringify({ reportType: 'members' }),
      minute: '30',
      hour: '7',
      dayOfMonth: '?',
      month: '*',
      dayOfWeek: '2-6',
    },
    tokens.admin,
  );
  expect(task.success).toBe(true);
  const collaborationId = (await svc.post(`portals/${svc.orgId}/collaborations`, {}, tokens.admin)).collaborations[0].id;
  return { svc, tokens, groupId, mapId, layerId, webhookId, taskId: task.taskId, collaborationId };
}

let on: Portal;
let off: Portal;

beforeAll(async () => {
  [on, off] = await Promise.all([portalWith(true), portalWith(false)]);
});
afterAll(async () => {
  await Promise.all([on?.svc.close(), off?.svc.close()]);
});

/** Every local-only operation, as a path under /sharing/rest, with parameters it would accept. */
const localOnly = (p: Portal): [string, Record<string, string>][] => {
  const org = p.svc.orgId;
  const c = `portals/${org}/collaborations`;
  return [
    [`portals/${org}/webhooks/${p.webhookId}/test`, {}],
    [`portals/${org}/webhooks/${p.webhookId}/notificationStatus/${randomUUID().replaceAll('-', '')}/redeliver`, {}],
    [`community/users/admin/tasks/${p.taskId}/run`, {}],
    [`community/users/user1/unlockSignIn`, {}],
    [`${c}/createCollaboration`, { name: word(), description: 'x' }],
    [`${c}/invitations`, {}],
    [`${c}/acceptInvitation`, { invitationId: 'a'.repeat(32) }],
    [`${c}/declineInvitation`, { invitationId: 'a'.repeat(32) }],
    [`${c}/participantCandidates`, { q: 'Partner' }],
    [`${c}/${p.collaborationId}/addWorkspace`, { name: word() }],
    [`${c}/${p.collaborationId}/inviteParticipant`, { participantPortalId: p.svc.partnerOrgId, workspaces: '{"x":"send"}' }],
    [`${c}/${p.collaborationId}/events`, {}],
    // Dependencies (docs/dependencies.md "On the local portal").
    [`content/items/${p.layerId}/dependents`, { transitive: 'true' }],
    [`content/items/${p.mapId}/dependencies`, {}],
    [`portals/${org}/dependencies`, { view: 'usedByMany', minDependents: '1' }],
    // Bulk member jobs (areas/memberJobs): started, listed, read; the job id need not exist to tell an operation from no path.
    [`portals/${org}/memberJobs/disableUsers`, { usernames: 'viewer1' }],
    [`portals/${org}/memberJobs`, {}],
    [`portals/${org}/memberJobs/${'b'.repeat(32)}/results`, {}],
    [`portals/${org}/memberJobs/${'b'.repeat(32)}/pause`, {}],
  ];
};

describe('local-only operations', () => {
  it('with LOCAL_EXTRAS=off each answers exactly as a path with no operation (GET and POST), and changes nothing', async () => {
    const unknown = await off.svc.post('portals/self/noSuchOperation', {}, off.tokens.admin);
    expect(unknown).toEqual({
      error: { code: 400, messageCode: 'GWM_0002', message: 'Invalid URL', details: ['No operation at /sharing/rest/portals/self/noSuchOperation.'] },
    });
    for (const [path, params] of localOnly(off)) {
      expect(await off.svc.post(path, params, off.tokens.admin), path).toEqual({
        error: { code: 400, messageCode: 'GWM_0002', message: 'Invalid URL', details: [`No operation at /sharing/rest/${path}.`] },
      });
      const viaGet = await off.svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?f=json&token=${off.tokens.admin}` });
      expect(viaGet.json().error, path).toMatchObject({ code: 400, messageCode: 'GWM_0002' });
    }
    // createCollaboration did not create anything; no run was queued.
    expect((await off.svc.post(`portals/${off.svc.orgId}/collaborations`, {}, off.tokens.admin)).total).toBe(1);
    expect(await off.svc.db.query('SELECT count(*)::int AS n FROM task_runs')).toEqual([{ n: 0 }]);
    expect(await off.svc.db.query('SELECT count(*)::int AS n FROM member_jobs')).toEqual([{ n: 0 }]);
  });

  it('with the default (on) each is an operation: none answers GWM_0002', async () => {
    for (const [path, params] of localOnly(on)) {
      const body = await on.svc.post(path, params, on.tokens.admin);
      expect(body.error?.messageCode, `${path}: ${JSON.stringify(body)}`).not.toBe('GWM_0002');
    }
    expect((await on.svc.post(`community/users/admin/tasks/${on.taskId}/run`, {}, on.tokens.admin)).success).toBe(true);
    // The relationship made above is an edge of the dependency answers.
    const dependents = await on.svc.post(`content/items/${on.layerId}/dependents`, {}, on.tokens.admin);
    expect(dependents.items.map((n: { id: string }) => n.id)).toEqual([on.mapId]);
  });
});

describe('extras in answers', () => {
  /** The same request on both portals: the answers on (extras present) and off (extras absent). */
  async function both(path: (p: Portal) => string, params: (p: Portal) => Record<string, string> = () => ({}), as = 'admin') {
    const [a, b] = await Promise.all([on, off].map((p) => p.svc.post(path(p), params(p), p.tokens[as])));
    return { on: a, off: b };
  }

  it('portals/self: the marker, memberCount and maxExternalMembersPerGroup; the public fields stay', async () => {
    const r = await both(() => 'portals/self');
    expect(r.on).toMatchObject({ localExtras: true, memberCount: expect.any(Number), maxExternalMembersPerGroup: expect.any(Number) });
    for (const f of ['localExtras', 'memberCount', 'maxExternalMembersPerGroup']) expect(r.off).not.toHaveProperty(f);
    expect(r.off).toMatchObject({ id: off.svc.orgId, name: expect.any(String), isVerified: false, user: expect.objectContaining({ username: 'admin' }) });
  });

  it('roles and groups without memberCount (or builtIn); addUsers without notAddedReasons but with notAdded', async () => {
    const roles = await both(() => 'portals/self/roles');
    expect(roles.on.roles[0]).toHaveProperty('memberCount');
    expect(roles.on.roles.some((x: any) => x.builtIn === true)).toBe(true);
    for (const role of roles.off.roles) {
      expect(role).not.toHaveProperty('memberCount');
      expect(role).not.toHaveProperty('builtIn');
    }
    const search = await both(
      () => 'community/groups',
      () => ({ q: '*' }),
    );
    expect(search.on.results[0]).toHaveProperty('memberCount');
    expect(search.off.results.length).toBeGreaterThan(0);
    for (const g of search.off.results) expect(g).not.toHaveProperty('memberCount');
    const one = await both((p) => `community/groups/${p.groupId}`);
    expect(one.on.memberCount).toBe(1);
    expect(one.off).not.toHaveProperty('memberCount');
    expect(one.off.id).toBe(off.groupId);
    const created = await both(
      () => 'community/createGroup',
      () => ({ title: word(), access: 'org' }),
    );
    expect(created.on.group).toHaveProperty('memberCount');
    expect(created.off.group).not.toHaveProperty('memberCount');
    const add = await both(
      (p) => `community/groups/${p.groupId}/addUsers`,
      () => ({ users: 'nobody_here,user1' }),
    );
    expect(add.on).toEqual({ notAdded: ['nobody_here'], notAddedReasons: [{ username: 'nobody_here', reason: expect.any(String) }] });
    expect(add.off).toEqual({ notAdded: ['nobody_here'] });
  });

  it('related items without relationshipTypes; the owner’s item view without infoFiles', async () => {
    const rel = await both(
      (p) => `content/items/${p.mapId}/relatedItems`,
      () => ({ relationshipType: 'Map2Service', direction: 'forward' }),
    );
    expect(rel.on.relatedItems).toEqual([expect.objectContaining({ relationshipTypes: ['Map2Service'] })]);
    expect(rel.off.relatedItems).toEqual([expect.objectContaining({ id: off.layerId })]);
    expect(rel.off.relatedItems[0]).not.toHaveProperty('relationshipTypes');
    const view = await both((p) => `content/users/admin/items/${p.mapId}`);
    expect(view.on.infoFiles).toEqual([]);
    expect(view.off).not.toHaveProperty('infoFiles');
    expect(view.off).toMatchObject({ item: { id: off.mapId }, sharing: { access: 'private' } });
  });

  it('webhooks without the delivery summary and deactivation reason', async () => {
    await Promise.all([on, off].map((p) => p.svc.post(`portals/${p.svc.orgId}/webhooks/${p.webhookId}/deactivate`, {}, p.tokens.admin)));
    const list = await both(
      (p) => `portals/${p.svc.orgId}/webhooks`,
      () => ({ num: '100' }),
    );
    const mine = (a: any, p: Portal) => a.webhooks.find((w: any) => w.id === p.webhookId);
    expect(mine(list.on, on)).toMatchObject({
      lastDelivery: null,
      recentFailures: 0,
      deactivationReason: expect.any(String),
      deactivatedAt: expect.any(Number),
    });
    const w = mine(list.off, off);
    expect(w).toMatchObject({ id: off.webhookId, isActive: false, payloadUrl: 'http://127.0.0.1:9/hook', events: ['/items'] });
    for (const f of ['lastDelivery', 'recentFailures', 'deactivationReason', 'deactivatedAt']) expect(w).not.toHaveProperty(f);
    const one = await both((p) => `portals/${p.svc.orgId}/webhooks/${p.webhookId}`);
    expect(one.on.deactivationReason).toEqual(expect.any(String));
    expect(one.off).not.toHaveProperty('deactivationReason');
    expect(one.off).not.toHaveProperty('deactivatedAt');
  });

  it('service webhooks without the federated server id', async () => {
    const list = await both((p) => `portals/${p.svc.orgId}/webhooks/listServiceWebhooks`);
    expect(list.on.webhooks.length).toBeGreaterThan(0);
    expect(list.on.webhooks[0].serverId).toEqual(expect.any(String));
    expect(list.off.webhooks.length).toBe(list.on.webhooks.length);
    for (const w of list.off.webhooks) expect(w).not.toHaveProperty('serverId');
    expect(list.off.webhooks[0]).toMatchObject({ name: expect.any(String), hookUrl: expect.any(String) });
  });

  it('tasks without nextRun', async () => {
    const list = await both(() => 'community/users/admin/tasks');
    expect(list.on.tasks[0].nextRun).toEqual(expect.any(Number));
    expect(list.off.tasks[0]).not.toHaveProperty('nextRun');
    expect(list.off.tasks[0]).toMatchObject({ id: off.taskId, type: 'ExecuteReport' });
    const one = await both((p) => `community/users/admin/tasks/${p.taskId}`);
    expect(one.on).toHaveProperty('nextRun');
    expect(one.off).not.toHaveProperty('nextRun');
  });

  it('collaborations without the caller’s role, the host’s name, counts and link details', async () => {
    const list = await both((p) => `portals/${p.svc.orgId}/collaborations`);
    expect(list.on.collaborations[0]).toMatchObject({ collaborationRole: 'Host', activeParticipants: 2, workspaceCount: expect.any(Number) });
    const c = list.off.collaborations[0];
    expect(c).toMatchObject({ id: off.collaborationId, collaborationHostPortalId: off.svc.orgId });
    for (const f of ['collaborationRole', 'hostPortalName', 'activeParticipants', 'workspaceCount']) expect(c).not.toHaveProperty(f);
    const participants = await both((p) => `portals/${p.svc.orgId}/collaborations/${p.collaborationId}/participants`);
    expect(participants.on.participants[0]).toHaveProperty('workspaces');
    expect(participants.off.participants.map((x: any) => x.portalInfo.id)).toEqual([off.svc.orgId, off.svc.partnerOrgId]);
    expect(participants.off.participants[0]).not.toHaveProperty('workspaces');
    const workspaces = await both((p) => `portals/${p.svc.orgId}/collaborations/${p.collaborationId}/workspaces`);
    expect(workspaces.on.workspaces[0]).toHaveProperty('participants');
    expect(workspaces.off.workspaces[0]).not.toHaveProperty('participants');
  });

  it('a CONT_0291 refusal keeps the public detail without reason/reasons; a bad parameter keeps message and details without fieldErrors', async () => {
    const refused = await both(
      (p) => `content/users/admin/items/${p.mapId}/reassign`,
      () => ({ targetUsername: 'viewer1' }),
    );
    expect(refused.on.error.details[0]).toMatchObject({ itemId: on.mapId, owner: 'admin', reason: expect.any(String), reasons: expect.any(Array) });
    expect(refused.off.error).toMatchObject({
      code: 403,
      messageCode: 'CONT_0291',
      details: [{ itemId: off.mapId, type: 'Web Map', url: null, reservedTypeKeywords: [], owner: 'admin' }],
    });
    expect(refused.off.error.details[0]).not.toHaveProperty('reason');
    expect(refused.off.error.details[0]).not.toHaveProperty('reasons');
    const bulk = await both(
      () => 'content/users/admin/reassignItems',
      (p) => ({ items: p.mapId, targetUsername: 'viewer1' }),
    );
    expect(bulk.on.results[0].error.details[0]).toHaveProperty('reasons');
    expect(bulk.off.results[0]).toMatchObject({ itemId: off.mapId, success: false, error: { messageCode: 'CONT_0291' } });
    expect(bulk.off.results[0].error.details[0]).not.toHaveProperty('reasons');
    const bad = await both(
      () => 'community/createGroup',
      () => ({ access: 'org' }),
    );
    expect(bad.on.error.fieldErrors).toHaveProperty('title');
    expect(bad.off.error).toMatchObject({ code: 400, message: 'Invalid or missing input parameters.', details: [expect.stringContaining("'title'")] });
    expect(bad.off.error).not.toHaveProperty('fieldErrors');
  });

  it('a reassigned item’s answer without tasksDeactivated', async () => {
    const moved = await both(
      (p) => `content/users/admin/items/${p.layerId}/reassign`,
      () => ({ targetUsername: 'publisher1' }),
    );
    expect(moved.on).toMatchObject({ success: true, tasksDeactivated: 0 });
    expect(moved.off).toEqual({ success: true, itemId: off.layerId });
  });
});

describe('local-only parameters', () => {
  it('with LOCAL_EXTRAS=off isVerified and maxExternalMembersPerGroup on portals/update are ignored as unknown parameters', async () => {
    const before = await off.svc.db.query<{ is_verified: boolean; settings: unknown }>('SELECT is_verified, settings FROM organizations WHERE id = $1', [
      off.svc.orgId,
    ]);
    expect(
      await off.svc.post('portals/self/update', { isVerified: 'true', maxExternalMembersPerGroup: '3', description: 'changed' }, off.tokens.admin),
    ).toEqual({ success: true });
    const after = await off.svc.db.query<{ is_verified: boolean; settings: unknown; description: string }>(
      'SELECT is_verified, settings, description FROM organizations WHERE id = $1',
      [off.svc.orgId],
    );
    expect(after[0]).toMatchObject({ ...before[0], description: 'changed' });
    // A bad value is not even read: a real portal does not know the parameter.
    expect(await off.svc.post('portals/self/update', { maxExternalMembersPerGroup: 'lots' }, off.tokens.admin)).toEqual({ success: true });
  });

  it('with the default (on) they are read', async () => {
    expect(await on.svc.post('portals/self/update', { maxExternalMembersPerGroup: '3' }, on.tokens.admin)).toEqual({ success: true });
    expect((await on.svc.post('portals/self', {}, on.tokens.admin)).maxExternalMembersPerGroup).toBe(3);
    expect((await on.svc.post('portals/self/update', { maxExternalMembersPerGroup: 'lots' }, on.tokens.admin)).error.fieldErrors).toHaveProperty(
      'maxExternalMembersPerGroup',
    );
  });
});

describe('withoutExtras', () => {
  it('removes dotted paths through arrays, leaves other values and the input untouched', () => {
    const input = { a: 1, list: [{ x: 1, y: 2 }, 'text', null], error: { details: ['s', { reason: 'r', itemId: 'i' }] } };
    expect(withoutExtras(input, ['list.y', 'error.details.reason', 'missing.path'])).toEqual({
      a: 1,
      list: [{ x: 1 }, 'text', null],
      error: { details: ['s', { itemId: 'i' }] },
    });
    expect(input.list[0]).toEqual({ x: 1, y: 2 });
    expect(withoutExtras(input, [])).toBe(input);
  });
});
