/**
 * No privilege escalation through roles (docs/security.md, "Role assignment"): a member who may
 * change roles, create members or set new-member defaults gives only roles whose privileges they
 * hold themselves; nobody changes their own role; only default administrators make
 * administrators. Each refusal is a 403 naming the reason and changes nothing — no role, no
 * account, no default, no event.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { BASE_ROLE_PRIVILEGES } from '../../../shared/privileges.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

/** The case from the report: a role that may only view members and change their roles. */
const LIMITED = 'rLIMITEDAAAAAAAA';
/** A role holding administrative privileges LIMITED lacks. */
const BIG = 'rBIGAAAAAAAAAAAA';
/** A role whose privileges are a subset of LIMITED's. */
const SMALL = 'rSMALLAAAAAAAAAA';
/** Manages new-member defaults, and holds what a User holds — not what a Publisher holds. */
const DEFAULTS_MANAGER = 'rDEFAULTSMGRAAAA';
/** More than a User holds, and no administrative privilege: a possible new-member default. */
const EDITOR = 'rEDITORAAAAAAAAA';
/** Creates members, and holds what a User holds. */
const INVITER = 'rINVITERAAAAAAAA';

const ROLES: [id: string, name: string, privileges: string[]][] = [
  [LIMITED, 'Role changer', ['portal:admin:viewUsers', 'portal:admin:changeUserRoles']],
  [
    BIG,
    'Almost admin',
    [
      'portal:admin:viewUsers',
      'portal:admin:changeUserRoles',
      'portal:admin:manageRoles',
      'portal:admin:viewItems',
      'portal:admin:deleteItems',
      'portal:admin:manageWebhooks',
    ],
  ],
  [SMALL, 'Member viewer', ['portal:admin:viewUsers']],
  [DEFAULTS_MANAGER, 'Defaults manager', ['portal:admin:manageSecurity', ...BASE_ROLE_PRIVILEGES.org_user]],
  [EDITOR, 'Full editor', ['portal:user:viewOrgItems', 'features:user:fullEdit']],
  [INVITER, 'Inviter', ['portal:admin:inviteUsers', 'portal:admin:viewUsers', ...BASE_ROLE_PRIVILEGES.org_user]],
];

/** Each account below holds the custom role named beside it at the start of every test. */
const ACCOUNTS: Record<string, string> = { changer1: LIMITED, defaults1: DEFAULTS_MANAGER, inviter1: INVITER };

async function insertMember(username: string, role: string, roleId: string | null) {
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, $3, password_hash, $3, $4, $5, $6, 0, 0 FROM users WHERE username = 'user1'`,
    [randomUUID().replaceAll('-', ''), svc.orgId, username, `${username}@example.com`, role, roleId],
  );
}

beforeAll(async () => {
  svc = await startService();
  for (const [id, name, privileges] of ROLES) {
    await svc.db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
      svc.orgId,
      id,
      name,
      '',
      privileges,
    ]);
  }
  for (const [username, roleId] of Object.entries(ACCOUNTS)) await insertMember(username, 'org_admin', roleId);
  await insertMember('admin2', 'org_admin', null);
  for (const u of ['admin', 'admin2', 'user1', ...Object.keys(ACCOUNTS)]) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

beforeEach(async () => {
  for (const [username, roleId] of Object.entries(ACCOUNTS))
    await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = $2 WHERE username = $1`, [username, roleId]);
  await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL WHERE username IN ('admin', 'admin2')`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = NULL WHERE username = 'user1'`);
  await svc.db.query('DELETE FROM user_default_settings');
});

