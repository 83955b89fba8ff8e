/**
 * Who may call what (spec §5; facts §3.5, §3.8, §3.11): every operation below against every kind
 * of caller — the default administrator, the three demo members, a custom role holding exactly the
 * privilege the operation needs, a custom role without it, and the administrator of another
 * organization. Each cell makes its own fixtures and checks both the answer and whether the change
 * actually happened (or did not).
 *
 * Role management has no privilege that suffices: there the "custom role with the privilege" holds
 * every administrative privilege and is still refused — only default administrators manage roles.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertMember as insertTestMember, insertRole as insertTestRole } from '../../test/support/members.ts';
import { startService, type TestService } from '../../test/support/service.ts';
import { BASE_ROLE_PRIVILEGES, PRIVILEGES } from '../shared/privileges.ts';

const VIEWER = 'iAAAAAAAAAAAAAAA';
const ADMIN_PRIVILEGES: string[] = PRIVILEGES.filter((p) => p.kind === 'administrative').map((p) => p.id);
const CALLERS = ['admin', 'publisher1', 'user1', 'viewer1', 'custom with', 'custom without', 'partner_admin'] as const;
type CallerName = (typeof CALLERS)[number];

/**
 * allowed: succeeds and changes this organization. own-org: succeeds, in the caller's own
 * organization (the operation has no organization in its path). refused: 403. cross-org: the
 * other organization's administrator is refused (403, or 400 where the target is invisible).
 */
type Expect = 'allowed' | 'own-org' | 'refused' | 'cross-org';

let svc: TestService;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
let seq = 0;
const unique = (prefix: string) => `${prefix}${++seq}${randomUUID().slice(0, 6)}`;

