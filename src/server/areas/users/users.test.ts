/**
 * Members, on one service: reading them (`community/self`, `community/users/<u>`,
 * `portals/<orgId>/users`, `portals/self/users/search`), `updateUserRole`, and `createUser`.
 * Each part leaves the others' data as it found it: role changes are undone after every test,
 * and accounts are created in an organization of their own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { BASE_ROLE_PRIVILEGES, BUILT_IN_ROLES, PRIVILEGES } from '../../../shared/privileges.ts';
import { insertOrg } from '../portals/repo.ts';
import { insertBuiltInRoles } from '../roles/repo.ts';
import { createUser as createAccount } from './service.ts';

const VIEWER = 'iAAAAAAAAAAAAAAA';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const insertRole = (orgId: string, id: string, name: string, privileges: string[]) =>
  svc.db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
    orgId,
    id,
    name,
    '',
    privileges,
  ]);

describe('reading members', () => {
  /** Extra members put straight into the partner organization to exercise paging past 100. */
  const EXTRA = 120;

  beforeAll(async () => {
    await svc.db.query(
      `INSERT INTO users (id, org_id, username, password_hash, first_name, last_name, full_name, email, role, created, modified)
       SELECT md5('bulk' || i), $1, 'bulk' || lpad(i::text, 3, '0'), '!', 'Bulk', 'Member ' || i, 'Bulk Member ' || i,
              'bulk' || i || '@partner.example.com', 'org_user', 1000 + i, 1000 + i
         FROM generate_series(1, ${EXTRA}) AS i`,
      [svc.partnerOrgId],
    );
  });

  async function get(path: string, token?: string, params: Record<string, string> = {}) {
    const qs = new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) });
    const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${qs}` });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  const names = (list: { username: string }[]) => list.map((u) => u.username);
  const sorted = (a: string[]) => [...a].sort();

  describe('community/self', () => {
    it('shows the default administrator as org_admin with no roleId key, holding the whole catalogue', async () => {
      const me = await get('community/self', tokens.admin);
      expect(me).toMatchObject({ username: 'admin', role: 'org_admin', orgId: svc.orgId, email: 'admin@demo.example.com', groups: [] });
      expect(Object.keys(me)).not.toContain('roleId');
      expect(me.privileges).toEqual(sorted(PRIVILEGES.map((p) => p.id)));
    });

    it('shows viewer1 as org_user with the Viewer role id and only its privileges', async () => {
      const me = await get('community/self', tokens.viewer1);
      expect(me).toMatchObject({ username: 'viewer1', role: 'org_user', roleId: VIEWER, userLicenseTypeId: 'viewerUT', level: '1' });
      expect(me.privileges).toEqual(sorted([...BUILT_IN_ROLES[0].privileges]));
    });

    it('shows base-role members with their base privileges, sorted', async () => {
      const user = await get('community/self', tokens.user1);
      expect(user.role).toBe('org_user');
      expect(Object.keys(user)).not.toContain('roleId');
      expect(user.privileges).toEqual(sorted([...BASE_ROLE_PRIVILEGES.org_user]));
      const publisher = await get('community/self', tokens.publisher1);
      expect(publisher.role).toBe('org_publisher');
      expect(publisher.privileges).toEqual(sorted([...BASE_ROLE_PRIVILEGES.org_publisher]));
      expect(publisher.level).toBe('2');
    });

    it('carries the fields rest-js and the console read', async () => {
      const me = await get('community/self', tokens.user1);
      for (const key of [
        'id',
        'fullName',
        'firstName',
        'lastName',
        'userType',
        'lastLogin',
        'orgId',
        'privileges',
        'userLicenseTypeId',
        'disabled',
        'created',
        'modified',
        'provider',
      ]) {
        expect(me, key).toHaveProperty(key);
      }
      expect(me).toMatchObject({ fullName: 'Uma User', firstName: 'Uma', lastName: 'User', disabled: false, provider: 'arcgis' });
      expect(me.id).toMatch(/^[0-9a-f]{32}$/);
    });
  });

  describe('community/users/<username>', () => {
    it('shows a member to another member of the organization, without the email', async () => {
      const body = await get('community/users/publisher1', tokens.user1);
      expect(body).toMatchObject({ username: 'publisher1', role: 'org_publisher', orgId: svc.orgId });
      expect(body).not.toHaveProperty('email');
    });

    it('shows the email to the member themself and to administrators', async () => {
      expect((await get('community/users/user1', tokens.user1)).email).toBe('user1@demo.example.com');
      expect((await get('community/users/user1', tokens.admin)).email).toBe('user1@demo.example.com');
    });

    it('finds the member whatever the case of the name in the URL', async () => {
      expect((await get('community/users/USER1', tokens.admin)).username).toBe('user1');
    });

    it('lets viewer1 (viewOrgUsers) see members', async () => {
      const body = await get('community/users/admin', tokens.viewer1);
      expect(body.username).toBe('admin');
      expect(body).not.toHaveProperty('email');
    });

    it('hides members from another organization exactly as it hides unknown names', async () => {
      const other = await get('community/users/user1', tokens.partner_admin);
      expect(other.error).toEqual({
        code: 400,
        message: "User 'user1' does not exist or is inaccessible.",
        details: ["User 'user1' does not exist or is inaccessible."],
      });
      const unknown = await get('community/users/nobody_at_all', tokens.partner_admin);
      expect(unknown.error.message).toBe("User 'nobody_at_all' does not exist or is inaccessible.");
      expect((await get('community/users/partner_admin', tokens.user1)).error.code).toBe(400);
    });

    it('hides members from anonymous callers', async () => {
      const body = await get('community/users/admin');
      expect(body.error).toMatchObject({ code: 400, message: "User 'admin' does not exist or is inaccessible." });
    });
  });

  describe('portals/<orgId>/users', () => {
    const list = (params: Record<string, string> = {}, token = tokens.admin, org = svc.orgId) => get(`portals/${org}/users`, token, params);

    it('pages the members with a 1-based start and nextStart', async () => {
      const first = await list({ num: '3' });
      expect(first).toMatchObject({ total: 4, start: 1, num: 3, nextStart: 4 });
      expect(names(first.users)).toEqual(['admin', 'publisher1', 'user1']);
      const last = await list({ num: '3', start: '4' });
      expect(last).toMatchObject({ total: 4, start: 4, num: 1, nextStart: -1 });
      expect(names(last.users)).toEqual(['viewer1']);
    });

    it('ends with nextStart -1 when the page reaches the last member exactly', async () => {
      expect(await list({ num: '2', start: '3' })).toMatchObject({ total: 4, start: 3, num: 2, nextStart: -1 });
      expect(await list({ num: '4' })).toMatchObject({ total: 4, nextStart: -1 });
    });

    it('answers an empty page past the end', async () => {
      const body = await list({ start: '9' });
      expect(body).toMatchObject({ total: 4, start: 9, num: 0, nextStart: -1, users: [] });
    });

    it('defaults to start 1 and ten members', async () => {
      const body = await list({}, tokens.partner_admin, svc.partnerOrgId);
      expect(body).toMatchObject({ total: EXTRA + 1, start: 1, num: 10, nextStart: 11 });
    });

    it('clamps num to 100', async () => {
      const body = await list({ num: '500' }, tokens.partner_admin, svc.partnerOrgId);
      expect(body.users).toHaveLength(100);
      expect(body).toMatchObject({ total: EXTRA + 1, start: 1, nextStart: 101 });
      const rest = await list({ num: '500', start: '101' }, tokens.partner_admin, svc.partnerOrgId);
      expect(rest.users).toHaveLength(EXTRA + 1 - 100);
      expect(rest.nextStart).toBe(-1);
      // Every member exactly once across the pages.
      expect(new Set([...names(body.users), ...names(rest.users)]).size).toBe(EXTRA + 1);
    });

    it('refuses a start or num that is not a whole number in range', async () => {
      for (const params of <Record<string, string>[]>[{ start: '0' }, { start: 'x' }, { num: '-1' }, { num: 'ten' }]) {
        const body = await list(params);
        expect(body.error?.code, JSON.stringify(params)).toBe(400);
        expect(Object.keys(body.error.fieldErrors)).toEqual(Object.keys(params));
      }
    });

    it('sorts by username, fullname, created and role in either order', async () => {
      expect(names((await list({ sortField: 'username', sortOrder: 'desc' })).users)).toEqual(['viewer1', 'user1', 'publisher1', 'admin']);
      // Pat Publisher, Portal Administrator, Uma User, Vic Viewer.
      expect(names((await list({ sortField: 'fullname' })).users)).toEqual(['publisher1', 'admin', 'user1', 'viewer1']);
      expect(names((await list({ sortField: 'fullName', sortOrder: 'DESC' })).users)).toEqual(['viewer1', 'user1', 'admin', 'publisher1']);
      expect(names((await list({ sortField: 'role' })).users).slice(0, 2)).toEqual(['admin', 'publisher1']);
      const byCreated = await list({ sortField: 'created', sortOrder: 'desc', num: '3' }, tokens.partner_admin, svc.partnerOrgId);
      expect(names(byCreated.users)).toEqual(['partner_admin', 'bulk120', 'bulk119']);
    });

    it('refuses an unknown sortField or sortOrder, naming it', async () => {
      expect((await list({ sortField: 'email' })).error.fieldErrors).toHaveProperty('sortField');
      expect((await list({ sortOrder: 'up' })).error.fieldErrors).toHaveProperty('sortOrder');
    });

    it('filters by base role (members without a custom role) and by custom role id', async () => {
      expect(names((await list({ role: 'org_admin' })).users)).toEqual(['admin']);
      expect(names((await list({ role: 'org_user' })).users)).toEqual(['user1']);
      expect(names((await list({ role: VIEWER })).users)).toEqual(['viewer1']);
      expect(names((await list({ role: `org_publisher,${VIEWER}` })).users)).toEqual(['publisher1', 'viewer1']);
      const none = await list({ role: 'iBBBBBBBBBBBBBBB' });
      expect(none).toMatchObject({ total: 0, users: [], nextStart: -1 });
    });

    it('filters by username and fullname substring, case-insensitively', async () => {
      expect(names((await list({ username: 'ER1' })).users)).toEqual(['publisher1', 'user1', 'viewer1']);
      expect(names((await list({ fullname: 'vic' })).users)).toEqual(['viewer1']);
      // LIKE wildcards are taken literally.
      expect((await list({ username: '%' })).total).toBe(0);
      expect((await list({ username: '_' })).total).toBe(0);
    });

    it('combines name filters with OR, or with AND when applyFilterIntersection is true', async () => {
      expect(names((await list({ username: 'admin', fullname: 'Uma' })).users)).toEqual(['admin', 'user1']);
      expect(names((await list({ username: 'admin', fullname: 'Uma', applyFilterIntersection: 'false' })).users)).toEqual(['admin', 'user1']);
      expect(names((await list({ username: 'admin', fullname: 'Uma', applyFilterIntersection: 'true' })).users)).toEqual([]);
      expect(names((await list({ username: 'er1', fullname: 'Vic', applyFilterIntersection: 'true' })).users)).toEqual(['viewer1']);
    });

    it('combines a role filter with name filters', async () => {
      expect(names((await list({ role: 'org_user', username: 'er1' })).users)).toEqual(['user1']);
    });

    it('filters by free text q over username, full name and email', async () => {
      expect(names((await list({ q: 'Uma' })).users)).toEqual(['user1']);
      expect(names((await list({ q: 'demo.example.com' })).users)).toEqual(['admin', 'publisher1', 'user1', 'viewer1']);
      expect(names((await list({ q: 'viewer vic' })).users)).toEqual(['viewer1']);
      expect((await list({ q: 'nobody' })).total).toBe(0);
    });

    it('shows emails to administrators only (and to each member their own)', async () => {
      const asAdmin = await list();
      expect(asAdmin.users.every((u: { email?: string }) => typeof u.email === 'string')).toBe(true);
      const asUser = await list({}, tokens.user1);
      for (const u of asUser.users) {
        if (u.username === 'user1') expect(u.email).toBe('user1@demo.example.com');
        else expect(u).not.toHaveProperty('email');
      }
    });

    it("answers portals/self/users for the caller's organization", async () => {
      expect(await get('portals/self/users', tokens.admin, { num: '2' })).toEqual(await list({ num: '2' }));
      expect(names((await get('portals/self/users', tokens.partner_admin, { num: '1' })).users)).toEqual(['bulk001']);
    });

    it('lets viewer1 (viewOrgUsers) list members', async () => {
      expect((await list({}, tokens.viewer1)).total).toBe(4);
    });

    it("refuses another organization's members with 403", async () => {
      const body = await list({}, tokens.partner_admin, svc.orgId);
      expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
      expect((await list({}, tokens.admin, svc.partnerOrgId)).error.code).toBe(403);
    });

    it('refuses a member without viewOrgUsers with 403', async () => {
      await svc.db.query(
        `INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified)
         VALUES ($1, 'rNOVIEWAAAAAAAAA', 'No member view', '', $2, false, 0, 0)`,
        [svc.orgId, ['portal:user:createItem']],
      );
      await svc.db.query(`UPDATE users SET role_id = 'rNOVIEWAAAAAAAAA' WHERE username = 'publisher1'`);
      try {
        expect((await list({}, tokens.publisher1)).error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
        expect((await get('community/users/admin', tokens.publisher1)).error.code).toBe(400);
        // Their own record stays visible.
        expect((await get('community/users/publisher1', tokens.publisher1)).username).toBe('publisher1');
      } finally {
        await svc.db.query(`UPDATE users SET role_id = NULL WHERE username = 'publisher1'`);
      }
    });

    it('requires a token', async () => {
      expect((await list({}, '')).error).toMatchObject({ code: 499, messageCode: 'GWM_0003' });
    });
  });

  describe('portals/self/users/search', () => {
    const search = (q: string | undefined, token = tokens.admin, params: Record<string, string> = {}) =>
      get('portals/self/users/search', token, { ...(q === undefined ? {} : { q }), ...params });

    it('finds members by role:', async () => {
      const body = await search('role:org_admin');
      expect(body).toMatchObject({ query: 'role:org_admin', total: 1, start: 1, num: 1, nextStart: -1 });
      expect(names(body.results)).toEqual(['admin']);
      expect(names((await search(`role:${VIEWER}`)).results)).toEqual(['viewer1']);
      expect(names((await search(`roleid:${VIEWER}`)).results)).toEqual(['viewer1']);
    });

    it('answers everyone for * and for no q', async () => {
      expect(names((await search('*')).results)).toEqual(['admin', 'publisher1', 'user1', 'viewer1']);
      expect((await search(undefined)).total).toBe(4);
    });

    it('finds members by username:, fullname: (quoted phrases) and free terms, joined by AND', async () => {
      expect(names((await search('username:user1')).results)).toEqual(['user1']);
      expect(names((await search('fullname:"Vic Viewer"')).results)).toEqual(['viewer1']);
      expect(names((await search('Pat')).results)).toEqual(['publisher1']);
      expect(names((await search('username:er1 AND role:org_publisher')).results)).toEqual(['publisher1']);
      expect((await search('username:nobody')).total).toBe(0);
    });

    it('pages and sorts results', async () => {
      const page = await search('*', tokens.admin, { num: '2', start: '2', sortField: 'username', sortOrder: 'desc' });
      expect(page).toMatchObject({ total: 4, start: 2, num: 2, nextStart: 4 });
      expect(names(page.results)).toEqual(['user1', 'publisher1']);
    });

    it("searches only the caller's organization", async () => {
      const body = await search('username:user1', tokens.partner_admin);
      expect(body.total).toBe(0);
      const all = await search('*', tokens.partner_admin, { num: '100' });
      expect(all.total).toBe(EXTRA + 1);
      expect(all.results.every((u: { orgId: string }) => u.orgId === svc.partnerOrgId)).toBe(true);
    });

    it('requires a token', async () => {
      expect((await search('*', '')).error.code).toBe(499);
    });
  });
});

describe('updateUserRole', () => {
  const ROLE_MANAGER = 'rROLEMGRAAAAAAAA';
  const PARTNER_ONLY = 'rPARTNERONLYAAAA';

  beforeAll(async () => {
    // A Publisher's privileges too: one gives only roles one holds entirely (escalation.test.ts).
    await insertRole(svc.orgId, ROLE_MANAGER, 'Role manager', [
      'portal:admin:changeUserRoles',
      'portal:admin:viewUsers',
      ...BASE_ROLE_PRIVILEGES.org_publisher,
    ]);
    await insertRole(svc.partnerOrgId, PARTNER_ONLY, 'Partner role', ['portal:user:viewOrgUsers']);
  });

  /** Every test starts from the demo roles, and the other parts find them as seeded. */
  const resetRoles = async () => {
    await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL, disabled = false WHERE username IN ('admin', 'partner_admin')`);
    await svc.db.query(`UPDATE users SET role = 'org_publisher', role_id = NULL, disabled = false WHERE username = 'publisher1'`);
    await svc.db.query(`UPDATE users SET role = 'org_user', role_id = NULL, disabled = false WHERE username = 'user1'`);
    await svc.db.query(`UPDATE users SET role = 'org_user', role_id = $1, disabled = false WHERE username = 'viewer1'`, [VIEWER]);
  };
  beforeEach(resetRoles);
  afterAll(resetRoles);

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
    return svc.db.query<{
      org_id: string;
      uri: string;
      source: string;
      operation: string;
      subject_id: string;
      username: string;
      user_id: string;
      properties: Record<string, unknown>;
    }>(`SELECT org_id, uri, source, operation, subject_id, username, user_id, properties FROM events WHERE operation = 'updateUserRole' ORDER BY seq`);
  }

  async function self(username: string) {
    const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${tokens[username]}` });
    return res.json();
  }

  describe('default administrator', () => {
    it("makes user1 a publisher; the change shows at once, on user1's existing token too", async () => {
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
      // viewer1 is seeded with the Viewer user type, which does not allow the User role (licenseType.test.ts).
      await svc.db.query(`UPDATE users SET user_license_type_id = 'creatorUT' WHERE username = 'viewer1'`);
      expect(await updateRole(tokens.admin, 'viewer1', 'org_user')).toEqual({ success: true, username: 'viewer1' });
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

    it('requires the member (user) and role', async () => {
      expect((await updateRole(tokens.admin, 'user1', undefined)).error).toMatchObject({ code: 400, fieldErrors: { role: 'is required' } });
      expect((await updateRole(tokens.admin, undefined, 'org_user')).error).toMatchObject({ code: 400, fieldErrors: { user: 'is required' } });
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

    it("accepts portals/self/updateUserRole for the caller's organization", async () => {
      const res = await svc.app.inject({
        method: 'POST',
        url: '/sharing/rest/portals/self/updateUserRole',
        payload: { f: 'json', token: tokens.admin, username: 'user1', role: 'org_publisher' },
      });
      expect(res.json()).toEqual({ success: true, username: 'user1' });
    });
  });

  describe('members without the privilege', () => {
    it.each(['user1', 'publisher1', 'viewer1'])('refuses %s with 403', async (who) => {
      const body = await updateRole(tokens[who], 'user1', 'org_admin');
      expect(body.error).toMatchObject({
        code: 403,
        messageCode: 'GWM_0003',
        message: 'You do not have permissions to access this resource or perform this operation.',
      });
      expect(body.error.details.join(' ')).toContain('portal:admin:changeUserRoles');
      expect(await roleOf('user1')).toEqual({ role: 'org_user', role_id: null });
    });
  });

  describe('the last default administrator', () => {
    it('cannot be demoted (nobody changes their own role)', async () => {
      for (const role of ['org_user', 'org_publisher', VIEWER]) {
        const body = await updateRole(tokens.admin, 'admin', role);
        expect(body.error).toMatchObject({ code: 403, details: ['You cannot change your own role.'] });
      }
      expect(await roleOf('admin')).toEqual({ role: 'org_admin', role_id: null });
    });

    it('can be demoted by another administrator', async () => {
      await updateRole(tokens.admin, 'publisher1', 'org_admin');
      expect(await updateRole(tokens.publisher1, 'admin', 'org_user')).toEqual({ success: true, username: 'admin' });
      expect(await roleOf('admin')).toEqual({ role: 'org_user', role_id: null });
      // The remaining one is now the last, and cannot demote themselves.
      expect((await updateRole(tokens.publisher1, 'publisher1', 'org_user')).error.code).toBe(403);
      expect(await roleOf('publisher1')).toEqual({ role: 'org_admin', role_id: null });
    });

    it('stays when two administrators demote each other at the same moment', async () => {
      await updateRole(tokens.admin, 'publisher1', 'org_admin');
      const defaultAdmins = async () =>
        (await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE org_id = $1 AND role = 'org_admin' AND role_id IS NULL`, [svc.orgId]))[0]
          .n;
      for (let round = 0; round < 5; round++) {
        await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL WHERE username IN ('admin', 'publisher1')`);
        const results = await Promise.all([updateRole(tokens.admin, 'publisher1', 'org_user'), updateRole(tokens.publisher1, 'admin', 'org_user')]);
        expect(
          results.filter((r) => r.success),
          JSON.stringify(results),
        ).toHaveLength(1);
        // The other is refused: as the last administrator, or (when it ran after the first change
        // took effect) because its caller is no longer an administrator.
        expect(
          results.filter((r) => r.error?.code === 400 || r.error?.code === 403),
          JSON.stringify(results),
        ).toHaveLength(1);
        expect(await defaultAdmins()).toBe(1);
      }
    });

    it('does not count a disabled administrator, who may be demoted', async () => {
      await updateRole(tokens.admin, 'publisher1', 'org_admin');
      await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'publisher1'`);
      // One enabled administrator stays either way.
      expect(await updateRole(tokens.admin, 'publisher1', 'org_user')).toEqual({ success: true, username: 'publisher1' });
      expect(await roleOf('publisher1')).toEqual({ role: 'org_user', role_id: null });
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
});

