/**
 * `community/groups/<id>/addUsers` (spec §4.9, §8; facts §3.8): who may add, the 25-name cap, and
 * each reason a user is not added — unknown, lacking portal:user:joinGroup, already in 512 groups,
 * outside the organization when the group is at its external-member limit.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let n = 0;

/** A member inserted directly, with the demo password (copied from user1). */
async function insertMember(username: string, orgId: string, role = 'org_user', roleId: string | null = null) {
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, $3, password_hash, $3, $4, $5, $6, 0, 0 FROM users WHERE username = 'user1'`,
    [randomUUID().replaceAll('-', ''), orgId, username, `${username}@example.com`, role, roleId],
  );
}

const BULK = Array.from({ length: 30 }, (_, i) => `bulk${String(i + 1).padStart(2, '0')}`);

beforeAll(async () => {
  svc = await startService();
  for (const name of BULK) await insertMember(name, svc.orgId);
  await insertMember('member2', svc.orgId);
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin', 'member2']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

beforeEach(async () => {
  await svc.db.query(`UPDATE organizations SET settings = '{}'::jsonb`);
});

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function get(path: string, token?: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?f=json${token ? `&token=${token}` : ''}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function createGroup(owner: string, fields: Record<string, string> = {}): Promise<string> {
  const body = await post('community/createGroup', { title: `Group ${++n} ${randomUUID().slice(0, 6)}`, ...fields }, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.group.id;
}

const addUsers = (groupId: string, params: { users?: string[]; admins?: string[] }, token: string) =>
  post(
    `community/groups/${groupId}/addUsers`,
    {
      ...(params.users ? { users: params.users.join(',') } : {}),
      ...(params.admins ? { admins: params.admins.join(',') } : {}),
    },
    token,
  );

async function membersOf(groupId: string) {
  const rows = await svc.db.query<{ username: string; member_type: string }>(
    'SELECT u.username, m.member_type FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 ORDER BY u.username',
    [groupId],
  );
  return Object.fromEntries(rows.map((r) => [r.username, r.member_type]));
}

async function addEvents(groupId: string) {
  return svc.db.query<{ uri: string; org_id: string; username: string; properties: { addedUserNames: string[] } }>(
    `SELECT uri, org_id, username, properties FROM events WHERE source = 'group' AND operation = 'addUsers' AND subject_id = $1 ORDER BY seq`,
    [groupId],
  );
}

describe('who may add users', () => {
  it('the owner', async () => {
    const g = await createGroup('user1');
    expect(await addUsers(g, { users: ['member2'] }, tokens.user1)).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await membersOf(g)).toEqual({ member2: 'member', user1: 'owner' });
  });

  it('a manager (added through `admins`)', async () => {
    const g = await createGroup('user1');
    expect(await addUsers(g, { admins: ['publisher1'] }, tokens.user1)).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await membersOf(g)).toEqual({ publisher1: 'admin', user1: 'owner' });
    expect(await addUsers(g, { users: ['member2'] }, tokens.publisher1)).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await membersOf(g)).toEqual({ member2: 'member', publisher1: 'admin', user1: 'owner' });
  });

  it('an administrator of the organization, to a private group they are not in', async () => {
    const g = await createGroup('user1');
    expect(await addUsers(g, { users: ['viewer1'] }, tokens.admin)).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await membersOf(g)).toEqual({ user1: 'owner', viewer1: 'member' });
    const [event] = await addEvents(g);
    expect(event).toMatchObject({ uri: `/groups/${g}/addUsers`, org_id: svc.orgId, username: 'admin', properties: { addedUserNames: ['viewer1'] } });
  });

  it('a plain member is refused with 403 and no one is added', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addUsers(g, { users: ['member2'] }, tokens.user1);
    const body = await addUsers(g, { users: ['viewer1'] }, tokens.member2);
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    // A member of the organization who sees the org group but is not in it: also 403.
    expect((await addUsers(g, { users: ['viewer1'] }, tokens.publisher1)).error).toMatchObject({ code: 403 });
    expect(await membersOf(g)).toEqual({ member2: 'member', user1: 'owner' });
  });

  it('an administrator of another organization who is not a manager: 403 on a group they see, not found on one they do not', async () => {
    const pub = await createGroup('user1', { access: 'public' });
    expect((await addUsers(pub, { users: ['member2'] }, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    const priv = await createGroup('user1');
    expect((await addUsers(priv, { users: ['member2'] }, tokens.partner_admin)).error).toMatchObject({
      code: 400,
      message: 'Group does not exist or is inaccessible.',
    });
    // Even as a plain member of the group.
    await addUsers(priv, { users: ['partner_admin'] }, tokens.admin);
    expect((await addUsers(priv, { users: ['member2'] }, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    expect(await membersOf(pub)).toEqual({ user1: 'owner' });
    expect(await membersOf(priv)).toEqual({ partner_admin: 'member', user1: 'owner' });
  });

  it('a manager from another organization adds members, as managers act wherever they are; deleting stays the owner’s', async () => {
    const g = await createGroup('user1');
    expect(await addUsers(g, { admins: ['partner_admin'] }, tokens.admin)).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await addUsers(g, { users: ['member2'] }, tokens.partner_admin)).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await membersOf(g)).toEqual({ member2: 'member', partner_admin: 'admin', user1: 'owner' });
    expect((await post(`community/groups/${g}/delete`, {}, tokens.partner_admin)).error).toMatchObject({
      code: 403,
      details: ["Only the group's owner or an administrator (portal:admin:deleteGroups) can delete it."],
    });
  });

  it('needs a token', async () => {
    const g = await createGroup('user1', { access: 'public' });
    const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/community/groups/${g}/addUsers`, payload: { f: 'json', users: 'member2' } });
    expect(res.json().error).toMatchObject({ code: 499 });
  });
});

