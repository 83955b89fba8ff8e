/**
 * Every operation of the service leaves its event in the organization's history, with the values
 * before and after the change (docs/history.md), read back through portals/<orgId>/history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import type { HistoryEvent } from '../../../shared/contract/history.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

/** The newest events about one target (all types). */
async function historyOf(id: string, num = 5): Promise<HistoryEvent[]> {
  const body = await svc.post(`portals/${svc.orgId}/history`, { id, num: String(num) }, tokens.admin);
  expect(body.error).toBeUndefined();
  return body.items;
}
const latest = async (id: string) => (await historyOf(id, 1))[0];

async function addItem(title: string, user = 'publisher1', folder?: string): Promise<string> {
  const body = await svc.post(`content/users/${user}${folder ? `/${folder}` : ''}/addItem`, { title, type: 'Web Map', text: '{}' }, tokens[user]);
  expect(body.success).toBe(true);
  return body.id;
}

const JSON_SECRETS = /secret-value-123|Sup3rSecretPass|abcSIGNATUREkey/;

describe('items', () => {
  it('addItem: add, with owner and title', async () => {
    const id = await addItem('Parcels');
    expect(await latest(id)).toMatchObject({
      id,
      idType: 'i',
      action: 'add',
      operation: 'addItem',
      actor: 'publisher1',
      owner: 'publisher1',
      title: 'Parcels',
      orgId: svc.orgId,
      data: { after: { title: 'Parcels', type: 'Web Map' } },
    });
  });

  it('update: the changed fields before and after, never the service password', async () => {
    const id = await addItem('Roads');
    await svc.post(
      `content/users/publisher1/items/${id}/update`,
      { title: 'Roads 2025', snippet: 'All roads', serviceUsername: 'svc', servicePassword: 'Sup3rSecretPass' },
      tokens.publisher1,
    );
    const e = await latest(id);
    expect(e).toMatchObject({
      action: 'update',
      operation: 'updateItem',
      title: 'Roads 2025',
      data: { before: { title: 'Roads', snippet: null }, after: { title: 'Roads 2025', snippet: 'All roads' }, serviceCredentials: 'changed' },
    });
    expect(JSON.stringify(e)).not.toMatch(JSON_SECRETS);
  });

  it('share and unshare: the whole sharing before and after', async () => {
    const id = await addItem('Parks');
    const group = (await svc.post('community/createGroup', { title: 'History share group', access: 'org' }, tokens.publisher1)).group.id;
    await svc.post(`content/users/publisher1/items/${id}/share`, { org: 'true', groups: group }, tokens.publisher1);
    const shared = await latest(id);
    expect(shared).toMatchObject({
      action: 'share',
      operation: 'shareItem',
      data: { before: { access: 'private', groups: [] }, after: { access: 'org', groups: [group] } },
    });
    await svc.post(`content/users/publisher1/items/${id}/unshare`, { groups: group }, tokens.publisher1);
    expect(await latest(id)).toMatchObject({
      action: 'unshare',
      operation: 'unshareItem',
      data: { before: { access: 'org', groups: [group] }, after: { access: 'org', groups: [] } },
    });
    // The group's own history names the item.
    expect((await historyOf(group, 1))[0]).toMatchObject({ idType: 'g', action: 'unshare', data: { items: [{ itemId: id, title: 'Parks' }] } });
  });

  it('move: the folder before and after', async () => {
    const folder = (await svc.post('content/users/publisher1/createFolder', { title: 'History A' }, tokens.publisher1)).folder.id;
    const id = await addItem('Lakes');
    await svc.post(`content/users/publisher1/items/${id}/move`, { folder }, tokens.publisher1);
    expect(await latest(id)).toMatchObject({
      action: 'update',
      operation: 'moveItem',
      data: { before: { ownerFolder: null, folderName: null }, after: { ownerFolder: folder, folderName: 'History A' } },
    });
  });

  it('reassign: the previous owner and folder (what undo needs), and the new ones', async () => {
    const folder = (await svc.post('content/users/publisher1/createFolder', { title: 'Cadastre' }, tokens.publisher1)).folder.id;
    const id = await addItem('Cadastre parcels', 'publisher1', folder);
    const r = await svc.post(`content/users/publisher1/items/${id}/reassign`, { targetUsername: 'admin', targetFolderName: 'Taken over' }, tokens.admin);
    expect(r.success).toBe(true);
    const e = await latest(id);
    expect(e).toMatchObject({ action: 'update', operation: 'reassignItem', actor: 'admin', owner: 'admin', title: 'Cadastre parcels' });
    expect(e.data.before).toEqual({ owner: 'publisher1', ownerFolder: folder, folderName: 'Cadastre' });
    expect(e.data.after).toMatchObject({ owner: 'admin', folderName: 'Taken over', ownerFolder: expect.any(String) });
  });

  it('content status: the previous status', async () => {
    const id = await addItem('Status item');
    await svc.post(`content/items/${id}/setContentStatus`, { status: 'deprecated' }, tokens.publisher1);
    expect(await latest(id)).toMatchObject({
      action: 'update',
      operation: 'setContentStatus',
      data: { before: { contentStatus: '' }, after: { contentStatus: 'deprecated' } },
    });
    await svc.post(`content/items/${id}/setContentStatus`, { status: 'org_authoritative' }, tokens.admin);
    expect(await latest(id)).toMatchObject({
      actor: 'admin',
      data: { before: { contentStatus: 'deprecated' }, after: { contentStatus: 'org_authoritative' } },
    });
  });

  it('protect, relationships (add and delete) and delete', async () => {
    const map = await addItem('Rel map');
    const layer = (await svc.post('content/users/publisher1/addItem', { title: 'Rel layer', type: 'Feature Service' }, tokens.publisher1)).id;
    await svc.post(`content/users/publisher1/items/${map}/protect`, {}, tokens.publisher1);
    expect(await latest(map)).toMatchObject({ operation: 'protectItem', data: { before: { protected: false }, after: { protected: true } } });
    await svc.post(`content/users/publisher1/items/${map}/unprotect`, {}, tokens.publisher1);
    const rel = { originItemId: map, destinationItemId: layer, relationshipType: 'Map2Service' };
    expect(await svc.post('content/users/publisher1/addRelationship', rel, tokens.publisher1)).toEqual({ success: true });
    expect(await latest(map)).toMatchObject({ idType: 'i', action: 'update', operation: 'addRelationship', title: 'Rel map', data: { after: rel } });
    expect(await svc.post('content/users/publisher1/deleteRelationship', rel, tokens.publisher1)).toEqual({ success: true });
    expect(await latest(map)).toMatchObject({ operation: 'deleteRelationship', data: { before: rel } });
    await svc.post(`content/users/publisher1/items/${map}/delete`, {}, tokens.publisher1);
    expect(await latest(map)).toMatchObject({ action: 'delete', operation: 'deleteItem', data: { before: { title: 'Rel map', owner: 'publisher1' } } });
  });
});

