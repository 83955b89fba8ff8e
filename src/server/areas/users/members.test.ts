/**
 * Reading members: `community/self`, `community/users/<u>`, `portals/<orgId>/users` and
 * `portals/self/users/search` — who sees whom, and paging, sorting and filtering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { BASE_ROLE_PRIVILEGES, BUILT_IN_ROLES, PRIVILEGES } from '../../../shared/privileges.ts';

const VIEWER = 'iAAAAAAAAAAAAAAA';
/** Extra members put straight into the partner organization to exercise paging past 100. */
const EXTRA = 120;

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, first_name, last_name, full_name, email, role, created, modified)
     SELECT md5('bulk' || i), $1, 'bulk' || lpad(i::text, 3, '0'), '!', 'Bulk', 'Member ' || i, 'Bulk Member ' || i,
            'bulk' || i || '@partner.example.com', 'org_user', 1000 + i, 1000 + i
       FROM generate_series(1, ${EXTRA}) AS i`,
    [svc.partnerOrgId],
  );
});
afterAll(() => svc.close());

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
    for (const key of ['id', 'fullName', 'firstName', 'lastName', 'userType', 'lastLogin', 'orgId', 'privileges', 'userLicenseTypeId', 'disabled', 'created', 'modified', 'provider']) {
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
    expect(other.error).toEqual({ code: 400, message: "User 'user1' does not exist or is inaccessible.", details: ["User 'user1' does not exist or is inaccessible."] });
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

  it('answers portals/self/users for the caller\'s organization', async () => {
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
