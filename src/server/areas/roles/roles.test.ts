/**
 * Custom roles (`portals/<orgId>/roles`, `createRole`, `roles/<id>[/update|/privileges|/setPrivileges|/delete]`):
 * listing, the name and description limits, privilege validation and implication, the base role
 * members report, who may manage roles, the built-in roles, and the events written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { BUILT_IN_ROLES, PRIVILEGES, PRIVILEGE_IDS } from '../../../shared/privileges.ts';

const VIEWER = 'iAAAAAAAAAAAAAAA';
const DATA_EDITOR = 'iBBBBBBBBBBBBBBB';
const ALL_ADMIN = 'rALLADMINAAAAAAA';
const ADMIN_PRIVILEGES = PRIVILEGES.filter((p) => p.kind === 'administrative').map((p) => p.id);

let svc: TestService;
let clockNow = Date.UTC(2026, 0, 1);
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService({ clock: { now: () => clockNow } });
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  await svc.db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
    svc.orgId,
    ALL_ADMIN,
    'Every administrative privilege',
    '',
    ADMIN_PRIVILEGES,
  ]);
});
afterAll(() => svc.close());

/** Every test starts with the demo members in their demo roles and no new-member defaults. */
beforeEach(async () => {
  clockNow += 60_000;
  await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = NULL WHERE username IN ('admin', 'partner_admin')`);
  await svc.db.query(`UPDATE users SET role = 'org_publisher', role_id = NULL WHERE username = 'publisher1'`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = NULL WHERE username = 'user1'`);
  await svc.db.query(`UPDATE users SET role = 'org_user', role_id = $1 WHERE username = 'viewer1'`, [VIEWER]);
  await svc.db.query('DELETE FROM user_default_settings');
});

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function get(path: string, params: Record<string, string>, token?: string) {
  const query = new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) });
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${query}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const roles = (org = svc.orgId) => `portals/${org}/roles`;