describe('at most 25 names per request', () => {
  it('25 names (users and admins together) are added', async () => {
    const g = await createGroup('admin');
    const body = await addUsers(g, { users: BULK.slice(0, 20), admins: BULK.slice(20, 25) }, tokens.admin);
    expect(body).toEqual({ notAdded: [], notAddedReasons: [] });
    const members = await membersOf(g);
    expect(Object.keys(members)).toHaveLength(26);
    for (const u of BULK.slice(0, 20)) expect(members[u]).toBe('member');
    for (const u of BULK.slice(20, 25)) expect(members[u]).toBe('admin');
  });

  it('24 names are added; 25 in users alone too', async () => {
    const g = await createGroup('admin');
    expect((await addUsers(g, { users: BULK.slice(0, 24) }, tokens.admin)).notAdded).toEqual([]);
    expect(Object.keys(await membersOf(g))).toHaveLength(25);
    const h = await createGroup('admin');
    expect((await addUsers(h, { users: BULK.slice(0, 25) }, tokens.admin)).notAdded).toEqual([]);
    expect(Object.keys(await membersOf(h))).toHaveLength(26);
  });

  it.each([
    ['26 users', { users: BULK.slice(0, 26) }],
    ['20 users and 6 admins', { users: BULK.slice(0, 20), admins: BULK.slice(20, 26) }],
    ['26 admins', { admins: BULK.slice(0, 26) }],
    ['30 users', { users: BULK }],
  ])('%s: 400 ORG_3100 and no one is added', async (_what, params) => {
    const g = await createGroup('admin');
    const body = await addUsers(g, params, tokens.admin);
    expect(body.error).toMatchObject({ code: 400, messageCode: 'ORG_3100', message: 'Exceeded maximum number of users allowed per call.' });
    expect(await membersOf(g)).toEqual({ admin: 'owner' });
    expect(await addEvents(g)).toEqual([]);
  });
});

