/**
 * `community/users/<u>/delete`: who may, what goes with the account (tokens, memberships), what is
 * recorded, and the refusals — a member who still owns items or groups, oneself, an administrator
 * by someone who is not a default administrator, the last default administrator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { insertMember, insertRole } from '../../../../test/support/members.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  // publisher1 gets a custom administrative role holding deleteUsers (and what it requires), not a default administrator.
  const role = await insertRole(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:deleteUsers'], 'Account remover');
  await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = $1 WHERE username = 'publisher1'`, [role]);
  tokens.publisher1 = await svc.tokenFor('publisher1');
});
afterAll(() => svc.close());

async function post(path: string, token?: string, params: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload: { f: 'json', ...params, ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const remove = (username: string, token = tokens.admin) => post(`community/users/${username}/delete`, token);
const exists = async (username: string) => (await svc.db.query('SELECT 1 FROM users WHERE username = $1', [username])).length === 1;

describe('delete a member', () => {
  it('deletes a member with nothing of their own: their tokens and memberships go with the account; recorded in the events and history', async () => {
    const id = await insertMember(svc.db, 'leaving1', svc.orgId);
    const token = await svc.tokenFor('leaving1');
    const group = await post('community/createGroup', tokens.admin, { title: 'Leavers welcome', access: 'org' });
    expect((await post(`community/groups/${group.group.id}/addUsers`, tokens.admin, { users: 'leaving1' })).notAdded).toEqual([]);

    expect(await remove('leaving1')).toEqual({ success: true, username: 'leaving1' });

    expect(await exists('leaving1')).toBe(false);
    expect((await post('community/users/leaving1', tokens.admin)).error.message).toBe("User 'leaving1' does not exist or is inaccessible.");
    expect((await post('community/self', token)).error.code).toBe(498);
    expect(await svc.db.query('SELECT 1 FROM tokens WHERE user_id = $1', [id])).toEqual([]);
    expect(await svc.db.query('SELECT 1 FROM group_members WHERE user_id = $1', [id])).toEqual([]);

    const events = await svc.db.query<{ username: string }>(
      `SELECT username FROM events WHERE source = 'user' AND subject_id = 'leaving1' AND operation = 'delete'`,
    );
    expect(events).toEqual([{ username: 'admin' }]);
    const history = await post(`portals/${svc.orgId}/history`, tokens.admin, { id: 'leaving1', num: '100' });
    expect((history.items as { operation: string }[]).filter((e) => e.operation === 'deleteUser')).toEqual([
      expect.objectContaining({
        action: 'delete',
        actor: 'admin',
        data: {
          before: {
            role: 'org_user',
            roleId: null,
            fullName: 'leaving1',
            email: 'leaving1@example.com',
            userLicenseTypeId: expect.any(String),
            disabled: false,
            // What the member belonged to, so that they can be made again by hand (a deletion has no undo).
            groups: [{ id: group.group.id, title: 'Leavers welcome', memberType: 'member' }],
          },
        },
      }),
    ]);
  });

  it('refuses while the member owns items or groups, naming the counts, and deletes nothing', async () => {
    await insertMember(svc.db, 'owner1', svc.orgId);
    const token = await svc.tokenFor('owner1');
    for (const title of ['Map one', 'Map two'])
      expect((await post('content/users/owner1/addItem', token, { title, type: 'Web Map', text: '{}' })).success).toBe(true);
    expect((await post('community/createGroup', token, { title: 'Owner one group', access: 'private' })).success).toBe(true);

    const refused = await remove('owner1');
    expect(refused.error).toMatchObject({ code: 400, message: 'Unable to delete user.' });
    expect(refused.error.details).toEqual(['owner1 owns 2 items, 1 group: transfer them to another member or delete them before deleting the member.']);
    expect(await exists('owner1')).toBe(true);
    expect((await post('community/self', token)).username).toBe('owner1');
    expect(await svc.db.query(`SELECT 1 FROM events WHERE subject_id = 'owner1' AND operation = 'delete'`)).toEqual([]);
  });

  it('needs portal:admin:deleteUsers; an administrator is deleted only by a default administrator; never oneself', async () => {
    await insertMember(svc.db, 'leaving2', svc.orgId);
    const denied = await remove('leaving2', tokens.user1);
    expect(denied.error.code).toBe(403);
    expect(JSON.stringify(denied.error)).toContain('portal:admin:deleteUsers');

    const onAdmin = await remove('admin', tokens.publisher1);
    expect(onAdmin.error.code).toBe(403);
    expect(JSON.stringify(onAdmin.error)).toContain('Only default administrators can delete an administrator.');
    const self = await remove('admin');
    expect(self.error.code).toBe(403);
    expect(JSON.stringify(self.error)).toContain('You cannot delete your own account.');
    const ownByKeeper = await remove('publisher1', tokens.publisher1);
    expect(ownByKeeper.error.code).toBe(403);
    expect(await exists('admin')).toBe(true);
    expect(await exists('publisher1')).toBe(true);

    // The custom role holds the privilege: it deletes a plain member.
    expect(await remove('leaving2', tokens.publisher1)).toEqual({ success: true, username: 'leaving2' });
  });

  it('a member of another organization answers exactly as a name that does not exist', async () => {
    const other = await remove('partner_admin');
    const madeUp = await remove('nobody_here_at_all');
    expect(other.error.code).toBe(400);
    expect({ ...other.error, message: other.error.message.replace('partner_admin', 'X'), details: [] }).toEqual({
      ...madeUp.error,
      message: madeUp.error.message.replace('nobody_here_at_all', 'X'),
      details: [],
    });
    expect(await exists('partner_admin')).toBe(true);
  });

  it('answers GET with 405 and an anonymous caller with the token error', async () => {
    await insertMember(svc.db, 'leaving3', svc.orgId);
    const get = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/users/leaving3/delete?f=json&token=${tokens.admin}` });
    expect(get.json().error.code).toBe(405);
    expect((await post('community/users/leaving3/delete')).error.code).toBe(499);
    expect(await exists('leaving3')).toBe(true);
  });

  // Last: it leaves the organization with other administrators than the demo one.
  it('two default administrators deleting each other at once leave one of them', async () => {
    for (const name of ['admin2', 'admin3']) await insertMember(svc.db, name, svc.orgId, 'org_admin');
    const [admin2, admin3] = [await svc.tokenFor('admin2'), await svc.tokenFor('admin3')];
    // They are the organization's only default administrators.
    await svc.db.query(`UPDATE users SET role = 'org_user' WHERE username = 'admin'`);
    const [a, b] = await Promise.all([remove('admin3', admin2), remove('admin2', admin3)]);
    const refused = [a, b].filter((r) => !r.success);
    expect(refused).toHaveLength(1);
    // Refused as the last administrator, or — had the other deletion ended before it was even read — with the token that went with its account.
    expect(refused[0].error.code === 498 || /is the organization's last administrator/.test(JSON.stringify(refused[0].error))).toBe(true);
    const left = await svc.db.query(`SELECT username FROM users WHERE org_id = $1 AND role = 'org_admin' AND role_id IS NULL`, [svc.orgId]);
    expect(left).toHaveLength(1);
  });
});