describe('groups', () => {
  it('create, update, add users (the usernames), update users, remove users, delete', async () => {
    const created = await svc.post('community/createGroup', { title: 'History group', access: 'private' }, tokens.admin);
    const gid = created.group.id;
    expect(await latest(gid)).toMatchObject({ idType: 'g', action: 'create', operation: 'createGroup', owner: 'admin', title: 'History group' });
    await svc.post(`community/groups/${gid}/update`, { title: 'History group 2', access: 'org' }, tokens.admin);
    expect(await latest(gid)).toMatchObject({
      action: 'update',
      data: { before: { title: 'History group', access: 'private' }, after: { title: 'History group 2', access: 'org' } },
    });
    await svc.post(`community/groups/${gid}/addUsers`, { users: 'user1', admins: 'publisher1' }, tokens.admin);
    const add = await latest(gid);
    expect(add).toMatchObject({ action: 'addusers', operation: 'addUsers' });
    expect(add.data.usernames).toEqual(expect.arrayContaining(['user1', 'publisher1']));
    expect(add.data.admins).toEqual(['publisher1']);
    await svc.post(`community/groups/${gid}/updateUsers`, { users: 'publisher1' }, tokens.admin);
    expect(await latest(gid)).toMatchObject({
      action: 'updateUsers',
      data: { usernames: ['publisher1'], before: { memberTypes: { publisher1: 'admin' } }, after: { memberTypes: { publisher1: 'member' } } },
    });
    // addUsers naming an existing member among admins makes them a manager: recorded like updateUsers.
    await svc.post(`community/groups/${gid}/addUsers`, { admins: 'publisher1' }, tokens.admin);
    expect(await latest(gid)).toMatchObject({
      action: 'updateUsers',
      data: { usernames: ['publisher1'], before: { memberTypes: { publisher1: 'member' } }, after: { memberTypes: { publisher1: 'admin' } } },
    });
    await svc.post(`community/groups/${gid}/removeUsers`, { users: 'user1' }, tokens.admin);
    expect(await latest(gid)).toMatchObject({ action: 'removeusers', data: { usernames: ['user1'] } });
    await svc.post(`community/groups/${gid}/delete`, {}, tokens.admin);
    expect(await latest(gid)).toMatchObject({ action: 'delete', data: { before: { title: 'History group 2' } } });
  });
});