async function post(path: string, params: Record<string, string>, token: string) {
  const res = await svc.app.inject({ method: 'POST', url: path.startsWith('/') ? path : `/sharing/rest/${path}`, payload: { f: 'json', token, ...params } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const updateRole = (token: string, username: string, role: string) => post(`portals/${svc.orgId}/updateUserRole`, { username, role }, token);

async function roleOf(username: string) {
  const [row] = await svc.db.query<{ role: string; role_id: string | null }>('SELECT role, role_id FROM users WHERE username = $1', [username]);
  return row;
}

async function eventCount(operation: string) {
  const [{ n }] = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events WHERE operation = $1', [operation]);
  return Number(n);
}

/** A 403 in the error envelope whose detail reads `detail`; and the state it must leave alone. */
function expectForbidden(body: { error?: { code: number; messageCode?: string; details: string[] } }, detail: RegExp | string) {
  expect(body.error, JSON.stringify(body)).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
  if (typeof detail === 'string') expect(body.error!.details).toEqual([detail]);
  else expect(body.error!.details.join(' ')).toMatch(detail);
}

describe('updateUserRole by a member holding only viewUsers and changeUserRoles', () => {
  it('cannot give itself a role holding manageRoles, deleteItems and manageWebhooks', async () => {
    const events = await eventCount('updateUserRole');
    expectForbidden(await updateRole(tokens.changer1, 'changer1', BIG), 'You cannot change your own role.');
    expect(await roleOf('changer1')).toEqual({ role: 'org_admin', role_id: LIMITED });
    expect(await eventCount('updateUserRole')).toBe(events);
  });

  it('cannot give itself even a smaller role (nobody changes their own role)', async () => {
    expectForbidden(await updateRole(tokens.changer1, 'CHANGER1', SMALL), 'You cannot change your own role.');
    expect(await roleOf('changer1')).toEqual({ role: 'org_admin', role_id: LIMITED });
  });

  it('cannot give another member that role; the error names what the caller lacks', async () => {
    const events = await eventCount('updateUserRole');
    const body = await updateRole(tokens.changer1, 'user1', BIG);
    expectForbidden(
      body,
      "You cannot assign the role 'Almost admin': it holds privileges you do not hold (portal:admin:viewItems, portal:admin:deleteItems, portal:admin:manageRoles, portal:admin:manageWebhooks).",
    );
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
    expect(await eventCount('updateUserRole')).toBe(events);
    // The member really did not gain anything: their own view of themselves is unchanged.
    const me = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${tokens.user1}` });
    expect(me.json().privileges).not.toContain('portal:admin:manageRoles');
  });

  it('cannot make anyone an administrator', async () => {
    expectForbidden(await updateRole(tokens.changer1, 'user1', 'org_admin'), 'Only default administrators can make a member an administrator.');
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
  });

  it('cannot give a base role holding privileges it lacks (Publisher, User)', async () => {
    for (const role of ['org_publisher', 'org_user']) {
      const body = await updateRole(tokens.changer1, 'admin2', role);
      // admin2 is a default administrator: refused for that reason before the role is looked at.
      expectForbidden(body, "Only default administrators can change an administrator's role.");
    }
    await svc.db.query(`UPDATE users SET role = 'org_user', role_id = $1 WHERE username = 'user1'`, [SMALL]);
    const body = await updateRole(tokens.changer1, 'user1', 'org_publisher');
    expectForbidden(body, /^You cannot assign the role 'Publisher': it holds privileges you do not hold \(portal:user:viewOrgUsers, .* and \d+ more\)\.$/);
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: SMALL });
  });

  it('can give a role whose privileges are a subset of its own, and the change is recorded', async () => {
    const events = await eventCount('updateUserRole');
    expect(await updateRole(tokens.changer1, 'user1', SMALL)).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_admin', role_id: SMALL });
    expect(await eventCount('updateUserRole')).toBe(events + 1);
  });

  it('loses the choice as soon as its own privileges shrink', async () => {
    await svc.db.query(`UPDATE roles SET privileges = $2 WHERE org_id = $1 AND id = $3`, [svc.orgId, ['portal:admin:changeUserRoles'], LIMITED]);
    try {
      expectForbidden(await updateRole(tokens.changer1, 'user1', SMALL), /\(portal:admin:viewUsers\)/);
      expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
    } finally {
      await svc.db.query(`UPDATE roles SET privileges = $2 WHERE org_id = $1 AND id = $3`, [svc.orgId, ROLES[0][2], LIMITED]);
    }
  });
});

describe('updateUserRole by a default administrator', () => {
  it('still gives any role to others, administrators included', async () => {
    expect(await updateRole(tokens.admin, 'user1', BIG)).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_admin', role_id: BIG });
    expect(await updateRole(tokens.admin, 'user1', 'org_admin')).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_admin', role_id: null });
    expect(await updateRole(tokens.admin, 'changer1', 'org_publisher')).toEqual({ success: true, username: 'changer1' });
  });

  it('does not change its own role either', async () => {
    const events = await eventCount('updateUserRole');
    expectForbidden(await updateRole(tokens.admin, 'admin', 'org_user'), 'You cannot change your own role.');
    expect(await roleOf('admin')).toEqual({ role: 'org_admin', role_id: null });
    expect(await eventCount('updateUserRole')).toBe(events);
  });
});

describe("setUserDefaultSettings by a member holding manageSecurity and a User's privileges", () => {
  const setDefaults = (token: string, params: Record<string, string>) => post(`portals/${svc.orgId}/setUserDefaultSettings`, params, token);
  const defaults = () => svc.db.query<{ role: string | null; groups: string[] }>('SELECT role, groups FROM user_default_settings');

  it('cannot make a bigger role the new-member default', async () => {
    expectForbidden(
      await setDefaults(tokens.defaults1, { role: BIG }),
      /^You cannot assign the role 'Almost admin': it holds privileges you do not hold \(portal:admin:viewUsers, portal:admin:changeUserRoles, portal:admin:viewItems, /,
    );
    expectForbidden(
      await setDefaults(tokens.defaults1, { role: 'org_publisher' }),
      /^You cannot assign the role 'Publisher': .*portal:publisher:publishFeatures/,
    );
    // features:user:fullEdit is the one privilege of the role a User lacks (features:user:edit, which it implies, they hold).
    expectForbidden(
      await setDefaults(tokens.defaults1, { role: EDITOR }),
      "You cannot assign the role 'Full editor': it holds privileges you do not hold (features:user:fullEdit).",
    );
    expect(await defaults()).toEqual([]);
  });

  it('can make a role it holds entirely the default', async () => {
    expect(await setDefaults(tokens.defaults1, { role: 'org_user' })).toEqual({ success: true });
    expect((await defaults())[0].role).toBe('org_user');
  });

  it('may change other defaults when a default administrator chose a bigger default role', async () => {
    expect(await setDefaults(tokens.admin, { role: 'org_publisher' })).toEqual({ success: true });
    expect(await setDefaults(tokens.defaults1, { userLicenseType: 'creatorUT' })).toEqual({ success: true });
    expect((await defaults())[0].role).toBe('org_publisher');
    // Naming it again is no grant either: it is already the default.
    expect(await setDefaults(tokens.defaults1, { role: 'org_publisher' })).toEqual({ success: true });
  });

  it('makes default only groups it could add members to itself', async () => {
    const group = async (token: string) => {
      const body = await post('community/createGroup', { title: `Defaults ${randomUUID().slice(0, 8)}` }, token);
      expect(body.success, JSON.stringify(body)).toBe(true);
      return body.group as { id: string; title: string };
    };
    const theirs = await group(tokens.admin);
    const own = await group(tokens.defaults1);
    expectForbidden(
      await setDefaults(tokens.defaults1, { groups: `${own.id},${theirs.id}` }),
      `You cannot make '${theirs.title}' a default group: only its owner, its managers or holders of portal:admin:assignToGroups add members to it.`,
    );
    expect(await defaults()).toEqual([]);
    expect(await setDefaults(tokens.defaults1, { groups: own.id })).toEqual({ success: true });
    expect((await defaults())[0].groups).toEqual([own.id]);
    // A default group a default administrator chose stays when the others change.
    expect(await setDefaults(tokens.admin, { groups: `${own.id},${theirs.id}` })).toEqual({ success: true });
    expect(await setDefaults(tokens.defaults1, { role: 'org_user' })).toEqual({ success: true });
    expect((await defaults())[0]).toEqual({ role: 'org_user', groups: [own.id, theirs.id] });
  });

  it('a default administrator sets any role but an administrator one', async () => {
    expect(await setDefaults(tokens.admin, { role: BIG })).toMatchObject({ error: { code: 400, fieldErrors: { role: expect.any(String) } } });
    expect(await setDefaults(tokens.admin, { role: SMALL })).toMatchObject({ error: { code: 400 } });
    expect(await setDefaults(tokens.admin, { role: 'org_publisher' })).toEqual({ success: true });
  });
});

describe("createUser by a member holding inviteUsers and a User's privileges", () => {
  const createUser = (token: string, username: string, extra: Record<string, string> = {}) =>
    post('/portaladmin/security/users/createUser', { username, password: 'Escalation.Check.8642', email: `${username}@example.com`, ...extra }, token);
  const exists = async (username: string) => (await svc.db.query('SELECT 1 FROM users WHERE username = $1', [username])).length > 0;

  it('creates a member with a role it holds entirely', async () => {
    expect(await createUser(tokens.inviter1, 'esc.user', { role: 'org_user' })).toEqual({ status: 'success', username: 'esc.user' });
    expect(await roleOf('esc.user')).toEqual({ role: 'org_user', role_id: null });
  });

  it('cannot create an account holding more than it holds (it chooses the password)', async () => {
    const events = await eventCount('add');
    expectForbidden(await createUser(tokens.inviter1, 'esc.publisher', { role: 'org_publisher' }), /^You cannot assign the role 'Publisher'/);
    expectForbidden(await createUser(tokens.inviter1, 'esc.big', { role: BIG }), /portal:admin:manageRoles/);
    expectForbidden(await createUser(tokens.inviter1, 'esc.admin', { role: 'org_admin' }), 'Only default administrators can make a member an administrator.');
    for (const u of ['esc.publisher', 'esc.big', 'esc.admin']) expect(await exists(u)).toBe(false);
    expect(await eventCount('add')).toBe(events);
  });

  it('nor through the new-member default role', async () => {
    expect(await setDefaultsAsAdmin('org_publisher')).toEqual({ success: true });
    expectForbidden(await createUser(tokens.inviter1, 'esc.default'), /^You cannot assign the role 'Publisher'/);
    expect(await exists('esc.default')).toBe(false);
    // The default administrator creates such a member as before.
    expect(await createUser(tokens.admin, 'esc.default')).toEqual({ status: 'success', username: 'esc.default' });
    expect(await roleOf('esc.default')).toEqual({ role: 'org_publisher', role_id: null });
  });

  const setDefaultsAsAdmin = (role: string) => post(`portals/${svc.orgId}/setUserDefaultSettings`, { role }, tokens.admin);
});
