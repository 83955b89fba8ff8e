/** `portals/<orgId>/updateUserRole`: who may give whom which role, and the event it writes. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { BUILT_IN_ROLES } from '../../../shared/privileges.ts';

const VIEWER = 'iAAAAAAAAAAAAAAA';
const ROLE_MANAGER = 'rROLEMGRAAAAAAAA';
const PARTNER_ONLY = 'rPARTNERONLYAAAA';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  const insertRole = 'INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)';
  await svc.db.query(insertRole, [svc.orgId, ROLE_MANAGER, 'Role manager', 'Changes member roles', ['portal:admin:changeUserRoles', 'portal:admin:viewUsers', 'portal:user:viewOrgUsers']]);
  await svc.db.query(insertRole, [svc.partnerOrgId, PARTNER_ONLY, 'Partner role', '', ['portal:user:viewOrgUsers']]);
});
afterAll(() => svc.close());

/** Every test starts from the demo roles. */
beforeEach(async () => {
  await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL, disabled = false WHERE username IN ('admin', 'partner_admin')`);
  await svc.db.query(`UPDATE users SET role = 'org_publisher', role_id = NULL, disabled = false WHERE username = 'publisher1'`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = NULL, disabled = false WHERE username = 'user1'`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = $1, disabled = false WHERE username = 'viewer1'`, [VIEWER]);
});

async function updateRole(token: string, username: string | undefined, role: string | undefined, org = svc.orgId) {
  const payload: Record<string, string> = { f: 'json', token };
  if (username !== undefined) payload.username = username;
  if (role !== undefined) payload.role = role;
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/portals/${org}/updateUserRole`, payload });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function roleOf(username: string) {
  const [row] = await svc.db.query<{ role: string; role_id: string | null }>('SELECT role, role_id FROM users WHERE username = $1', [username]);
  return row;
}

async function roleEvents() {
  return svc.db.query<{ org_id: string; uri: string; source: string; operation: string; subject_id: string; username: string; user_id: string; properties: Record<string, unknown> }>(
    `SELECT org_id, uri, source, operation, subject_id, username, user_id, properties FROM events WHERE operation = 'updateUserRole' ORDER BY seq`,
  );
}

