/**
 * New-member defaults (spec §4.13; facts §3.11): `portals/<orgId>/userDefaultSettings`,
 * `setUserDefaultSettings` and `userDefaultSettings/delete` — what may be set, that createUser
 * applies it, that delete clears it all at once, and that only administrators manage it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

const EMPTY = { role: null, userLicenseType: null, groups: [], userType: null, apps: [], appBundles: [] };
const PASSWORD = 'Harbour.Light.3579';

let svc: TestService;
const tokens: Record<string, string> = {};
let n = 0;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

beforeEach(async () => {
  await svc.db.query('DELETE FROM user_default_settings');
});

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function get(path: string, token?: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?f=json${token ? `&token=${token}` : ''}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const defaultsPath = () => `portals/${svc.orgId}/userDefaultSettings`;
const setDefaults = (params: Record<string, string>, token = tokens.admin, org = svc.orgId) => post(`portals/${org}/setUserDefaultSettings`, params, token);
const readDefaults = (token = tokens.admin) => get(defaultsPath(), token);

async function newRole(privileges: string[], token = tokens.admin, org = svc.orgId): Promise<string> {
  const role = await post(`portals/${org}/createRole`, { name: `Default role ${++n} ${randomUUID().slice(0, 6)}` }, token);
  expect(role.success).toBe(true);
  expect(await post(`portals/${org}/roles/${role.id}/setPrivileges`, { privileges: JSON.stringify({ privileges }) }, token)).toEqual({ success: true });
  return role.id;
}

async function newGroup(owner = 'admin'): Promise<string> {
  const body = await post('community/createGroup', { title: `Default group ${++n} ${randomUUID().slice(0, 6)}` }, tokens[owner]);
  expect(body.success).toBe(true);
  return body.group.id;
}

async function createUser(params: Record<string, string> = {}, token = tokens.admin) {
  const username = `new.member${++n}`;
  const res = await svc.app.inject({
    method: 'POST',
    url: '/portaladmin/security/users/createUser',
    payload: { f: 'json', token, username, password: PASSWORD, email: `${username}@demo.example.com`, ...params },
  });
  expect(res.json()).toEqual({ status: 'success', username });
  const [row] = await svc.db.query<{ id: string; role: string; role_id: string | null; user_license_type_id: string; user_type: string }>(
    'SELECT id, role, role_id, user_license_type_id, user_type FROM users WHERE username = $1',
    [username],
  );
  const groups = await svc.db.query<{ group_id: string; member_type: string }>(
    'SELECT group_id, member_type FROM group_members WHERE user_id = $1 ORDER BY group_id',
    [row.id],
  );
  return { username, row, groups };
}

describe('reading the defaults', () => {
  it('an organization without defaults answers the empty record', async () => {
    expect(await readDefaults()).toEqual(EMPTY);
    expect(await get('portals/self/userDefaultSettings', tokens.partner_admin)).toEqual(EMPTY);
  });

  it('are read by those who manage them: default administrators and holders of portal:admin:manageSecurity, not other members', async () => {
    expect(await setDefaults({ role: 'org_publisher' })).toEqual({ success: true });
    for (const member of ['publisher1', 'user1', 'viewer1']) {
      expect((await readDefaults(tokens[member])).error, member).toMatchObject({ code: 403 });
    }
    // A custom role holding only another administrative privilege is refused too.
    const helpdesk = await newRole(['portal:admin:viewUsers']);
    const security = await newRole(['portal:admin:manageSecurity']);
    const setRole = async (username: string, role: string) => {
      expect(await post(`portals/${svc.orgId}/updateUserRole`, { user: username, role }, tokens.admin)).toMatchObject({ success: true });
    };
    await setRole('publisher1', helpdesk);
    expect((await readDefaults(tokens.publisher1)).error).toMatchObject({ code: 403 });
    await setRole('publisher1', security);
    expect((await readDefaults(tokens.publisher1)).role).toBe('org_publisher');
    await setRole('publisher1', 'org_publisher');
    expect((await readDefaults()).role).toBe('org_publisher');
  });

  it("another organization's defaults are refused", async () => {
    expect((await readDefaults(tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await get(defaultsPath())).error).toMatchObject({ code: 499 });
  });
});

describe('setUserDefaultSettings', () => {
  it('sets every field and reads them back', async () => {
    const [g1, g2] = [await newGroup(), await newGroup()];
    const body = await setDefaults({
      role: 'org_publisher',
      userLicenseType: 'GISProfessionalStdUT',
      groups: JSON.stringify([g1, g2]),
      userType: 'both',
      apps: JSON.stringify([{ itemId: 'app1item', entitlements: ['workforceMobile'] }]),
      appBundles: JSON.stringify([{ itemId: 'bundle1' }]),
    });
    expect(body).toEqual({ success: true });
    expect(await readDefaults()).toEqual({
      role: 'org_publisher',
      userLicenseType: 'GISProfessionalStdUT',
      groups: [g1, g2],
      userType: 'both',
      apps: [{ itemId: 'app1item', entitlements: ['workforceMobile'] }],
      appBundles: [{ itemId: 'bundle1' }],
    });
  });

  it('accepts groups as a comma list too (what rest-js sends for an array)', async () => {
    const [g1, g2] = [await newGroup(), await newGroup()];
    expect(await setDefaults({ groups: `${g1},${g2}` })).toEqual({ success: true });
    expect((await readDefaults()).groups).toEqual([g1, g2]);
  });

  it('accepts a custom role of the organization', async () => {
    const role = await newRole(['portal:user:joinGroup', 'portal:user:viewOrgUsers']);
    expect(await setDefaults({ role })).toEqual({ success: true });
    expect((await readDefaults()).role).toBe(role);
  });

  it('a later call changes only the fields it names', async () => {
    const g = await newGroup();
    await setDefaults({ role: 'org_publisher', groups: JSON.stringify([g]) });
    await setDefaults({ userLicenseType: 'creatorUT' });
    expect(await readDefaults()).toMatchObject({ role: 'org_publisher', groups: [g], userLicenseType: 'creatorUT' });
  });

  it('an empty value clears that one default and keeps the others', async () => {
    const g = await newGroup();
    await setDefaults({ role: 'org_publisher', userLicenseType: 'creatorUT', groups: JSON.stringify([g]), userType: 'both' });
    expect(await setDefaults({ role: '' })).toEqual({ success: true });
    expect(await readDefaults()).toMatchObject({ role: null, userLicenseType: 'creatorUT', groups: [g], userType: 'both' });
    expect(await setDefaults({ userLicenseType: '', userType: '' })).toEqual({ success: true });
    expect(await readDefaults()).toMatchObject({ role: null, userLicenseType: null, groups: [g], userType: null });
  });

  it('a role the user type allows goes with it (Viewer role with the Viewer user type, User with Contributor)', async () => {
    expect(await setDefaults({ role: 'iAAAAAAAAAAAAAAA', userLicenseType: 'viewerUT' })).toEqual({ success: true });
    expect(await setDefaults({ role: 'org_user', userLicenseType: 'contributorUT' })).toEqual({ success: true });
    expect(await readDefaults()).toMatchObject({ role: 'org_user', userLicenseType: 'contributorUT' });
  });

  describe('refuses, naming the parameter, and changes nothing', () => {
    async function expectRefused(params: Record<string, string>, param: string, mention?: string) {
      await setDefaults({ role: 'org_user', userLicenseType: 'creatorUT' });
      const before = await readDefaults();
      const body = await setDefaults(params);
      expect(body.error).toMatchObject({ code: 400, fieldErrors: expect.any(Object) });
      // The parameter, or a path inside it (e.g. `appBundles.0` for its first entry).
      const key = Object.keys(body.error.fieldErrors).find((k) => k === param || k.startsWith(`${param}.`));
      expect(key, JSON.stringify(body.error)).toBeDefined();
      if (mention) expect(body.error.fieldErrors[key!]).toContain(mention);
      expect(await readDefaults()).toEqual(before);
    }

    it('the administrator role', async () => {
      await expectRefused({ role: 'org_admin' }, 'role', 'administrator');
    });

    it('a custom role with administrative privileges', async () => {
      const role = await newRole(['portal:user:joinGroup', 'portal:admin:viewUsers']);
      await expectRefused({ role }, 'role', 'administrator');
    });

    it("a role that does not exist, or is another organization's", async () => {
      await expectRefused({ role: 'org_superuser' }, 'role', 'org_superuser');
      const partnerRole = await newRole(['portal:user:joinGroup'], tokens.partner_admin, svc.partnerOrgId);
      await expectRefused({ role: partnerRole }, 'role', partnerRole);
    });

    it('a group of another organization, named', async () => {
      const mine = await newGroup();
      const theirs = await newGroup('partner_admin');
      await expectRefused({ groups: JSON.stringify([mine, theirs]) }, 'groups', theirs);
      const body = await setDefaults({ groups: JSON.stringify([mine, theirs]) });
      expect(body.error.fieldErrors.groups).not.toContain(mine);
    });

    it('a group that does not exist, named', async () => {
      await expectRefused({ groups: JSON.stringify(['0123456789abcdef0123456789abcdef']) }, 'groups', '0123456789abcdef0123456789abcdef');
    });

    it('a role the default user type does not allow: Publisher with the Viewer user type', async () => {
      await expectRefused({ role: 'org_publisher', userLicenseType: 'viewerUT' }, 'role', 'Viewer user type');
      const body = await setDefaults({ role: 'org_publisher', userLicenseType: 'viewerUT' });
      expect(body.error.fieldErrors.role).toContain('portal:publisher:');
    });

    it('a user type that does not allow the default role: Contributor under a Publisher default', async () => {
      await setDefaults({ role: 'org_publisher', userLicenseType: 'creatorUT' });
      const before = await readDefaults();
      const body = await setDefaults({ userLicenseType: 'contributorUT' });
      expect(body.error).toMatchObject({ code: 400, fieldErrors: { userLicenseType: expect.stringContaining("'Publisher'") } });
      expect(await readDefaults()).toEqual(before);
    });

    it('a custom role that edits or creates, with the Viewer user type', async () => {
      const role = await newRole(['portal:user:joinGroup', 'portal:user:createItem']);
      await expectRefused({ role, userLicenseType: 'viewerUT' }, 'role', 'portal:user:createItem');
    });

    it('a user license type that is not one of the known ones', async () => {
      await expectRefused({ userLicenseType: 'superUserUT' }, 'userLicenseType', 'creatorUT');
    });

    it('a user type other than arcgisonly or both', async () => {
      await expectRefused({ userType: 'enterprise' }, 'userType');
    });

    it('malformed JSON in groups, apps or appBundles', async () => {
      await expectRefused({ groups: '["abc"' }, 'groups');
      await expectRefused({ apps: '[{"itemId": "a"' }, 'apps', 'JSON');
      await expectRefused({ appBundles: '[{' }, 'appBundles', 'JSON');
    });

    it('apps or appBundles that are not arrays of {itemId}', async () => {
      await expectRefused({ apps: JSON.stringify({ itemId: 'a' }) }, 'apps');
      await expectRefused({ appBundles: JSON.stringify(['bundle']) }, 'appBundles');
      await expectRefused({ apps: JSON.stringify([{ entitlements: [] }]) }, 'apps');
    });
  });

  it('a role that is a new-member default cannot be given administrative privileges', async () => {
    const role = await newRole(['portal:user:joinGroup']);
    await setDefaults({ role });
    const body = await post(
      `portals/${svc.orgId}/roles/${role}/setPrivileges`,
      { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup', 'portal:admin:viewUsers'] }) },
      tokens.admin,
    );
    expect(body.error).toMatchObject({ code: 400, fieldErrors: { privileges: expect.stringContaining('new-member default') } });
    const [row] = await svc.db.query<{ privileges: string[] }>('SELECT privileges FROM roles WHERE org_id = $1 AND id = $2', [svc.orgId, role]);
    expect(row.privileges).toEqual(['portal:user:joinGroup']);
    // Other changes to the role are fine.
    expect(
      await post(
        `portals/${svc.orgId}/roles/${role}/setPrivileges`,
        { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup', 'portal:user:createItem'] }) },
        tokens.admin,
      ),
    ).toEqual({ success: true });
    // A new member still never starts as an administrator.
    const { row: created } = await createUser();
    expect(created).toMatchObject({ role: 'org_user', role_id: role });
  });
});

describe('createUser applies the defaults', () => {
  it('role, user license type, user type and groups, with an addUsers event for each group', async () => {
    const role = await newRole(['portal:user:joinGroup', 'portal:user:viewOrgUsers', 'portal:publisher:publishFeatures', 'portal:user:createItem']);
    const [g1, g2] = [await newGroup(), await newGroup('user1')];
    await setDefaults({ role, userLicenseType: 'GISProfessionalAdvUT', userType: 'both', groups: JSON.stringify([g1, g2]) });
    const { username, row, groups } = await createUser();
    expect(row).toMatchObject({ role: 'org_publisher', role_id: role, user_license_type_id: 'GISProfessionalAdvUT', user_type: 'both' });
    expect(groups).toEqual([g1, g2].sort().map((group_id) => ({ group_id, member_type: 'member' })));
    const events = await svc.db.query<{ uri: string; subject_id: string; username: string; properties: { addedUserNames: string[] } }>(
      `SELECT uri, subject_id, username, properties FROM events WHERE source = 'group' AND operation = 'addUsers' AND subject_id = ANY($1::text[]) ORDER BY subject_id`,
      [[g1, g2]],
    );
    expect(events).toEqual(
      [g1, g2].sort().map((g) => ({ uri: `/groups/${g}/addUsers`, subject_id: g, username: 'admin', properties: { addedUserNames: [username] } })),
    );
    // The member's own view agrees.
    const token = (await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { f: 'json', username, password: PASSWORD } })).json()
      .token;
    const me = await get('community/self', token);
    expect(me).toMatchObject({ role: 'org_publisher', roleId: role, userLicenseTypeId: 'GISProfessionalAdvUT' });
    expect(me.groups.map((g: { id: string }) => g.id).sort()).toEqual([g1, g2].sort());
  });

  it('a base role default (org_publisher)', async () => {
    await setDefaults({ role: 'org_publisher' });
    const { row } = await createUser();
    expect(row).toMatchObject({ role: 'org_publisher', role_id: null, user_license_type_id: 'creatorUT' });
  });

  it('a role named in the request wins over the default role', async () => {
    await setDefaults({ role: 'org_publisher', userLicenseType: 'GISProfessionalBasicUT' });
    const { row } = await createUser({ role: 'org_user', userLicenseTypeId: 'creatorUT' });
    expect(row).toMatchObject({ role: 'org_user', role_id: null, user_license_type_id: 'creatorUT' });
  });

  it('default groups are skipped when the default role may not join groups', async () => {
    const role = await newRole(['portal:user:viewOrgUsers']);
    const g = await newGroup();
    await setDefaults({ role, groups: JSON.stringify([g]) });
    const { row, groups } = await createUser();
    expect(row.role_id).toBe(role);
    expect(groups).toEqual([]);
  });

  it('a default group deleted since is skipped; the others still apply', async () => {
    const [keep, gone] = [await newGroup(), await newGroup()];
    await setDefaults({ groups: JSON.stringify([keep, gone]) });
    expect(await post(`community/groups/${gone}/delete`, {}, tokens.admin)).toEqual({ success: true, groupId: gone });
    const { groups } = await createUser();
    expect(groups).toEqual([{ group_id: keep, member_type: 'member' }]);
  });

  it('a deleted default group leaves the defaults, which stay editable', async () => {
    const [keep, gone] = [await newGroup(), await newGroup()];
    await setDefaults({ role: 'org_user', groups: JSON.stringify([keep, gone]) });
    await post(`community/groups/${gone}/delete`, {}, tokens.admin);
    expect((await readDefaults()).groups).toEqual([keep]);
    // Changing another default must not trip over the group deleted meanwhile.
    expect(await setDefaults({ role: 'org_publisher' })).toEqual({ success: true });
    expect(await readDefaults()).toMatchObject({ role: 'org_publisher', groups: [keep] });
  });
});

describe('userDefaultSettings/delete', () => {
  it('clears every default at once; new members then get the plain defaults', async () => {
    const g = await newGroup();
    await setDefaults({
      role: 'org_publisher',
      userLicenseType: 'GISProfessionalStdUT',
      groups: JSON.stringify([g]),
      userType: 'both',
      apps: JSON.stringify([{ itemId: 'app1' }]),
      appBundles: JSON.stringify([{ itemId: 'b1' }]),
    });
    expect(await post(`${defaultsPath()}/delete`, {}, tokens.admin)).toEqual({ success: true });
    expect(await readDefaults()).toEqual(EMPTY);
    const { row, groups } = await createUser();
    expect(row).toMatchObject({ role: 'org_user', role_id: null, user_license_type_id: 'creatorUT', user_type: 'arcgisonly' });
    expect(groups).toEqual([]);
  });

  it('succeeds when nothing is set', async () => {
    expect(await post(`${defaultsPath()}/delete`, {}, tokens.admin)).toEqual({ success: true });
    expect(await readDefaults()).toEqual(EMPTY);
  });

  it("portals/self/userDefaultSettings/delete clears the caller's organization only", async () => {
    await setDefaults({ role: 'org_publisher' });
    await setDefaults({ role: 'org_publisher' }, tokens.partner_admin, svc.partnerOrgId);
    expect(await post('portals/self/userDefaultSettings/delete', {}, tokens.partner_admin)).toEqual({ success: true });
    expect((await get('portals/self/userDefaultSettings', tokens.partner_admin)).role).toBeNull();
    expect((await readDefaults()).role).toBe('org_publisher');
  });
});

describe('only administrators manage the defaults', () => {
  it.each(['publisher1', 'user1', 'viewer1'])('%s is refused with 403 for set and delete', async (who) => {
    await setDefaults({ role: 'org_publisher' });
    expect((await setDefaults({ role: 'org_user' }, tokens[who])).error).toMatchObject({ code: 403 });
    expect((await post(`${defaultsPath()}/delete`, {}, tokens[who])).error).toMatchObject({ code: 403 });
    expect((await readDefaults()).role).toBe('org_publisher');
  });

  it('the administrator of another organization is refused with 403', async () => {
    await setDefaults({ role: 'org_publisher' });
    expect((await setDefaults({ role: 'org_user' }, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await post(`${defaultsPath()}/delete`, {}, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect((await readDefaults()).role).toBe('org_publisher');
  });

  it('anonymous requests need a token', async () => {
    expect((await setDefaults({ role: 'org_user' }, '')).error).toMatchObject({ code: 499 });
    expect((await post(`${defaultsPath()}/delete`, {})).error).toMatchObject({ code: 499 });
  });
});