async function post(path: string, params: Record<string, string>, token: string) {
  const res = await svc.app.inject({ method: 'POST', url: path.startsWith('/') ? path : `/sharing/rest/${path}`, payload: { f: 'json', token, ...params } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function get(path: string, token: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?f=json&token=${token}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const insertMember = (username: string, orgId: string) => insertTestMember(svc.db, username, orgId);
const insertRole = (privileges: string[]) => insertTestRole(svc.db, svc.orgId, privileges, unique('Matrix role '));

const exists = async (sql: string, params: unknown[]) => (await svc.db.query(sql, params)).length > 0;

interface Operation {
  name: string;
  /** The custom role "with": exactly what the operation needs (for role management: every administrative privilege). */
  withPrivileges: string[];
  /** The custom role "without": a plausible role that lacks it. */
  withoutPrivileges: string[];
  expected: Record<CallerName, Expect>;
  /** Makes this cell's fixtures, calls the operation, and says where its effect landed. */
  run(token: string): Promise<{ body: Record<string, unknown>; landed: 'here' | 'partner' | null }>;
}

const Y = 'allowed' as const;
const N = 'refused' as const;
const X = 'cross-org' as const;

const OPERATIONS: Operation[] = [
  {
    name: 'updateUserRole',
    // One gives only roles one holds entirely: the role given here is Publisher.
    withPrivileges: ['portal:admin:changeUserRoles', 'portal:admin:viewUsers', ...BASE_ROLE_PRIVILEGES.org_publisher],
    withoutPrivileges: ['portal:admin:viewUsers', 'portal:admin:updateUsers', 'portal:user:viewOrgUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': Y, 'custom without': N, partner_admin: X },
    async run(token) {
      const username = unique('target.');
      await insertMember(username, svc.orgId);
      const body = await post(`portals/${svc.orgId}/updateUserRole`, { username, role: 'org_publisher' }, token);
      const [row] = await svc.db.query<{ role: string }>('SELECT role FROM users WHERE username = $1', [username]);
      return { body, landed: row.role === 'org_publisher' ? 'here' : null };
    },
  },
  {
    // Privilege escalation (docs/security.md, "Role assignment"): holding changeUserRoles is not
    // enough to give a role holding privileges the caller lacks.
    name: 'updateUserRole to a role beyond the caller',
    withPrivileges: ['portal:admin:changeUserRoles', 'portal:admin:viewUsers'],
    withoutPrivileges: ['portal:admin:viewUsers', 'portal:admin:updateUsers', 'portal:user:viewOrgUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': N, 'custom without': N, partner_admin: X },
    async run(token) {
      const username = unique('target.');
      await insertMember(username, svc.orgId);
      const role = await insertRole(['portal:admin:viewUsers', 'portal:admin:changeUserRoles', 'portal:admin:manageRoles', 'portal:admin:manageWebhooks']);
      const body = await post(`portals/${svc.orgId}/updateUserRole`, { username, role }, token);
      const [row] = await svc.db.query<{ role_id: string | null }>('SELECT role_id FROM users WHERE username = $1', [username]);
      return { body, landed: row.role_id === role ? 'here' : null };
    },
  },
  {
    name: 'createUser',
    // The new account gets the default role, User: one creates only accounts whose role one holds entirely.
    withPrivileges: ['portal:admin:inviteUsers', 'portal:admin:viewUsers', ...BASE_ROLE_PRIVILEGES.org_user],
    withoutPrivileges: ['portal:admin:viewUsers', 'portal:admin:updateUsers', 'portal:admin:changeUserRoles'],
    // The operation has no organization in its path: another organization's administrator creates in their own.
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': Y, 'custom without': N, partner_admin: 'own-org' },
    async run(token) {
      const username = unique('created.');
      const body = await post('/portaladmin/security/users/createUser', { username, password: 'Matrix.Member.8642', email: `${username}@example.com` }, token);
      const [row] = await svc.db.query<{ org_id: string }>('SELECT org_id FROM users WHERE username = $1', [username]);
      return { body, landed: !row ? null : row.org_id === svc.orgId ? 'here' : 'partner' };
    },
  },
  {
    name: 'createRole',
    withPrivileges: ADMIN_PRIVILEGES,
    withoutPrivileges: ['portal:user:createItem', 'portal:user:viewOrgUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': N, 'custom without': N, partner_admin: X },
    async run(token) {
      const name = unique('Created role ');
      const body = await post(`portals/${svc.orgId}/createRole`, { name }, token);
      return { body, landed: (await exists('SELECT 1 FROM roles WHERE org_id = $1 AND name = $2', [svc.orgId, name])) ? 'here' : null };
    },
  },
  {
    name: 'setPrivileges',
    withPrivileges: ADMIN_PRIVILEGES,
    withoutPrivileges: ['portal:user:createItem', 'portal:user:viewOrgUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': N, 'custom without': N, partner_admin: X },
    async run(token) {
      const role = await insertRole(['portal:user:joinGroup']);
      const body = await post(
        `portals/${svc.orgId}/roles/${role}/setPrivileges`,
        { privileges: JSON.stringify({ privileges: ['portal:user:createItem'] }) },
        token,
      );
      const [row] = await svc.db.query<{ privileges: string[] }>('SELECT privileges FROM roles WHERE org_id = $1 AND id = $2', [svc.orgId, role]);
      return { body, landed: row.privileges.includes('portal:user:createItem') ? 'here' : null };
    },
  },
  {
    name: 'deleteRole',
    withPrivileges: ADMIN_PRIVILEGES,
    withoutPrivileges: ['portal:user:createItem', 'portal:user:viewOrgUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': N, 'custom without': N, partner_admin: X },
    async run(token) {
      const role = await insertRole(['portal:user:joinGroup']);
      const body = await post(`portals/${svc.orgId}/roles/${role}/delete`, {}, token);
      return { body, landed: (await exists('SELECT 1 FROM roles WHERE org_id = $1 AND id = $2', [svc.orgId, role])) ? null : 'here' };
    },
  },
  {
    name: 'addUsers (org group owned by admin)',
    withPrivileges: ['portal:admin:assignToGroups', 'portal:admin:viewGroups'],
    withoutPrivileges: ['portal:user:viewOrgGroups', 'portal:user:joinGroup', 'portal:user:createGroup'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': Y, 'custom without': N, partner_admin: X },
    async run(token) {
      const groupId = randomUUID().replaceAll('-', '');
      await svc.db.query(`INSERT INTO groups (id, org_id, owner_id, title, access, created, modified) VALUES ($1, $2, $3, $4, 'org', 0, 0)`, [
        groupId,
        svc.orgId,
        ids.admin,
        unique('Matrix group '),
      ]);
      await svc.db.query(`INSERT INTO group_members (group_id, user_id, member_type, joined) VALUES ($1, $2, 'owner', 0)`, [groupId, ids.admin]);
      const username = unique('joiner.');
      const userId = await insertMember(username, svc.orgId);
      const body = await post(`community/groups/${groupId}/addUsers`, { users: username }, token);
      if (!body.error) expect(body).toEqual({ notAdded: [], notAddedReasons: [] });
      return { body, landed: (await exists('SELECT 1 FROM group_members WHERE group_id = $1 AND user_id = $2', [groupId, userId])) ? 'here' : null };
    },
  },
  {
    name: 'setUserDefaultSettings',
    // The default set here is Publisher: one makes default only a role one holds entirely.
    withPrivileges: ['portal:admin:manageSecurity', ...BASE_ROLE_PRIVILEGES.org_publisher],
    withoutPrivileges: ['portal:admin:manageWebsite', 'portal:admin:viewUsers', 'portal:admin:inviteUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': Y, 'custom without': N, partner_admin: X },
    async run(token) {
      await svc.db.query('DELETE FROM user_default_settings');
      const body = await post(`portals/${svc.orgId}/setUserDefaultSettings`, { role: 'org_publisher' }, token);
      return { body, landed: (await exists(`SELECT 1 FROM user_default_settings WHERE org_id = $1 AND role = 'org_publisher'`, [svc.orgId])) ? 'here' : null };
    },
  },
  {
    name: 'userDefaultSettings/delete',
    withPrivileges: ['portal:admin:manageSecurity'],
    withoutPrivileges: ['portal:admin:manageWebsite', 'portal:admin:viewUsers', 'portal:admin:inviteUsers'],
    expected: { admin: Y, publisher1: N, user1: N, viewer1: N, 'custom with': Y, 'custom without': N, partner_admin: X },
    async run(token) {
      await svc.db.query('DELETE FROM user_default_settings');
      await svc.db.query(`INSERT INTO user_default_settings (org_id, role, modified) VALUES ($1, 'org_publisher', 0)`, [svc.orgId]);
      const body = await post(`portals/${svc.orgId}/userDefaultSettings/delete`, {}, token);
      return { body, landed: (await exists('SELECT 1 FROM user_default_settings WHERE org_id = $1', [svc.orgId])) ? null : 'here' };
    },
  },
  {
    name: 'list members (portals/<orgId>/users)',
    withPrivileges: ['portal:user:viewOrgUsers'],
    withoutPrivileges: ['portal:user:viewOrgGroups', 'portal:user:joinGroup', 'portal:user:createItem'],
    expected: { admin: Y, publisher1: Y, user1: Y, viewer1: Y, 'custom with': Y, 'custom without': N, partner_admin: X },
    async run(token) {
      const body = await get(`portals/${svc.orgId}/users`, token);
      const users = (body.users as { username: string; orgId: string }[] | undefined) ?? [];
      const landed = users.some((u) => u.username === 'admin') && users.every((u) => u.orgId === svc.orgId) ? 'here' : null;
      return { body, landed };
    },
  },
  {
    name: 'createGroup',
    withPrivileges: ['portal:user:createGroup'],
    withoutPrivileges: ['portal:user:joinGroup', 'portal:user:viewOrgGroups', 'portal:user:createItem'],
    // No organization in the path: another organization's administrator creates a group of their own.
    expected: { admin: Y, publisher1: Y, user1: Y, viewer1: N, 'custom with': Y, 'custom without': N, partner_admin: 'own-org' },
    async run(token) {
      const title = unique('Matrix created group ');
      const body = await post('community/createGroup', { title }, token);
      const [row] = await svc.db.query<{ org_id: string }>('SELECT org_id FROM groups WHERE title = $1', [title]);
      return { body, landed: !row ? null : row.org_id === svc.orgId ? 'here' : 'partner' };
    },
  },
];

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) {
    const [row] = await svc.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [u]);
    ids[u] = row.id;
  }
  await insertMember('custom.with', svc.orgId);
  await insertMember('custom.without', svc.orgId);
  for (const op of OPERATIONS) {
    ids[`${op.name}:with`] = await insertRole(op.withPrivileges);
    ids[`${op.name}:without`] = await insertRole(op.withoutPrivileges);
  }
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin', 'custom.with', 'custom.without']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

beforeEach(async () => {
  await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL WHERE username IN ('admin', 'partner_admin')`);
  await svc.db.query(`UPDATE users SET role = 'org_publisher', role_id = NULL WHERE username = 'publisher1'`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = NULL WHERE username = 'user1'`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = $1 WHERE username = 'viewer1'`, [VIEWER]);
  await svc.db.query('DELETE FROM user_default_settings');
});

/** Gives the custom user the operation's role; its base role follows the privileges as the service would report it. */
async function tokenOf(caller: CallerName, op: Operation): Promise<string> {
  if (caller !== 'custom with' && caller !== 'custom without') return tokens[caller];
  const roleId = ids[`${op.name}:${caller === 'custom with' ? 'with' : 'without'}`];
  const privileges = caller === 'custom with' ? op.withPrivileges : op.withoutPrivileges;
  const base = privileges.some((p) => ADMIN_PRIVILEGES.includes(p)) ? 'org_admin' : 'org_user';
  const username = caller === 'custom with' ? 'custom.with' : 'custom.without';
  await svc.db.query('UPDATE users SET role = $2, role_id = $3 WHERE username = $1', [username, base, roleId]);
  return tokens[username];
}

const cells = OPERATIONS.flatMap((op) => CALLERS.map((caller) => [op.name, caller, op.expected[caller]] as const));

describe('authorization matrix', () => {
  it.each(cells)('%s by %s: %s', async (opName, caller, expected) => {
    const op = OPERATIONS.find((o) => o.name === opName)!;
    const token = await tokenOf(caller, op);
    if (caller === 'custom with' || caller === 'custom without') {
      // The custom user really holds exactly that role's privileges.
      const me = await get('community/self', token);
      expect(me.roleId).toBe(ids[`${op.name}:${caller === 'custom with' ? 'with' : 'without'}`]);
      expect(me.privileges).toEqual([...(caller === 'custom with' ? op.withPrivileges : op.withoutPrivileges)].sort());
    }
    const { body, landed } = await op.run(token);
    const error = body.error as { code: number } | undefined;
    switch (expected) {
      case 'allowed':
        expect(error, JSON.stringify(body)).toBeUndefined();
        expect(landed).toBe('here');
        break;
      case 'own-org':
        expect(error, JSON.stringify(body)).toBeUndefined();
        expect(landed).toBe('partner');
        break;
      case 'refused':
        expect(error?.code, JSON.stringify(body)).toBe(403);
        expect(landed).toBeNull();
        break;
      case 'cross-org':
        expect([400, 403], JSON.stringify(body)).toContain(error?.code);
        expect(landed).toBeNull();
        break;
    }
  });

  it('covers every operation against every caller', () => {
    expect(cells).toHaveLength(OPERATIONS.length * CALLERS.length);
    expect(OPERATIONS.map((o) => o.name)).toEqual([
      'updateUserRole',
      'updateUserRole to a role beyond the caller',
      'createUser',
      'createRole',
      'setPrivileges',
      'deleteRole',
      'addUsers (org group owned by admin)',
      'setUserDefaultSettings',
      'userDefaultSettings/delete',
      'list members (portals/<orgId>/users)',
      'createGroup',
    ]);
  });
});