async function self(username: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${tokens[username]}` });
  return res.json();
}

describe('default administrator', () => {
  it('makes user1 a publisher; the change shows at once, on user1\'s existing token too', async () => {
    expect(await updateRole(tokens.admin, 'user1', 'org_publisher')).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_publisher', role_id: null });
    const me = await self('user1');
    expect(me.role).toBe('org_publisher');
    expect(me).not.toHaveProperty('roleId');
    expect(me.privileges).toContain('portal:publisher:publishFeatures');
  });

  it('writes a user event in the same change', async () => {
    const before = (await roleEvents()).length;
    await updateRole(tokens.admin, 'user1', 'org_publisher');
    const events = await roleEvents();
    expect(events).toHaveLength(before + 1);
    const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    expect(events.at(-1)).toEqual({
      org_id: svc.orgId,
      uri: '/users/user1/updateUserRole',
      source: 'user',
      operation: 'updateUserRole',
      subject_id: 'user1',
      username: 'admin',
      user_id: admin.id,
      properties: { userRoleUpdatedTo: ['org_publisher'] },
    });
  });

  it('gives user1 a custom role (the Viewer) by its id', async () => {
    expect(await updateRole(tokens.admin, 'user1', VIEWER)).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: VIEWER });
    const me = await self('user1');
    expect(me).toMatchObject({ role: 'org_user', roleId: VIEWER });
    expect(me.privileges).toEqual([...BUILT_IN_ROLES[0].privileges].sort());
    expect((await roleEvents()).at(-1)?.properties).toEqual({ userRoleUpdatedTo: [VIEWER] });
  });

  it('takes a member from a custom role back to a base role (roleId disappears)', async () => {
    await updateRole(tokens.admin, 'viewer1', 'org_user');
    expect(await roleOf('viewer1')).toEqual({ role: 'org_user', role_id: null });
    expect(Object.keys(await self('viewer1'))).not.toContain('roleId');
  });

  it('accepts the member name in any case', async () => {
    expect(await updateRole(tokens.admin, 'USER1', 'org_publisher')).toEqual({ success: true, username: 'user1' });
  });

  it('answers success without an event when the role does not change', async () => {
    const before = (await roleEvents()).length;
    expect(await updateRole(tokens.admin, 'publisher1', 'org_publisher')).toEqual({ success: true, username: 'publisher1' });
    expect(await roleEvents()).toHaveLength(before);
  });

  it('changes nothing when the event cannot be written (one transaction)', async () => {
    const before = (await roleEvents()).length;
    // NOT VALID: earlier rows stay; only new role events are refused.
    await svc.db.query(`ALTER TABLE events ADD CONSTRAINT refuse_role_events CHECK (operation <> 'updateUserRole') NOT VALID`);
    try {
      const body = await updateRole(tokens.admin, 'user1', 'org_publisher');
      expect(body.error).toMatchObject({ code: 500 });
    } finally {
      await svc.db.query('ALTER TABLE events DROP CONSTRAINT refuse_role_events');
    }
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
    expect(await roleEvents()).toHaveLength(before);
  });
});

describe('bad requests', () => {
  it('refuses an unknown role with 400 naming role, and changes nothing', async () => {
    const before = (await roleEvents()).length;
    const body = await updateRole(tokens.admin, 'user1', 'org_superuser');
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.details[0]).toMatch(/^'role' /);
    expect(body.error.fieldErrors).toHaveProperty('role');
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
    expect(await roleEvents()).toHaveLength(before);
  });

  it("refuses another organization's custom role id", async () => {
    const body = await updateRole(tokens.admin, 'user1', PARTNER_ONLY);
    expect(body.error.fieldErrors).toHaveProperty('role');
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
  });

  it('requires username and role', async () => {
    expect((await updateRole(tokens.admin, 'user1', undefined)).error).toMatchObject({ code: 400, fieldErrors: { role: 'is required' } });
    expect((await updateRole(tokens.admin, undefined, 'org_user')).error).toMatchObject({ code: 400, fieldErrors: { username: 'is required' } });
  });

  it('refuses an unknown member', async () => {
    const body = await updateRole(tokens.admin, 'nobody_here', 'org_user');
    expect(body.error).toMatchObject({ code: 400, message: "User 'nobody_here' does not exist or is inaccessible." });
  });

  it("refuses another organization's member as if unknown, and leaves them alone", async () => {
    const body = await updateRole(tokens.admin, 'partner_admin', 'org_user');
    expect(body.error).toMatchObject({ code: 400, message: "User 'partner_admin' does not exist or is inaccessible." });
    expect(await roleOf('partner_admin')).toEqual({ role: 'org_admin', role_id: null });
  });

  it("refuses to work in another organization's path (403)", async () => {
    const body = await updateRole(tokens.admin, 'partner_admin', 'org_user', svc.partnerOrgId);
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    expect((await updateRole(tokens.partner_admin, 'user1', 'org_admin')).error.code).toBe(403);
    expect(await roleOf('partner_admin')).toEqual({ role: 'org_admin', role_id: null });
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
  });

  it('accepts portals/self/updateUserRole for the caller\'s organization', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/sharing/rest/portals/self/updateUserRole', payload: { f: 'json', token: tokens.admin, username: 'user1', role: 'org_publisher' } });
    expect(res.json()).toEqual({ success: true, username: 'user1' });
  });
});

describe('members without the privilege', () => {
  it.each(['user1', 'publisher1', 'viewer1'])('refuses %s with 403', async (who) => {
    const body = await updateRole(tokens[who], 'user1', 'org_admin');
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003', message: 'You do not have permissions to access this resource or perform this operation.' });
    expect(body.error.details.join(' ')).toContain('portal:admin:changeUserRoles');
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
  });
});

describe('the last default administrator', () => {
  it('cannot be demoted', async () => {
    for (const role of ['org_user', 'org_publisher', VIEWER]) {
      const body = await updateRole(tokens.admin, 'admin', role);
      expect(body.error).toMatchObject({ code: 400, message: 'Unable to update the user role.' });
      expect(body.error.fieldErrors).toHaveProperty('role');
      expect(body.error.details[0]).toMatch(/last administrator/);
    }
    expect(await roleOf('admin')).toEqual({ role: 'org_admin', role_id: null });
  });

  it('can be demoted once there is another administrator', async () => {
    await updateRole(tokens.admin, 'publisher1', 'org_admin');
    expect(await updateRole(tokens.admin, 'admin', 'org_user')).toEqual({ success: true, username: 'admin' });
    expect(await roleOf('admin')).toEqual({ role: 'org_user', role_id: null });
    // The remaining one is now the last.
    expect((await updateRole(tokens.publisher1, 'publisher1', 'org_user')).error.message).toBe('Unable to update the user role.');
  });

  it('stays when two administrators demote each other at the same moment', async () => {
    await updateRole(tokens.admin, 'publisher1', 'org_admin');
    const defaultAdmins = async () =>
      (await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE org_id = $1 AND role = 'org_admin' AND role_id IS NULL`, [svc.orgId]))[0].n;
    for (let round = 0; round < 5; round++) {
      await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL WHERE username IN ('admin', 'publisher1')`);
      const results = await Promise.all([updateRole(tokens.admin, 'publisher1', 'org_user'), updateRole(tokens.publisher1, 'admin', 'org_user')]);
      expect(results.filter((r) => r.success), JSON.stringify(results)).toHaveLength(1);
      // The other is refused: as the last administrator, or (when it ran after the first change
      // took effect) because its caller is no longer an administrator.
      expect(results.filter((r) => r.error?.code === 400 || r.error?.code === 403), JSON.stringify(results)).toHaveLength(1);
      expect(await defaultAdmins()).toBe(1);
    }
  });

  it('does not count a disabled administrator', async () => {
    await updateRole(tokens.admin, 'publisher1', 'org_admin');
    await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'publisher1'`);
    expect((await updateRole(tokens.admin, 'admin', 'org_user')).error.message).toBe('Unable to update the user role.');
    expect(await roleOf('admin')).toEqual({ role: 'org_admin', role_id: null });
  });
});