let counter = 0;
/** A new custom role in the demo organization, made through the API by the default administrator. */
async function newRole(privileges?: string[], name = `Role ${++counter} ${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const body = await post(`portals/${svc.orgId}/createRole`, { name, description: 'made by a test' }, tokens.admin);
  expect(body).toEqual({ success: true, id: expect.any(String) });
  if (privileges)
    expect(await post(`${roles()}/${body.id}/setPrivileges`, { privileges: JSON.stringify({ privileges }) }, tokens.admin)).toEqual({ success: true });
  return body.id;
}

async function roleRow(id: string, org = svc.orgId) {
  const [row] = await svc.db.query<{ name: string; description: string; privileges: string[]; modified: number }>(
    'SELECT name, description, privileges, modified FROM roles WHERE org_id = $1 AND id = $2',
    [org, id],
  );
  return row;
}

async function roleEvents(id: string) {
  return svc.db.query<{
    org_id: string;
    uri: string;
    source: string;
    operation: string;
    subject_id: string;
    username: string;
    properties: Record<string, unknown>;
  }>(`SELECT org_id, uri, source, operation, subject_id, username, properties FROM events WHERE source = 'role' AND subject_id = $1 ORDER BY seq`, [id]);
}

async function assign(username: string, role: string) {
  expect(await post(`portals/${svc.orgId}/updateUserRole`, { username, role }, tokens.admin)).toEqual({ success: true, username });
}

const self = (username: string) => get('community/self', {}, tokens[username]);

describe('listing roles', () => {
  it('lists the built-in Data Editor and Viewer first (by name), in the paging envelope, without privileges unless asked', async () => {
    const body = await get(roles(), {}, tokens.admin);
    const [{ n }] = await svc.db.query<{ n: number }>('SELECT count(*) AS n FROM roles WHERE org_id = $1', [svc.orgId]);
    expect(body).toMatchObject({ total: Number(n), start: 1 });
    expect(body.roles.slice(0, 2).map((r: { id: string; name: string }) => [r.id, r.name])).toEqual([
      [DATA_EDITOR, 'Data Editor'],
      [VIEWER, 'Viewer'],
    ]);
    for (const role of body.roles) {
      expect(role).toEqual(
        expect.objectContaining({
          id: expect.any(String),
          name: expect.any(String),
          description: expect.any(String),
          created: expect.any(Number),
          modified: expect.any(Number),
        }),
      );
      expect(role).not.toHaveProperty('privileges');
    }
  });

  it("returnPrivileges=true adds each role's sorted privileges", async () => {
    const id = await newRole(['portal:user:joinGroup', 'features:user:edit']);
    const body = await get(roles(), { returnPrivileges: 'true', num: '100' }, tokens.admin);
    const byId = new Map(body.roles.map((r: { id: string }) => [r.id, r]));
    expect((byId.get(VIEWER) as { privileges: string[] }).privileges).toEqual([...BUILT_IN_ROLES[0].privileges].sort());
    expect((byId.get(DATA_EDITOR) as { privileges: string[] }).privileges).toEqual([...BUILT_IN_ROLES[1].privileges].sort());
    expect((byId.get(id) as { privileges: string[] }).privileges).toEqual(['features:user:edit', 'portal:user:joinGroup']);
    const off = await get(roles(), { returnPrivileges: 'false', num: '100' }, tokens.admin);
    expect(off.roles.some((r: object) => 'privileges' in r)).toBe(false);
  });

  it('carries memberCount: how many members hold each role', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    await assign('user1', id);
    await assign('publisher1', id);
    const body = await get(roles(), { num: '100' }, tokens.admin);
    const count = (rid: string) => body.roles.find((r: { id: string }) => r.id === rid).memberCount;
    expect(count(VIEWER)).toBe(1);
    expect(count(DATA_EDITOR)).toBe(0);
    expect(count(id)).toBe(2);
  });

  it('pages with start and num; nextStart is -1 on the last page', async () => {
    for (let i = 0; i < 3; i++) await newRole();
    const [{ n }] = await svc.db.query<{ n: number }>('SELECT count(*) AS n FROM roles WHERE org_id = $1', [svc.orgId]);
    const total = Number(n);
    expect(total).toBeGreaterThanOrEqual(5);
    const first = await get(roles(), { start: '1', num: '2' }, tokens.admin);
    expect(first).toMatchObject({ total, start: 1, num: 2, nextStart: 3 });
    expect(first.roles).toHaveLength(2);
    const second = await get(roles(), { start: '3', num: '2' }, tokens.admin);
    expect(second.roles.map((r: { id: string }) => r.id)).not.toEqual(expect.arrayContaining(first.roles.map((r: { id: string }) => r.id)));
    const last = await get(roles(), { start: String(total), num: '2' }, tokens.admin);
    expect(last).toMatchObject({ total, start: total, num: 1, nextStart: -1 });
    const all = await get(roles(), { num: '100' }, tokens.admin);
    expect(all.roles).toHaveLength(total);
    expect(all.nextStart).toBe(-1);
  });

  it('every organization has the built-in roles, with the same ids', async () => {
    const body = await get('portals/self/roles', {}, tokens.partner_admin);
    expect(body.roles.filter((r: { id: string }) => r.id === VIEWER || r.id === DATA_EDITOR).map((r: { name: string }) => r.name)).toEqual([
      'Data Editor',
      'Viewer',
    ]);
  });

  it('members of the organization may read roles; another organization may not', async () => {
    expect((await get(roles(), {}, tokens.user1)).roles.length).toBeGreaterThanOrEqual(2);
    expect((await get(`${roles()}/${VIEWER}`, {}, tokens.viewer1)).id).toBe(VIEWER);
    expect((await get(roles(), {}, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await get(`${roles()}/${VIEWER}`, {}, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await get(`${roles()}/${VIEWER}/privileges`, {}, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await get(roles(), {})).error).toMatchObject({ code: 499 });
  });
});

describe('createRole', () => {
  it('answers {success, id}; the role reads back; a role event names it', async () => {
    const body = await post(`portals/${svc.orgId}/createRole`, { name: 'Field Crew', description: 'Edits in the field' }, tokens.admin);
    expect(body).toEqual({ success: true, id: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    expect(await get(`${roles()}/${body.id}`, {}, tokens.admin)).toEqual({
      id: body.id,
      name: 'Field Crew',
      description: 'Edits in the field',
      created: clockNow,
      modified: clockNow,
      builtIn: false,
    });
    expect(await get(`${roles()}/${body.id}/privileges`, {}, tokens.admin)).toEqual({ id: body.id, privileges: [] });
    expect(await roleEvents(body.id)).toEqual([
      {
        org_id: svc.orgId,
        uri: `/roles/${body.id}/add`,
        source: 'role',
        operation: 'add',
        subject_id: body.id,
        username: 'admin',
        properties: { name: ['Field Crew'] },
      },
    ]);
  });

  it("portals/self/createRole creates in the caller's organization", async () => {
    const body = await post('portals/self/createRole', { name: 'Self-made' }, tokens.admin);
    expect(body.success).toBe(true);
    expect((await roleRow(body.id))?.name).toBe('Self-made');
  });

  it('accepts a name of exactly 128 characters and refuses 129, naming `name`', async () => {
    const at = 'n'.repeat(128);
    const ok = await post(`portals/${svc.orgId}/createRole`, { name: at }, tokens.admin);
    expect(ok.success).toBe(true);
    expect((await roleRow(ok.id)).name).toBe(at);
    const below = await post(`portals/${svc.orgId}/createRole`, { name: 'm'.repeat(127) }, tokens.admin);
    expect(below.success).toBe(true);
    const over = await post(`portals/${svc.orgId}/createRole`, { name: 'o'.repeat(129) }, tokens.admin);
    expect(over.error).toMatchObject({ code: 400, fieldErrors: { name: expect.stringContaining('128') } });
    expect(await svc.db.query('SELECT 1 FROM roles WHERE name = $1', ['o'.repeat(129)])).toEqual([]);
  });

  it('accepts a description of exactly 250 characters and refuses 251, naming `description`', async () => {
    const below = await post(`portals/${svc.orgId}/createRole`, { name: 'Desc 249', description: 'd'.repeat(249) }, tokens.admin);
    expect(below.success).toBe(true);
    const ok = await post(`portals/${svc.orgId}/createRole`, { name: 'Desc 250', description: 'd'.repeat(250) }, tokens.admin);
    expect(ok.success).toBe(true);
    expect((await roleRow(ok.id)).description).toHaveLength(250);
    const over = await post(`portals/${svc.orgId}/createRole`, { name: 'Desc 251', description: 'd'.repeat(251) }, tokens.admin);
    expect(over.error).toMatchObject({ code: 400, fieldErrors: { description: expect.stringContaining('250') } });
    expect(await svc.db.query('SELECT 1 FROM roles WHERE name = $1', ['Desc 251'])).toEqual([]);
  });

  it('requires a name', async () => {
    expect((await post(`portals/${svc.orgId}/createRole`, { description: 'x' }, tokens.admin)).error).toMatchObject({
      code: 400,
      fieldErrors: { name: 'is required' },
    });
    expect((await post(`portals/${svc.orgId}/createRole`, { name: '   ' }, tokens.admin)).error).toMatchObject({
      code: 400,
      fieldErrors: { name: expect.any(String) },
    });
  });

  it('refuses a name already used in the organization, whatever its case, naming `name`', async () => {
    await newRole(undefined, 'Analyst');
    const before = await svc.db.query('SELECT id FROM roles WHERE org_id = $1', [svc.orgId]);
    for (const name of ['Analyst', 'ANALYST', 'analyst', 'viewer']) {
      const body = await post(`portals/${svc.orgId}/createRole`, { name }, tokens.admin);
      expect(body.error).toMatchObject({ code: 400, fieldErrors: { name: expect.stringContaining('already') } });
      expect(body.error.details.join(' ')).toContain(name);
    }
    expect(await svc.db.query('SELECT id FROM roles WHERE org_id = $1', [svc.orgId])).toHaveLength(before.length);
  });

  it('the same new name asked for several times at once: one role, the others refused naming `name`', async () => {
    const name = `Race ${randomUUID().slice(0, 8)}`;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(`portals/${svc.orgId}/createRole`, { name: i % 2 ? name.toUpperCase() : name }, tokens.admin)),
    );
    expect(
      results.filter((r) => r.success),
      JSON.stringify(results),
    ).toHaveLength(1);
    for (const r of results.filter((r) => r.error)) expect(r.error).toMatchObject({ code: 400, fieldErrors: { name: expect.stringContaining('already') } });
    expect(await svc.db.query('SELECT 1 FROM roles WHERE org_id = $1 AND lower(name) = lower($2)', [svc.orgId, name])).toHaveLength(1);
  });

  it('the same name may exist in another organization', async () => {
    await newRole(undefined, 'Shared Name');
    const body = await post('portals/self/createRole', { name: 'shared name' }, tokens.partner_admin);
    expect(body.success).toBe(true);
    expect((await roleRow(body.id, svc.partnerOrgId))?.name).toBe('shared name');
    expect(await roleRow(body.id, svc.orgId)).toBeUndefined();
  });
});

describe('reading and updating a role', () => {
  it('an unknown role does not exist', async () => {
    expect((await get(`${roles()}/nosuchroleAAAAAA`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
    expect((await get(`${roles()}/nosuchroleAAAAAA/privileges`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
    expect((await post(`${roles()}/nosuchroleAAAAAA/update`, { name: 'x' }, tokens.admin)).error).toMatchObject({ code: 400 });
  });

  it('a role of another organization is not found through this organization', async () => {
    const partnerRole = (await post('portals/self/createRole', { name: `Partner only ${++counter}` }, tokens.partner_admin)).id;
    expect((await get(`${roles()}/${partnerRole}`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
    expect((await post(`${roles()}/${partnerRole}/update`, { name: 'Hijacked' }, tokens.admin)).error).toMatchObject({ code: 400 });
    expect((await post(`${roles()}/${partnerRole}/delete`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
    expect(await roleRow(partnerRole, svc.partnerOrgId)).toBeDefined();
  });

  it('update changes name and description, bumps modified, and writes a role update event', async () => {
    const id = await newRole();
    const created = (await roleRow(id)).modified;
    clockNow += 5_000;
    expect(await post(`${roles()}/${id}/update`, { name: 'Renamed role', description: 'New words' }, tokens.admin)).toEqual({ success: true });
    expect(await get(`${roles()}/${id}`, {}, tokens.admin)).toMatchObject({
      id,
      name: 'Renamed role',
      description: 'New words',
      created,
      modified: created + 5_000,
    });
    const events = await roleEvents(id);
    expect(events.at(-1)).toMatchObject({ uri: `/roles/${id}/update`, operation: 'update', username: 'admin', properties: { name: ['Renamed role'] } });
  });

  it('update without a description keeps the old one', async () => {
    const id = await newRole();
    await post(`${roles()}/${id}/update`, { name: 'Kept description' }, tokens.admin);
    expect(await roleRow(id)).toMatchObject({ name: 'Kept description', description: 'made by a test' });
  });

  it('update holds the same limits: 128/129 name, 250/251 description', async () => {
    const id = await newRole();
    expect(await post(`${roles()}/${id}/update`, { name: 'u'.repeat(128), description: 'e'.repeat(250) }, tokens.admin)).toEqual({ success: true });
    expect((await post(`${roles()}/${id}/update`, { name: 'u'.repeat(129) }, tokens.admin)).error).toMatchObject({
      code: 400,
      fieldErrors: { name: expect.any(String) },
    });
    expect((await post(`${roles()}/${id}/update`, { name: 'ok', description: 'e'.repeat(251) }, tokens.admin)).error).toMatchObject({
      code: 400,
      fieldErrors: { description: expect.any(String) },
    });
    expect(await roleRow(id)).toMatchObject({ name: 'u'.repeat(128), description: 'e'.repeat(250) });
  });

  it("update refuses another role's name (any case) but accepts its own name in another case", async () => {
    await newRole(undefined, 'Taken Name');
    const id = await newRole(undefined, 'Mine');
    expect((await post(`${roles()}/${id}/update`, { name: 'TAKEN name' }, tokens.admin)).error).toMatchObject({
      code: 400,
      fieldErrors: { name: expect.any(String) },
    });
    expect((await roleRow(id)).name).toBe('Mine');
    expect(await post(`${roles()}/${id}/update`, { name: 'MINE' }, tokens.admin)).toEqual({ success: true });
    expect((await roleRow(id)).name).toBe('MINE');
  });
});

describe('setPrivileges', () => {
  const set = (id: string, privileges: string, token = tokens.admin) => post(`${roles()}/${id}/setPrivileges`, { privileges }, token);
  const privilegesOf = async (id: string) => (await get(`${roles()}/${id}/privileges`, {}, tokens.admin)).privileges as string[];

  it('takes {"privileges":[…]} and answers {success:true}; privileges reads them back sorted', async () => {
    const id = await newRole();
    expect(await set(id, JSON.stringify({ privileges: ['portal:user:joinGroup', 'portal:user:createItem', 'portal:user:runWebTool'] }))).toEqual({
      success: true,
    });
    expect(await privilegesOf(id)).toEqual(['portal:user:createItem', 'portal:user:joinGroup', 'portal:user:runWebTool']);
  });

  it('replaces the whole set each time (an empty list clears it) and drops duplicates', async () => {
    const id = await newRole(['portal:user:joinGroup', 'portal:user:createItem']);
    await set(id, JSON.stringify({ privileges: ['portal:user:viewOrgUsers', 'portal:user:viewOrgUsers'] }));
    expect(await privilegesOf(id)).toEqual(['portal:user:viewOrgUsers']);
    await set(id, JSON.stringify({ privileges: [] }));
    expect(await privilegesOf(id)).toEqual([]);
  });

  it('refuses a bare array with 400 naming `privileges`, and changes nothing', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    const body = await set(id, JSON.stringify(['portal:user:createItem']));
    expect(body.error).toMatchObject({ code: 400, fieldErrors: { privileges: expect.stringContaining('bare array') } });
    expect(await privilegesOf(id)).toEqual(['portal:user:joinGroup']);
  });

  it.each([
    ['malformed JSON', '{"privileges": ["portal:user:createItem"'],
    ['a comma list', 'portal:user:createItem,portal:user:joinGroup'],
    ['an object without a privileges array', '{"privs": ["portal:user:createItem"]}'],
    ['privileges not an array', '{"privileges": "portal:user:createItem"}'],
    ['entries that are not strings', '{"privileges": ["portal:user:createItem", 7]}'],
    ['JSON null', 'null'],
  ])('refuses %s with 400 naming `privileges`, and changes nothing', async (_what, text) => {
    const id = await newRole(['portal:user:joinGroup']);
    const body = await set(id, text);
    expect(body.error).toMatchObject({ code: 400, fieldErrors: { privileges: expect.any(String) } });
    expect(await privilegesOf(id)).toEqual(['portal:user:joinGroup']);
  });

  it('requires the parameter', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    expect((await post(`${roles()}/${id}/setPrivileges`, {}, tokens.admin)).error).toMatchObject({ code: 400, fieldErrors: { privileges: 'is required' } });
  });

  it('refuses unknown identifiers, naming each one, and changes nothing', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    const modified = (await roleRow(id)).modified;
    clockNow += 1000;
    const bad = ['portal:user:doEverything', 'portal:publisher:PublishVideo', 'portal:user:manageWebhooks'];
    const body = await set(id, JSON.stringify({ privileges: ['portal:user:createItem', ...bad] }));
    expect(body.error).toMatchObject({ code: 400, fieldErrors: { privileges: expect.any(String) } });
    for (const p of bad) {
      expect(body.error.details).toContainEqual(expect.stringContaining(p));
      expect(body.error.fieldErrors.privileges).toContain(p);
    }
    expect(body.error.details).toHaveLength(bad.length);
    expect(body.error.details.join(' ')).not.toContain('portal:user:createItem');
    expect(await roleRow(id)).toMatchObject({ privileges: ['portal:user:joinGroup'], modified });
    expect((await roleEvents(id)).filter((e) => e.operation === 'update')).toHaveLength(1);
  });

  it('refuses a privilege whose prerequisite is not granted, naming both, and changes nothing', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    const body = await set(id, JSON.stringify({ privileges: ['portal:publisher:publishFeatures', 'portal:admin:updateUsers'] }));
    expect(body.error).toMatchObject({
      code: 400,
      fieldErrors: { privileges: expect.stringContaining("'portal:publisher:publishFeatures' needs 'portal:user:createItem'") },
    });
    expect(body.error.fieldErrors.privileges).toContain("'portal:admin:updateUsers' needs 'portal:admin:viewUsers'");
    expect(body.error.details).toHaveLength(2);
    expect(await privilegesOf(id)).toEqual(['portal:user:joinGroup']);
    // With what they need, the same privileges are stored.
    const ok = ['portal:publisher:publishFeatures', 'portal:user:createItem', 'portal:admin:updateUsers', 'portal:admin:viewUsers'];
    expect(await set(id, JSON.stringify({ privileges: ok }))).toEqual({ success: true });
    expect(await privilegesOf(id)).toEqual([...ok].sort());
  });

  it('stores implied privileges: fullEdit brings edit; manageVersions brings edit and fullEdit', async () => {
    const id = await newRole();
    await set(id, JSON.stringify({ privileges: ['features:user:fullEdit'] }));
    expect(await privilegesOf(id)).toEqual(['features:user:edit', 'features:user:fullEdit']);
    expect((await roleRow(id)).privileges.sort()).toEqual(['features:user:edit', 'features:user:fullEdit']);
    await set(id, JSON.stringify({ privileges: ['features:user:manageVersions'] }));
    expect(await privilegesOf(id)).toEqual(['features:user:edit', 'features:user:fullEdit', 'features:user:manageVersions']);
    await set(id, JSON.stringify({ privileges: ['features:user:edit'] }));
    expect(await privilegesOf(id)).toEqual(['features:user:edit']);
  });

  it('accepts the whole catalogue', async () => {
    const id = await newRole();
    expect(await set(id, JSON.stringify({ privileges: PRIVILEGES.map((p) => p.id) }))).toEqual({ success: true });
    expect(await privilegesOf(id)).toEqual([...PRIVILEGE_IDS].sort());
  });

  it('writes a role update event with the stored privileges', async () => {
    const id = await newRole();
    await set(id, JSON.stringify({ privileges: ['features:user:fullEdit'] }));
    expect((await roleEvents(id)).at(-1)).toMatchObject({
      uri: `/roles/${id}/update`,
      source: 'role',
      operation: 'update',
      username: 'admin',
      properties: { privileges: ['features:user:edit', 'features:user:fullEdit'] },
    });
  });

  it('members holding the role report the base role its privileges amount to, with the roleId', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    await assign('user1', id);
    expect(await self('user1')).toMatchObject({ role: 'org_user', roleId: id });

    await set(id, JSON.stringify({ privileges: ['portal:user:createItem', 'portal:publisher:publishFeatures'] }));
    expect(await self('user1')).toMatchObject({ role: 'org_publisher', roleId: id });

    await set(id, JSON.stringify({ privileges: ['portal:user:joinGroup', 'portal:admin:viewUsers'] }));
    const me = await self('user1');
    expect(me).toMatchObject({ role: 'org_admin', roleId: id, privileges: ['portal:admin:viewUsers', 'portal:user:joinGroup'] });
    const [row] = await svc.db.query<{ role: string; role_id: string }>(`SELECT role, role_id FROM users WHERE username = 'user1'`);
    expect(row).toEqual({ role: 'org_admin', role_id: id });
    // Still not a default administrator: it may not manage roles.
    expect((await post(`portals/${svc.orgId}/createRole`, { name: 'Should not exist' }, tokens.user1)).error).toMatchObject({ code: 403 });

    await set(id, JSON.stringify({ privileges: ['portal:user:joinGroup'] }));
    expect(await self('user1')).toMatchObject({ role: 'org_user', roleId: id });
    // Members without the role are untouched.
    expect(await self('publisher1')).toMatchObject({ role: 'org_publisher' });
    expect(await self('publisher1')).not.toHaveProperty('roleId');
  });
});

describe('deleting a role', () => {
  it('answers {success, roleId}; the role is gone and a delete event names it', async () => {
    const id = await newRole(undefined, 'Short-lived');
    expect(await post(`${roles()}/${id}/delete`, {}, tokens.admin)).toEqual({ success: true, roleId: id });
    expect(await roleRow(id)).toBeUndefined();
    expect((await get(`${roles()}/${id}`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
    expect((await roleEvents(id)).at(-1)).toMatchObject({
      uri: `/roles/${id}/delete`,
      operation: 'delete',
      username: 'admin',
      properties: { name: ['Short-lived'] },
    });
    expect((await post(`${roles()}/${id}/delete`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
  });

  it('is refused while members hold the role, with their count; allowed once they hold another', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    await assign('user1', id);
    const one = await post(`${roles()}/${id}/delete`, {}, tokens.admin);
    expect(one.error).toMatchObject({ code: 400, message: expect.stringContaining('1 member;') });
    await assign('publisher1', id);
    const two = await post(`${roles()}/${id}/delete`, {}, tokens.admin);
    expect(two.error).toMatchObject({ code: 400, message: expect.stringContaining('2 members') });
    expect(await roleRow(id)).toBeDefined();
    expect((await roleEvents(id)).some((e) => e.operation === 'delete')).toBe(false);
    await assign('user1', 'org_user');
    await assign('publisher1', 'org_publisher');
    expect(await post(`${roles()}/${id}/delete`, {}, tokens.admin)).toEqual({ success: true, roleId: id });
  });

  it('is refused while the role is the new-member default role', async () => {
    const id = await newRole(['portal:user:joinGroup']);
    expect(await post(`portals/${svc.orgId}/setUserDefaultSettings`, { role: id }, tokens.admin)).toEqual({ success: true });
    const body = await post(`${roles()}/${id}/delete`, {}, tokens.admin);
    expect(body.error).toMatchObject({ code: 400, message: expect.stringContaining('default role for new members') });
    expect(await roleRow(id)).toBeDefined();
    expect(await post(`portals/${svc.orgId}/userDefaultSettings/delete`, {}, tokens.admin)).toEqual({ success: true });
    expect(await post(`${roles()}/${id}/delete`, {}, tokens.admin)).toEqual({ success: true, roleId: id });
  });
});

describe('the built-in Viewer and Data Editor roles', () => {
  it.each([
    ['Viewer', VIEWER, 0],
    ['Data Editor', DATA_EDITOR, 1],
  ] as const)('%s can be neither updated, given privileges, nor deleted', async (name, id, index) => {
    const update = await post(`${roles()}/${id}/update`, { name: 'Changed', description: 'Changed' }, tokens.admin);
    expect(update.error).toMatchObject({ code: 400, message: expect.stringContaining('built-in') });
    const setP = await post(`${roles()}/${id}/setPrivileges`, { privileges: JSON.stringify({ privileges: ['portal:user:createItem'] }) }, tokens.admin);
    expect(setP.error).toMatchObject({ code: 400, message: expect.stringContaining('built-in') });
    // viewer1 holds the Viewer role; the Data Editor is held by no one: neither may be deleted.
    const del = await post(`${roles()}/${id}/delete`, {}, tokens.admin);
    expect(del.error).toMatchObject({ code: 400 });
    const row = await roleRow(id);
    expect(row).toMatchObject({ name, description: BUILT_IN_ROLES[index].description });
    expect([...row.privileges].sort()).toEqual([...BUILT_IN_ROLES[index].privileges].sort());
    expect(await roleEvents(id)).toEqual([]);
  });

  it('in another organization too', async () => {
    const body = await post(`portals/self/roles/${DATA_EDITOR}/delete`, {}, tokens.partner_admin);
    expect(body.error).toMatchObject({ code: 400 });
    expect(await roleRow(DATA_EDITOR, svc.partnerOrgId)).toBeDefined();
  });
});

describe('only default administrators manage roles', () => {
  const operations = (id: string) =>
    [
      ['createRole', `portals/${svc.orgId}/createRole`, { name: `Refused ${++counter}` }],
      ['update', `${roles()}/${id}/update`, { name: 'Refused rename' }],
      ['setPrivileges', `${roles()}/${id}/setPrivileges`, { privileges: JSON.stringify({ privileges: ['portal:user:createItem'] }) }],
      ['delete', `${roles()}/${id}/delete`, {}],
    ] as const;

  async function expectRefused(token: string, code: number) {
    const id = await newRole(['portal:user:joinGroup'], `Target ${++counter}`);
    const before = await roleRow(id);
    const countBefore = (await svc.db.query('SELECT 1 FROM roles WHERE org_id = $1', [svc.orgId])).length;
    for (const [op, path, params] of operations(id)) {
      const body = await post(path, params, token);
      expect(body.error, op).toMatchObject({ code });
    }
    expect(await roleRow(id)).toEqual(before);
    expect((await svc.db.query('SELECT 1 FROM roles WHERE org_id = $1', [svc.orgId])).length).toBe(countBefore);
  }

  it('a member holding a custom role with every administrative privilege is refused with 403', async () => {
    await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = $1 WHERE username = 'publisher1'`, [ALL_ADMIN]);
    const me = await self('publisher1');
    expect(me).toMatchObject({ role: 'org_admin', roleId: ALL_ADMIN });
    expect(me.privileges).toEqual(expect.arrayContaining(['portal:admin:manageRoles', 'portal:admin:manageSecurity']));
    await expectRefused(tokens.publisher1, 403);
  });

  it.each(['publisher1', 'user1', 'viewer1'])('%s is refused with 403', async (username) => {
    await expectRefused(tokens[username], 403);
  });

  it('the administrator of another organization is refused with 403 in this one', async () => {
    await expectRefused(tokens.partner_admin, 403);
  });

  it('an anonymous request needs a token (499)', async () => {
    await expectRefused('', 499);
  });

  it('the administrator of another organization manages the roles of their own', async () => {
    const body = await post('portals/self/createRole', { name: `Partner role ${++counter}` }, tokens.partner_admin);
    expect(body.success).toBe(true);
    expect(
      await post(
        `portals/${svc.partnerOrgId}/roles/${body.id}/setPrivileges`,
        { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup'] }) },
        tokens.partner_admin,
      ),
    ).toEqual({ success: true });
    expect(await post(`portals/${svc.partnerOrgId}/roles/${body.id}/delete`, {}, tokens.partner_admin)).toEqual({ success: true, roleId: body.id });
    const [event] = await roleEvents(body.id);
    expect(event).toMatchObject({ org_id: svc.partnerOrgId, operation: 'add', username: 'partner_admin' });
  });
});