describe('roles and members', () => {
  it('createRole, setPrivileges (previous privileges), updateUserRole (previous role and roleId)', async () => {
    const role = await svc.post(`portals/${svc.orgId}/createRole`, { name: 'History role', description: 'x' }, tokens.admin);
    expect(await latest(role.id)).toMatchObject({ idType: 'r', action: 'create', operation: 'createRole', title: 'History role' });
    await svc.post(
      `portals/${svc.orgId}/roles/${role.id}/setPrivileges`,
      { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup'] }) },
      tokens.admin,
    );
    expect(await latest(role.id)).toMatchObject({
      action: 'update',
      operation: 'setPrivileges',
      data: { before: { privileges: [] }, after: { privileges: ['portal:user:joinGroup'] } },
    });
    await svc.post(`portals/${svc.orgId}/updateUserRole`, { user: 'user1', role: role.id }, tokens.admin);
    expect(await latest('user1')).toMatchObject({
      idType: 'u',
      action: 'update',
      operation: 'updateUserRole',
      data: { before: { role: 'org_user', roleId: null }, after: { roleId: role.id } },
    });
    await svc.post(`portals/${svc.orgId}/updateUserRole`, { user: 'user1', role: 'org_user' }, tokens.admin);
  });

  it('createUser: the new member, never the password', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/portaladmin/security/users/createUser',
      payload: {
        f: 'json',
        token: tokens.admin,
        username: 'history_member',
        password: 'Sup3rSecretPass',
        email: 'h@example.com',
        firstname: 'His',
        lastname: 'Tory',
        role: 'org_user',
      },
    });
    expect(res.json().error).toBeUndefined();
    const e = await latest('history_member');
    expect(e).toMatchObject({ idType: 'u', action: 'create', operation: 'createUser', actor: 'admin', data: { after: { role: 'org_user' } } });
    expect(JSON.stringify(e)).not.toMatch(JSON_SECRETS);
  });

  it('sign-in and failed sign-in', async () => {
    await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'user1', password: 'wrong password!', f: 'json' } });
    const failed = await latest('user1');
    expect(failed).toMatchObject({ idType: 'u', action: 'failedlogin', operation: 'failedSignin', actor: 'user1', data: { reason: 'password' } });
    expect(JSON.stringify(failed)).not.toContain('wrong password!');
    await svc.tokenFor('user1');
    expect(await latest('user1')).toMatchObject({ action: 'login', operation: 'signin' });
    // A username as id matches in any case.
    expect(await latest('USER1')).toMatchObject({ id: 'user1', operation: 'signin' });
  });
});

describe('organization settings', () => {
  it('setUserDefaultSettings: the defaults before and after', async () => {
    await svc.post(`portals/${svc.orgId}/setUserDefaultSettings`, { role: 'org_publisher' }, tokens.admin);
    const e = await latest(svc.orgId);
    expect(e).toMatchObject({ idType: 'a', action: 'update', operation: 'setUserDefaultSettings', data: { after: { role: 'org_publisher' } } });
    await svc.post(`portals/${svc.orgId}/userDefaultSettings/delete`, {}, tokens.admin);
    expect(await latest(svc.orgId)).toMatchObject({ operation: 'setUserDefaultSettings', data: { before: { role: 'org_publisher' }, after: { role: null } } });
  });

  it('portals/update: the settings before and after', async () => {
    await svc.post(`portals/${svc.orgId}/update`, { description: 'History test org' }, tokens.admin);
    expect(await latest(svc.orgId)).toMatchObject({
      idType: 'a',
      operation: 'updateOrganization',
      data: { before: { description: expect.any(String) }, after: { description: 'History test org' } },
    });
  });
});