describe('createUser', () => {
  const THIRD = 'ThirdOrgAAAAAAAA';
  const INVITER = 'rINVITERAAAAAAAA';
  const GOOD_PASSWORD = 'Tiger.Lily.4821';
  /** Tokens of the third organization's members. */
  const t: Record<string, string> = {};

  beforeAll(async () => {
    // An organization of its own, seeded the way the service seeds one, so that the accounts
    // created here change nothing the other parts count.
    await svc.db.tx(async (q) => {
      await insertOrg(q, { id: THIRD, name: 'Third Organization', urlKey: 'third', now: Date.now() });
      await insertBuiltInRoles(q, THIRD, Date.now());
    });
    // A Publisher's privileges too: one creates only accounts whose role one holds entirely (escalation.test.ts).
    await insertRole(THIRD, INVITER, 'Inviter', ['portal:admin:inviteUsers', 'portal:admin:viewUsers', ...BASE_ROLE_PRIVILEGES.org_publisher]);
    // third_inviter is a non-default administrator: a custom role that may add members.
    for (const [who, role] of [
      ['admin', 'org_admin'],
      ['publisher', 'org_publisher'],
      ['viewer', VIEWER],
      ['inviter', INVITER],
    ]) {
      await createAccount(svc.app.portal, null, THIRD, { username: `third_${who}`, password: DEMO_PASSWORD, email: `third_${who}@third.example.com`, role });
      t[who] = await svc.tokenFor(`third_${who}`);
    }
  });

  async function createUser(token: string | undefined, params: Record<string, string>) {
    const payload: Record<string, string> = { f: 'json', ...params };
    if (token) payload.token = token;
    const res = await svc.app.inject({ method: 'POST', url: '/portaladmin/security/users/createUser', payload });
    expect(res.statusCode).toBe(200);
    return res.json();
  }

  const member = (username: string, extra: Record<string, string> = {}) => ({
    username,
    password: GOOD_PASSWORD,
    email: `${username}@third.example.com`,
    ...extra,
  });

  async function userRow(username: string) {
    const [row] = await svc.db.query<{ org_id: string; role: string; role_id: string | null; password_hash: string }>(
      'SELECT org_id, role, role_id, password_hash FROM users WHERE lower(username) = lower($1)',
      [username],
    );
    return row;
  }

  async function signIn(username: string, password: string) {
    const res = await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username, password, f: 'json' } });
    return res.json();
  }

  describe('an administrator creates a member', () => {
    it('who can then sign in and sees their record', async () => {
      const body = await createUser(t.admin, member('new.member1', { firstname: 'Nora', lastname: 'Newman' }));
      expect(body).toEqual({ status: 'success', username: 'new.member1' });
      const { token } = await signIn('new.member1', GOOD_PASSWORD);
      expect(token).toEqual(expect.any(String));
      const me = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();
      expect(me).toMatchObject({
        username: 'new.member1',
        orgId: THIRD,
        role: 'org_user',
        fullName: 'Nora Newman',
        firstName: 'Nora',
        lastName: 'Newman',
        email: 'new.member1@third.example.com',
        userLicenseTypeId: 'creatorUT',
      });
      expect(me).not.toHaveProperty('roleId');
    });

    it('with a base role or a custom role', async () => {
      await createUser(t.admin, member('new.publisher', { role: 'org_publisher' }));
      expect(await userRow('new.publisher')).toMatchObject({ role: 'org_publisher', role_id: null });
      await createUser(t.admin, member('new.viewer', { role: VIEWER }));
      expect(await userRow('new.viewer')).toMatchObject({ role: 'org_user', role_id: VIEWER });
      const { token } = await signIn('new.viewer', GOOD_PASSWORD);
      const me = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();
      expect(me).toMatchObject({ role: 'org_user', roleId: VIEWER, userLicenseTypeId: 'viewerUT' });
    });

    it('including another default administrator', async () => {
      await createUser(t.admin, member('second.admin', { role: 'org_admin' }));
      expect(await userRow('second.admin')).toMatchObject({ role: 'org_admin', role_id: null });
    });

    it("in the caller's own organization", async () => {
      await createUser(t.admin, member('third.member'));
      expect((await userRow('third.member')).org_id).toBe(THIRD);
      const listed = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/portals/self/users?f=json&num=100&token=${t.admin}` })).json();
      expect(listed.users.map((u: { username: string }) => u.username)).toContain('third.member');
      expect(listed.users.every((u: { orgId: string }) => u.orgId === THIRD)).toBe(true);
    });

    it('stores the password as a scrypt PHC string only', async () => {
      await createUser(t.admin, member('hash.check'));
      const { password_hash } = await userRow('hash.check');
      expect(password_hash).toMatch(/^\$scrypt\$ln=\d+,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
      expect(password_hash).not.toContain(GOOD_PASSWORD);
      // Two members with the same password get different salts.
      await createUser(t.admin, member('hash.check2'));
      expect((await userRow('hash.check2')).password_hash).not.toBe(password_hash);
    });

    it("writes a user 'add' event", async () => {
      await createUser(t.admin, member('event.check', { role: 'org_publisher' }));
      const rows = await svc.db.query<{ org_id: string; source: string; operation: string; uri: string; username: string; properties: unknown }>(
        `SELECT org_id, source, operation, uri, username, properties FROM events WHERE subject_id = 'event.check'`,
      );
      expect(rows).toEqual([
        { org_id: THIRD, source: 'user', operation: 'add', uri: '/users/event.check/add', username: 'third_admin', properties: { role: ['org_publisher'] } },
      ]);
    });
  });

  describe('refusals', () => {
    it('a taken username, whatever its case, with fieldErrors.username', async () => {
      for (const username of ['user1', 'USER1', 'Admin', 'partner_admin']) {
        const body = await createUser(t.admin, member(username));
        expect(body.error, username).toMatchObject({ code: 400, message: 'Unable to create user.' });
        expect(body.error.fieldErrors).toHaveProperty('username');
      }
      // The existing account is untouched: its password still works.
      expect((await signIn('user1', DEMO_PASSWORD)).token).toEqual(expect.any(String));
    });

    it('the same new name asked for several times at once: one account, the others refused as taken', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(t.admin, member(i % 2 ? 'Race.Name1' : 'race.name1'))));
      expect(
        results.filter((r) => r.status === 'success'),
        JSON.stringify(results),
      ).toHaveLength(1);
      for (const r of results.filter((r) => r.error)) {
        expect(r.error).toMatchObject({ code: 400, message: 'Unable to create user.' });
        expect(r.error.fieldErrors).toHaveProperty('username');
      }
      const [{ n }] = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE lower(username) = 'race.name1'`);
      expect(n).toBe(1);
    });

    it.each([
      ['too short', 'Ab1.xyz'],
      ['without a digit', 'NoDigitsHere'],
      ['without a letter', '1234567890'],
      ['equal to the username', 'Weak.Member9'],
      ['a common password', 'Password123'],
      ['a common password in other case', 'QWERTY123'],
    ])('a password %s, naming password', async (_why, password) => {
      const body = await createUser(t.admin, { username: 'weak.member9', password, email: 'weak@third.example.com' });
      expect(body.error).toMatchObject({ code: 400 });
      expect(Object.keys(body.error.fieldErrors)).toEqual(['password']);
      expect(body.error.details.join(' ')).toContain("'password'");
      expect(await userRow('weak.member9')).toBeUndefined();
    });

    it.each(['not-an-email', 'a@', '@example.com', 'two@@example.com'])('a bad email %s', async (email) => {
      const body = await createUser(t.admin, member('bad.email1', { email }));
      expect(body.error).toMatchObject({ code: 400 });
      expect(Object.keys(body.error.fieldErrors)).toEqual(['email']);
      expect(await userRow('bad.email1')).toBeUndefined();
    });

    it('a missing email or password', async () => {
      expect((await createUser(t.admin, { username: 'missing.one', password: GOOD_PASSWORD })).error.fieldErrors).toEqual({ email: 'is required' });
      expect((await createUser(t.admin, { username: 'missing.one', email: 'm@third.example.com' })).error.fieldErrors).toEqual({ password: 'is required' });
    });

    it.each(['abc', '-leading', 'has space', 'semi;colon', 'x'.repeat(129)])('a bad username %s', async (username) => {
      const body = await createUser(t.admin, member(username));
      expect(body.error).toMatchObject({ code: 400 });
      expect(body.error.fieldErrors).toHaveProperty('username');
    });

    it('an unknown role, or a role of another organization, naming role', async () => {
      for (const role of ['org_superuser', INVITER]) {
        const token = role === INVITER ? tokens.partner_admin : t.admin;
        const body = await createUser(token, member('bad.role1', { role }));
        expect(body.error, role).toMatchObject({ code: 400 });
        expect(body.error.fieldErrors).toHaveProperty('role');
      }
      expect(await userRow('bad.role1')).toBeUndefined();
    });

    it('an unknown user type', async () => {
      expect((await createUser(t.admin, member('bad.type1', { userLicenseTypeId: 'superUT' }))).error.fieldErrors).toHaveProperty('userLicenseTypeId');
    });

    it.each(['publisher', 'viewer'])('third_%s, who is no administrator (403)', async (who) => {
      const body = await createUser(t[who], member(`by.${who}`));
      expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
      expect(await userRow(`by.${who}`)).toBeUndefined();
    });

    it('anonymous callers (499)', async () => {
      expect((await createUser(undefined, member('by.nobody'))).error).toMatchObject({ code: 499, messageCode: 'GWM_0003' });
    });
  });

  describe('a non-default administrator (custom role with inviteUsers)', () => {
    it('creates members with ordinary roles', async () => {
      expect(await createUser(t.inviter, member('invited.one'))).toEqual({ status: 'success', username: 'invited.one' });
      expect(await createUser(t.inviter, member('invited.two', { role: 'org_publisher' }))).toEqual({ status: 'success', username: 'invited.two' });
    });

    it('cannot create an administrator (403)', async () => {
      const body = await createUser(t.inviter, member('invited.admin', { role: 'org_admin' }));
      expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
      expect(await userRow('invited.admin')).toBeUndefined();
    });
  });
});