describe('who is not added, and why', () => {
  it('an unknown user is listed in notAdded with the reason; the others are added', async () => {
    const g = await createGroup('admin');
    const body = await addUsers(g, { users: ['member2', 'no_such_user', 'viewer1'], admins: ['also_missing'] }, tokens.admin);
    expect(body).toEqual({
      notAdded: ['no_such_user', 'also_missing'],
      notAddedReasons: [
        { username: 'no_such_user', reason: 'The user does not exist.' },
        { username: 'also_missing', reason: 'The user does not exist.' },
      ],
    });
    expect(await membersOf(g)).toEqual({ admin: 'owner', member2: 'member', viewer1: 'member' });
  });

  it('a user whose role lacks portal:user:joinGroup', async () => {
    const role = await post(`portals/${svc.orgId}/createRole`, { name: `No joining ${++n}` }, tokens.admin);
    expect(
      await post(
        `portals/${svc.orgId}/roles/${role.id}/setPrivileges`,
        { privileges: JSON.stringify({ privileges: ['portal:user:viewOrgUsers', 'portal:user:viewOrgGroups'] }) },
        tokens.admin,
      ),
    ).toEqual({ success: true });
    const username = `nojoin${n}`;
    await insertMember(username, svc.orgId);
    expect(await post(`portals/${svc.orgId}/updateUserRole`, { username, role: role.id }, tokens.admin)).toMatchObject({ success: true });
    const g = await createGroup('admin');
    const body = await addUsers(g, { users: [username, 'member2'] }, tokens.admin);
    expect(body.notAdded).toEqual([username]);
    expect(body.notAddedReasons[0].reason).toContain('portal:user:joinGroup');
    expect(await membersOf(g)).toEqual({ admin: 'owner', member2: 'member' });
    // Given the privilege, the same user is added.
    await post(`portals/${svc.orgId}/roles/${role.id}/setPrivileges`, { privileges: JSON.stringify({ privileges: ['portal:user:joinGroup'] }) }, tokens.admin);
    expect((await addUsers(g, { users: [username] }, tokens.admin)).notAdded).toEqual([]);
  });

  it('a disabled account', async () => {
    await insertMember('disabled1', svc.orgId);
    await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'disabled1'`);
    const g = await createGroup('admin');
    const body = await addUsers(g, { users: ['disabled1'] }, tokens.admin);
    expect(body.notAdded).toEqual(['disabled1']);
    expect(body.notAddedReasons[0].reason).toContain('disabled');
    expect(await membersOf(g)).toEqual({ admin: 'owner' });
  });

  it(`a user already in ${LIMITS.groupsPerUser} groups; one in ${LIMITS.groupsPerUser - 1} is added`, async () => {
    expect(LIMITS.groupsPerUser).toBe(512);
    await insertMember('busy511', svc.orgId);
    await insertMember('busy512', svc.orgId);
    const prefix = `filler-${randomUUID().slice(0, 8)}-`;
    await svc.db.query(
      `INSERT INTO groups (id, org_id, owner_id, title, created, modified)
       SELECT md5($2 || g::text), $1, (SELECT id FROM users WHERE username = 'admin'), $2 || g::text, 0, 0 FROM generate_series(1, 512) AS g`,
      [svc.orgId, prefix],
    );
    const fill = (username: string, count: number) =>
      svc.db.query(
        `INSERT INTO group_members (group_id, user_id, member_type, joined)
         SELECT md5($1 || g::text), (SELECT id FROM users WHERE username = $2), 'member', 0 FROM generate_series(1, $3::int) AS g`,
        [prefix, username, count],
      );
    await fill('busy511', 511);
    await fill('busy512', 512);
    const counts = await svc.db.query<{ username: string; n: number }>(
      `SELECT u.username, count(*) AS n FROM group_members m JOIN users u ON u.id = m.user_id WHERE u.username IN ('busy511', 'busy512') GROUP BY u.username ORDER BY u.username`,
    );
    expect(counts.map((c) => [c.username, Number(c.n)])).toEqual([
      ['busy511', 511],
      ['busy512', 512],
    ]);

    const g = await createGroup('admin');
    const body = await addUsers(g, { users: ['busy511', 'busy512'] }, tokens.admin);
    expect(body.notAdded).toEqual(['busy512']);
    expect(body.notAddedReasons[0]).toEqual({ username: 'busy512', reason: expect.stringContaining('512 groups') });
    expect(await membersOf(g)).toEqual({ admin: 'owner', busy511: 'member' });
    expect((await addEvents(g))[0].properties.addedUserNames).toEqual(['busy511']);

    // busy511 is now in 512 groups: the next group refuses them too.
    const h = await createGroup('admin');
    expect((await addUsers(h, { users: ['busy511'] }, tokens.admin)).notAdded).toEqual(['busy511']);
    expect(await membersOf(h)).toEqual({ admin: 'owner' });

    // The same limit holds when they join or create a group themselves.
    const busy = await svc.tokenFor('busy512');
    const open = await createGroup('admin', { access: 'org' });
    expect((await post(`community/groups/${open}/join`, {}, busy)).error).toMatchObject({ code: 400, message: expect.stringContaining('512 groups') });
    expect((await post('community/createGroup', { title: `Busy ${randomUUID()}` }, busy)).error).toMatchObject({
      code: 400,
      message: expect.stringContaining('512 groups'),
    });
    expect(await membersOf(open)).toEqual({ admin: 'owner' });
    const [{ c }] = await svc.db.query<{ c: number }>(
      `SELECT count(*) AS c FROM group_members m JOIN users u ON u.id = m.user_id WHERE u.username = 'busy512'`,
    );
    expect(Number(c)).toBe(512);
  });
});

describe('members from other organizations', () => {
  let extSeq = 0;
  /** Partner members made the ordinary way: partner_admin creates them. */
  async function partnerMember(): Promise<string> {
    const username = `ext.member${++extSeq}.${randomUUID().slice(0, 4)}`;
    const res = await svc.app.inject({
      method: 'POST',
      url: '/portaladmin/security/users/createUser',
      payload: { f: 'json', token: tokens.partner_admin, username, password: 'Partner.Member.2468', email: `${username}@partner.example.com` },
    });
    expect(res.json()).toEqual({ status: 'success', username });
    return username;
  }

  const setLimit = async (value: string) => {
    expect(await post('portals/self/update', { maxExternalMembersPerGroup: value }, tokens.admin)).toEqual({ success: true });
  };

  it(`the organization reports the default limit, ${LIMITS.defaultExternalMembersPerGroup}, until it sets its own`, async () => {
    expect((await get('portals/self', tokens.admin)).maxExternalMembersPerGroup).toBe(LIMITS.defaultExternalMembersPerGroup);
    await setLimit('1');
    expect((await get('portals/self', tokens.admin)).maxExternalMembersPerGroup).toBe(1);
  });

  it('with a limit of 1: the first external member is added, the second is not', async () => {
    await setLimit('1');
    const [one, two] = [await partnerMember(), await partnerMember()];
    const g = await createGroup('admin');
    const body = await addUsers(g, { users: [one, two, 'member2'] }, tokens.admin);
    expect(body.notAdded).toEqual([two]);
    expect(body.notAddedReasons[0]).toEqual({ username: two, reason: expect.stringContaining('limit of 1 members from other organizations') });
    expect(await membersOf(g)).toEqual({ admin: 'owner', member2: 'member', [one]: 'member' });
    // Members of the group's own organization do not count against it.
    expect((await addUsers(g, { users: ['viewer1', 'publisher1'] }, tokens.admin)).notAdded).toEqual([]);
    // Raised to 2: the second is added.
    await setLimit('2');
    expect((await addUsers(g, { users: [two] }, tokens.admin)).notAdded).toEqual([]);
    expect((await membersOf(g))[two]).toBe('member');
  });

  it('with a limit of 0 no external member is added', async () => {
    await setLimit('0');
    const ext = await partnerMember();
    const g = await createGroup('admin');
    expect((await addUsers(g, { users: [ext] }, tokens.admin)).notAdded).toEqual([ext]);
    expect(await membersOf(g)).toEqual({ admin: 'owner' });
  });

  it('holds under concurrent requests (rest-js sends its chunks in parallel)', async () => {
    await setLimit('1');
    for (let round = 0; round < 3; round++) {
      const externals = [await partnerMember(), await partnerMember(), await partnerMember(), await partnerMember()];
      const g = await createGroup('admin');
      const answers = await Promise.all(externals.map((u) => addUsers(g, { users: [u] }, tokens.admin)));
      expect(answers.filter((a) => a.notAdded.length === 0)).toHaveLength(1);
      const members = await membersOf(g);
      expect(Object.keys(members)).toHaveLength(2);
      expect((await addEvents(g)).flatMap((e) => e.properties.addedUserNames)).toEqual(Object.keys(members).filter((u) => u !== 'admin'));
    }
  });

  it('the limit also stops an external member joining a public group by themself', async () => {
    await setLimit('1');
    const [one, two] = [await partnerMember(), await partnerMember()];
    const g = await createGroup('admin', { access: 'public' });
    const signIn = async (username: string) =>
      (await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { f: 'json', username, password: 'Partner.Member.2468' } })).json()
        .token as string;
    expect(await post(`community/groups/${g}/join`, {}, await signIn(one))).toEqual({ success: true, groupId: g });
    expect((await post(`community/groups/${g}/join`, {}, await signIn(two))).error).toMatchObject({ code: 400, message: expect.stringContaining('limit') });
    expect(await membersOf(g)).toEqual({ admin: 'owner', [one]: 'member' });
  });

  it(`the default limit: ${LIMITS.defaultExternalMembersPerGroup - 1} external members → one more is added, the next is not`, async () => {
    const limit = LIMITS.defaultExternalMembersPerGroup;
    const prefix = `x${randomUUID().slice(0, 6)}`;
    await svc.db.query(
      `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, created, modified)
       SELECT md5($2 || g::text), $1, $2 || '_' || g::text, 'x', '', '', 'org_user', 0, 0 FROM generate_series(1, $3::int) AS g`,
      [svc.partnerOrgId, prefix, limit + 1],
    );
    const g = await createGroup('admin');
    await svc.db.query(
      `INSERT INTO group_members (group_id, user_id, member_type, joined) SELECT $1, md5($2 || g::text), 'member', 0 FROM generate_series(1, $3::int) AS g`,
      [g, prefix, limit - 1],
    );
    const body = await addUsers(g, { users: [`${prefix}_${limit}`, `${prefix}_${limit + 1}`] }, tokens.admin);
    expect(body.notAdded).toEqual([`${prefix}_${limit + 1}`]);
    expect(body.notAddedReasons[0].reason).toContain(`limit of ${limit} members`);
    const [{ c }] = await svc.db.query<{ c: number }>(
      'SELECT count(*) AS c FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 AND u.org_id = $2',
      [g, svc.partnerOrgId],
    );
    expect(Number(c)).toBe(limit);
  });

  it('adding members from another organization needs portal:user:addExternalMembersToGroup', async () => {
    const ext = await partnerMember();
    const g = await createGroup('user1');
    const body = await addUsers(g, { users: [ext, 'member2'] }, tokens.user1);
    expect(body.notAdded).toEqual([ext]);
    expect(body.notAddedReasons[0].reason).toContain('portal:user:addExternalMembersToGroup');
    expect(await membersOf(g)).toEqual({ member2: 'member', user1: 'owner' });
  });

  it("an added external member sees the group and is listed in it, but not the organization's other private groups", async () => {
    const ext = await partnerMember();
    const extToken = await (async () => {
      const res = await svc.app.inject({
        method: 'POST',
        url: '/sharing/rest/generateToken',
        payload: { f: 'json', username: ext, password: 'Partner.Member.2468' },
      });
      return res.json().token as string;
    })();
    const g = await createGroup('admin');
    const other = await createGroup('admin');
    const orgGroup = await createGroup('admin', { access: 'org' });
    expect((await get(`community/groups/${g}`, extToken)).error).toMatchObject({ code: 400 });
    expect((await addUsers(g, { users: [ext] }, tokens.admin)).notAdded).toEqual([]);
    const seen = await get(`community/groups/${g}`, extToken);
    expect(seen).toMatchObject({ id: g, orgId: svc.orgId, userMembership: { username: ext, memberType: 'member' } });
    expect((await get(`community/groups/${g}/users`, tokens.admin)).users).toContain(ext);
    expect((await get(`community/groups/${g}/users`, extToken)).users).toContain(ext);
    const userlist = await post(`community/groups/${g}/userlist`, {}, tokens.admin);
    expect(userlist.users).toContainEqual(expect.objectContaining({ username: ext, memberType: 'member', orgId: svc.partnerOrgId }));
    expect((await get(`community/groups/${other}`, extToken)).error).toMatchObject({ code: 400 });
    expect((await get(`community/groups/${orgGroup}`, extToken)).error).toMatchObject({ code: 400 });
    const search = await post('community/groups', { q: `orgid:${svc.orgId}`, num: '100' }, extToken);
    const found = search.results.map((r: { id: string; access: string }) => [r.id, r.access]);
    expect(found).toContainEqual([g, 'private']);
    // Apart from the group they are in, only public groups of the organization.
    expect(found.filter(([id]: string[]) => id !== g).every(([, access]: string[]) => access === 'public')).toBe(true);
    expect(found.map(([id]: string[]) => id)).not.toContain(other);
    expect(found.map(([id]: string[]) => id)).not.toContain(orgGroup);
    // Their own community/self lists the group.
    expect((await get('community/self', extToken)).groups.map((r: { id: string }) => r.id)).toContain(g);
  });
});

describe('already members, promotion and the event', () => {
  it('already-members are not errors and are not reported as added; `admins` promotes an existing member', async () => {
    const g = await createGroup('admin');
    await addUsers(g, { users: ['member2', 'viewer1'] }, tokens.admin);
    const again = await addUsers(g, { users: ['member2', 'admin'], admins: ['viewer1'] }, tokens.admin);
    expect(again).toEqual({ notAdded: [], notAddedReasons: [] });
    expect(await membersOf(g)).toEqual({ admin: 'owner', member2: 'member', viewer1: 'admin' });
    // Naming a manager among `users` does not demote them; the owner named among admins stays owner.
    await addUsers(g, { users: ['viewer1'], admins: ['admin'] }, tokens.admin);
    expect(await membersOf(g)).toEqual({ admin: 'owner', member2: 'member', viewer1: 'admin' });
  });

  it('one addUsers event lists exactly the newly added; none when no one was added', async () => {
    const g = await createGroup('admin');
    await addUsers(g, { users: ['member2'] }, tokens.admin);
    await addUsers(g, { users: ['member2', 'VIEWER1', 'nobody_at_all'], admins: ['publisher1'] }, tokens.admin);
    await addUsers(g, { users: ['member2', 'nobody_at_all'] }, tokens.admin);
    await addUsers(g, { admins: ['member2'] }, tokens.admin);
    const events = await addEvents(g);
    expect(events.map((e) => e.properties.addedUserNames)).toEqual([['member2'], ['viewer1', 'publisher1']]);
    expect(events.every((e) => e.uri === `/groups/${g}/addUsers` && e.username === 'admin' && e.org_id === svc.orgId)).toBe(true);
  });

  it('names are matched whatever their case, and reported with their stored spelling', async () => {
    const g = await createGroup('admin');
    expect((await addUsers(g, { users: ['MEMBER2', 'Bulk01'] }, tokens.admin)).notAdded).toEqual([]);
    expect(await membersOf(g)).toEqual({ admin: 'owner', bulk01: 'member', member2: 'member' });
    expect((await addEvents(g))[0].properties.addedUserNames).toEqual(['member2', 'bulk01']);
  });
});