describe('webhooks and tasks', () => {
  it('organization webhooks: create, update, deactivate, settings, delete — never the secret', async () => {
    const base = `portals/${svc.orgId}/webhooks`;
    const hook = await svc.post(
      `${base}/createWebhook`,
      { name: 'History hook', url: 'http://127.0.0.1:9/hook', changes: 'allChanges', secret: 'secret-value-123' },
      tokens.admin,
    );
    expect(hook.success).toBe(true);
    expect(await latest(hook.id)).toMatchObject({
      idType: 'w',
      action: 'create',
      operation: 'createWebhook',
      title: 'History hook',
      data: { after: { secret: 'set' } },
    });
    await svc.post(
      `${base}/${hook.id}/update`,
      { name: 'History hook 2', url: 'http://127.0.0.1:9/hook', events: '/items', secret: 'secret-value-456' },
      tokens.admin,
    );
    const updated = await latest(hook.id);
    expect(updated).toMatchObject({
      operation: 'updateWebhook',
      data: { before: { name: 'History hook', events: ['/'], secret: 'changed' }, after: { name: 'History hook 2', events: ['/items'] } },
    });
    await svc.post(`${base}/${hook.id}/deactivate`, {}, tokens.admin);
    expect(await latest(hook.id)).toMatchObject({ operation: 'deactivateWebhook', data: { before: { isActive: true }, after: { isActive: false } } });
    await svc.post(`${base}/settings/update`, { notificationAttempts: '2' }, tokens.admin);
    expect(await latest(svc.orgId)).toMatchObject({ idType: 'w', operation: 'updateWebhookSettings', data: { after: { notificationAttempts: 2 } } });
    await svc.post(`${base}/${hook.id}/delete`, {}, tokens.admin);
    expect(await latest(hook.id)).toMatchObject({ action: 'delete', operation: 'deleteWebhook' });
    expect(JSON.stringify(await historyOf(hook.id, 10))).not.toMatch(/secret-value/);
  });

  it('scheduled tasks: create, update, disable, delete', async () => {
    const base = 'community/users/admin/tasks';
    const t = await svc.post(
      `${base}/createTask`,
      {
        type: 'ExecuteReport',
        title: 'History report',
        parameters: JSON.stringify({ reportType: 'members' }),
        minute: '30',
        hour: '7',
        dayOfMonth: '?',
        month: '*',
        dayOfWeek: '2-6',
      },
      tokens.admin,
    );
    expect(t.success).toBe(true);
    expect(await latest(t.taskId)).toMatchObject({ idType: 't', action: 'create', operation: 'createTask', owner: 'admin', title: 'History report' });
    await svc.post(`${base}/${t.taskId}/update`, { hour: '8' }, tokens.admin);
    expect(await latest(t.taskId)).toMatchObject({ operation: 'updateTask', data: { before: { hour: '7' }, after: { hour: '8' } } });
    await svc.post(`${base}/${t.taskId}/disable`, {}, tokens.admin);
    expect(await latest(t.taskId)).toMatchObject({ operation: 'disableTask', data: { before: { active: true }, after: { active: false } } });
    await svc.post(`${base}/${t.taskId}/delete`, {}, tokens.admin);
    expect(await latest(t.taskId)).toMatchObject({ action: 'delete', operation: 'deleteTask' });
  });

  it('collaborations: create and add a workspace', async () => {
    const c = await svc.post(`portals/${svc.orgId}/collaborations/createCollaboration`, { name: 'History collab', description: '' }, tokens.admin);
    expect(c.error).toBeUndefined();
    expect(await latest(c.id)).toMatchObject({ idType: 'c', action: 'create', operation: 'createCollaboration', title: 'History collab' });
    await svc.post(`portals/${svc.orgId}/collaborations/${c.id}/addWorkspace`, { name: 'WS', description: '', access: 'sendAndReceive' }, tokens.admin);
    expect(await latest(c.id)).toMatchObject({ idType: 'cw', action: 'create', operation: 'addWorkspace', data: { name: 'WS' } });
  });

  it('collaborations: an invited and a removed participant are named by their organization, not by the collaboration', async () => {
    const c = await svc.post(`portals/${svc.orgId}/collaborations/createCollaboration`, { name: 'Named collab', description: '' }, tokens.admin);
    const group = (await svc.post('community/createGroup', { title: 'Named collab group', access: 'org' }, tokens.admin)).group.id;
    const ws = await svc.post(`portals/${svc.orgId}/collaborations/${c.id}/addWorkspace`, { name: 'Main', groupId: group }, tokens.admin);
    const invited = await svc.post(
      `portals/${svc.orgId}/collaborations/${c.id}/inviteParticipant`,
      { participantPortalId: svc.partnerOrgId, workspaces: JSON.stringify({ [ws.workspaceId]: 'receive' }) },
      tokens.admin,
    );
    expect(invited.error).toBeUndefined();
    const invite = await latest(c.id);
    expect(invite).toMatchObject({ idType: 'cp', operation: 'inviteParticipant', title: 'Named collab', data: { participantPortalId: svc.partnerOrgId } });
    const partnerName = invite.data.participantName;
    expect(typeof partnerName === 'string' && partnerName && partnerName !== 'Named collab').toBe(true);
    expect((await svc.post(`portals/${svc.orgId}/collaborations/${c.id}/participants/${svc.partnerOrgId}/remove`, {}, tokens.admin)).error).toBeUndefined();
    expect(await latest(c.id)).toMatchObject({ operation: 'removeParticipant', data: { participantPortalId: svc.partnerOrgId, participantName: partnerName } });
  });
});