describe('a custom role holding portal:admin:changeUserRoles', () => {
  beforeEach(async () => {
    await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = $1 WHERE username = 'publisher1'`, [ROLE_MANAGER]);
  });

  it('is not a default administrator', async () => {
    const me = await self('publisher1');
    expect(me.roleId).toBe(ROLE_MANAGER);
  });

  it('can make user1 a publisher, or give a custom role', async () => {
    expect(await updateRole(tokens.publisher1, 'user1', 'org_publisher')).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_publisher', role_id: null });
    expect((await roleEvents()).at(-1)).toMatchObject({ subject_id: 'user1', username: 'publisher1', properties: { userRoleUpdatedTo: ['org_publisher'] } });
    expect(await updateRole(tokens.publisher1, 'user1', VIEWER)).toEqual({ success: true, username: 'user1' });
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: VIEWER });
  });

  it('cannot make anyone an administrator (403)', async () => {
    const body = await updateRole(tokens.publisher1, 'user1', 'org_admin');
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
  });

  it('cannot demote the administrator (403)', async () => {
    const body = await updateRole(tokens.publisher1, 'admin', 'org_user');
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    expect(await roleOf('admin')).toEqual({ role: 'org_admin', role_id: null });
  });

  it('loses the power at once when the role is taken away', async () => {
    await updateRole(tokens.admin, 'publisher1', 'org_publisher');
    expect((await updateRole(tokens.publisher1, 'user1', 'org_publisher')).error.code).toBe(403);
  });
});
