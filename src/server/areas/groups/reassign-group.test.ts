/**
 * Reassign Group (`community/groups/<id>/reassign`, ArcGIS REST "Reassign Group"): an administrator
 * with portal:admin:reassignGroups gives a group to another member of its organization; the answer
 * is `{success, groupId}`, the event `reassign` with `reassignedTo`, the history before/after owner.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

/** An administrative custom role that may update groups but not reassign them. */
const GROUP_EDITOR = 'rGROUPEDITORAAAA';

let svc: TestService;
const tokens: Record<string, string> = {};

async function insertMember(username: string, role: string, roleId: string | null = null) {
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, $3, password_hash, $4, $5, $6, $7, 0, 0 FROM users WHERE username = 'user1'`,
    [randomUUID().replaceAll('-', ''), svc.orgId, username, `Full ${username}`, `${username}@example.com`, role, roleId],
  );
}

beforeAll(async () => {
  svc = await startService();
  await svc.db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
    svc.orgId,
    GROUP_EDITOR,
    'Group editor',
    '',
    ['portal:admin:viewGroups', 'portal:admin:updateGroups', 'portal:user:createGroup'],
  ]);
  await insertMember('groupeditor1', 'org_admin', GROUP_EDITOR);
  await insertMember('leaver1', 'org_publisher');
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin', 'groupeditor1', 'leaver1']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function createGroup(owner: string, fields: Record<string, string> = {}) {
  const body = await post('community/createGroup', { title: `Team ${randomUUID().slice(0, 8)}`, ...fields }, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.group as { id: string; title: string; owner: string };
}

async function membersOf(groupId: string) {
  const rows = await svc.db.query<{ username: string; member_type: string }>(
    'SELECT u.username, m.member_type FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 ORDER BY u.username',
    [groupId],
  );
  return Object.fromEntries(rows.map((r) => [r.username, r.member_type]));
}

const ownerOf = async (groupId: string) => (await post(`community/groups/${groupId}`, {}, tokens.admin)).owner as string;

describe('community/groups/<id>/reassign', () => {
  it('gives the group to a member outside it, who joins as owner; the previous owner stays a member', async () => {
    const group = await createGroup('user1');
    expect(await post(`community/groups/${group.id}/reassign`, { targetUsername: 'publisher1' }, tokens.admin)).toEqual({ success: true, groupId: group.id });
    expect(await ownerOf(group.id)).toBe('publisher1');
    expect(await membersOf(group.id)).toEqual({ publisher1: 'owner', user1: 'member' });

    const events = await svc.db.query<{ operation: string; username: string; properties: unknown }>(
      `SELECT operation, username, properties FROM events WHERE source = 'group' AND subject_id = $1 AND operation = 'reassign'`,
      [group.id],
    );
    expect(events).toEqual([{ operation: 'reassign', username: 'admin', properties: { reassignedTo: ['publisher1'] } }]);
  });

  it('promotes a manager already in the group, and is undone by a transfer back recorded in the history', async () => {
    const group = await createGroup('user1');
    expect((await post(`community/groups/${group.id}/addUsers`, { admins: 'publisher1' }, tokens.user1)).notAdded).toEqual([]);
    await post(`community/groups/${group.id}/reassign`, { targetUsername: 'publisher1' }, tokens.admin);
    expect(await membersOf(group.id)).toEqual({ publisher1: 'owner', user1: 'member' });

    const history = await post(`portals/${svc.orgId}/history`, { id: group.id, num: '100' }, tokens.admin);
    const [change] = (history.items as { operation: string; action: string; actor: string; data: unknown }[]).filter((e) => e.operation === 'reassignGroup');
    expect(change).toEqual(expect.objectContaining({ action: 'update', actor: 'admin', data: { before: { owner: 'user1' }, after: { owner: 'publisher1' } } }));

    // The undo the history offers: the same operation, back to the owner recorded before.
    expect(await post(`community/groups/${group.id}/reassign`, { targetUsername: 'user1' }, tokens.admin)).toEqual({ success: true, groupId: group.id });
    expect(await membersOf(group.id)).toEqual({ publisher1: 'member', user1: 'owner' });
  });

  it('refuses the owner, a member without the privilege and an administrator of another organization', async () => {
    const group = await createGroup('user1', { access: 'org' });
    const refusal = "Only an administrator of the group's organization (portal:admin:reassignGroups) can change its owner.";
    for (const who of ['user1', 'publisher1', 'groupeditor1']) {
      const body = await post(`community/groups/${group.id}/reassign`, { targetUsername: 'publisher1' }, tokens[who]);
      expect(body.error, who).toMatchObject({ code: 403, details: [refusal] });
    }
    // Another organization's administrator: not even told a private group exists; a public one is refused.
    const hidden = await createGroup('user1');
    const outside = await post(`community/groups/${hidden.id}/reassign`, { targetUsername: 'publisher1' }, tokens.partner_admin);
    expect(outside.error).toMatchObject({ code: 400, message: 'Group does not exist or is inaccessible.' });
    const shown = await createGroup('user1', { access: 'public' });
    const refusedOutside = await post(`community/groups/${shown.id}/reassign`, { targetUsername: 'partner_admin' }, tokens.partner_admin);
    expect(refusedOutside.error).toMatchObject({ code: 403, details: [refusal] });
    expect(await ownerOf(shown.id)).toBe('user1');
    expect(await ownerOf(group.id)).toBe('user1');
  });

  it('answers an unknown group, an unknown target, another organization, the owner and a viewer in the error envelope', async () => {
    const group = await createGroup('user1');
    const missing = await post('community/groups/0123456789abcdef0123456789abcdef/reassign', { targetUsername: 'publisher1' }, tokens.admin);
    expect(missing.error).toMatchObject({ code: 400, message: 'Group does not exist or is inaccessible.' });

    const refused = async (targetUsername: string) => (await post(`community/groups/${group.id}/reassign`, { targetUsername }, tokens.admin)).error;
    expect(await refused('nobody_here')).toMatchObject({ code: 400, message: "User 'nobody_here' does not exist or is inaccessible." });
    expect(await refused('partner_admin')).toMatchObject({ code: 400, details: [expect.stringContaining("not a member of the group's organization")] });
    expect(await refused('user1')).toMatchObject({ code: 400, details: [expect.stringContaining('must differ from the current owner')] });
    expect(await refused('viewer1')).toMatchObject({ code: 400, details: [expect.stringContaining('portal:user:createGroup')] });
    expect(await refused('')).toMatchObject({ code: 400 });
    expect(await ownerOf(group.id)).toBe('user1');
  });

  it('refuses a target who already owns a group of the same title', async () => {
    const group = await createGroup('user1');
    await createGroup('publisher1', { title: group.title });
    const body = await post(`community/groups/${group.id}/reassign`, { targetUsername: 'publisher1' }, tokens.admin);
    expect(body.error).toMatchObject({ code: 400, details: [`'targetUsername' 'publisher1' already owns a group titled '${group.title}'`] });
  });

  it('lets a member be deleted only once the groups they own are given away', async () => {
    const group = await createGroup('leaver1');
    const refused = await post('community/users/leaver1/delete', {}, tokens.admin);
    expect(refused.error).toMatchObject({ code: 400 });
    expect(JSON.stringify(refused.error)).toContain('group');
    await post(`community/groups/${group.id}/reassign`, { targetUsername: 'publisher1' }, tokens.admin);
    expect(await post('community/users/leaver1/delete', {}, tokens.admin)).toMatchObject({ success: true });
    expect(await membersOf(group.id)).toEqual({ publisher1: 'owner' });
  });
});