describe('a custom role decides what its members may do', () => {
  it("community/self lists exactly the role's privileges, and a token issued before the change sees it at once", async () => {
    const token = tokens.user1; // issued before any of the changes below
    const before = await post('community/createGroup', { title: `Before the role ${++counter}` }, token);
    expect(before.success).toBe(true);

    const id = await newRole(['portal:user:viewOrgUsers', 'portal:user:joinGroup', 'features:user:fullEdit']);
    await assign('user1', id);
    const me = await get('community/self', {}, token);
    expect(me.roleId).toBe(id);
    expect(me.role).toBe('org_user');
    expect(me.privileges).toEqual(['features:user:edit', 'features:user:fullEdit', 'portal:user:joinGroup', 'portal:user:viewOrgUsers']);

    const refused = await post('community/createGroup', { title: `After the role ${counter}` }, token);
    expect(refused.error).toMatchObject({ code: 403, details: [expect.stringContaining('portal:user:createGroup')] });
    expect(await svc.db.query('SELECT 1 FROM groups WHERE title = $1', [`After the role ${counter}`])).toEqual([]);

    // Granting the privilege on the role takes effect on the same token.
    await post(
      `${roles()}/${id}/setPrivileges`,
      { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup', 'portal:user:createGroup'] }) },
      tokens.admin,
    );
    expect((await get('community/self', {}, token)).privileges).toEqual(['portal:user:createGroup', 'portal:user:joinGroup']);
    expect((await post('community/createGroup', { title: `After the grant ${counter}` }, token)).success).toBe(true);

    // And a member list, allowed to org_user, is refused without viewOrgUsers.
    expect((await get(`portals/${svc.orgId}/users`, {}, token)).error).toMatchObject({ code: 403 });
  });
});

describe('update with only a description', () => {
  it('keeps the name and changes the description', async () => {
    const svc = await startService();
    try {
      const t = await svc.tokenFor('admin');
      const post = (url: string, payload: Record<string, string>) =>
        svc.app.inject({ method: 'POST', url: `/sharing/rest/${url}`, payload: { ...payload, f: 'json', token: t } }).then((r) => r.json());
      const { id } = await post('portals/self/createRole', { name: 'Describer', description: 'before' });
      expect(await post(`portals/self/roles/${id}/update`, { description: 'after' })).toEqual({ success: true });
      expect(await post(`portals/self/roles/${id}`, {})).toMatchObject({ name: 'Describer', description: 'after' });
    } finally {
      await svc.close();
    }
  });
});
