/**
 * Groups: createGroup, who sees a group (get and search), update, delete, protection, the member
 * lists, join and leave, removeUsers and updateUsers. addUsers has its own file.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

/** createGroup and joinGroup, but no shareGroupToOrg/shareGroupToPublic and no viewOrgGroups. */
const LIMITED = 'rLIMITEDAAAAAAAA';
/** Only viewOrgGroups: sees org groups, may not join them. */
const NO_JOIN = 'rNOJOINAAAAAAAAA';

let svc: TestService;
const tokens: Record<string, string> = {};
let n = 0;
const unique = (prefix: string) => `${prefix} ${++n}-${randomUUID().slice(0, 6)}`;

/** A member inserted directly, with the demo password (copied from user1). */
async function insertMember(username: string, orgId: string, role: string, roleId: string | null = null) {
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, $3, password_hash, $4, $5, $6, $7, 0, 0 FROM users WHERE username = 'user1'`,
    [randomUUID().replaceAll('-', ''), orgId, username, `Full ${username}`, `${username}@example.com`, role, roleId],
  );
}

beforeAll(async () => {
  svc = await startService();
  const insertRole = 'INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)';
  await svc.db.query(insertRole, [svc.orgId, LIMITED, 'Limited', '', ['portal:user:createGroup', 'portal:user:joinGroup']]);
  await svc.db.query(insertRole, [svc.orgId, NO_JOIN, 'No join', '', ['portal:user:viewOrgGroups']]);
  await insertMember('limited1', svc.orgId, 'org_user', LIMITED);
  await insertMember('nojoin1', svc.orgId, 'org_user', NO_JOIN);
  await insertMember('member2', svc.orgId, 'org_user');
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin', 'limited1', 'nojoin1', 'member2']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function get(path: string, params: Record<string, string> = {}, token?: string) {
  const query = new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) });
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${query}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

interface Group {
  id: string;
  title: string;
  owner: string;
  access: string;
}

async function createGroup(owner: string, fields: Record<string, string> = {}): Promise<Group> {
  const body = await post('community/createGroup', { title: unique('Group'), ...fields }, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.group;
}

/** Direct membership, for fixtures (addUsers itself is tested elsewhere). */
async function addMember(groupId: string, username: string, type: 'admin' | 'member' = 'member') {
  await svc.db.query(`INSERT INTO group_members (group_id, user_id, member_type, joined) SELECT $1, id, $3, 0 FROM users WHERE username = $2`, [
    groupId,
    username,
    type,
  ]);
}

async function membersOf(groupId: string) {
  const rows = await svc.db.query<{ username: string; member_type: string }>(
    'SELECT u.username, m.member_type FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 ORDER BY u.username',
    [groupId],
  );
  return Object.fromEntries(rows.map((r) => [r.username, r.member_type]));
}

async function groupEvents(groupId: string) {
  return svc.db.query<{ uri: string; source: string; operation: string; username: string | null; properties: Record<string, unknown> }>(
    `SELECT uri, source, operation, username, properties FROM events WHERE source = 'group' AND subject_id = $1 ORDER BY seq`,
    [groupId],
  );
}

const notFound = { code: 400, message: 'Group does not exist or is inaccessible.' };

describe('createGroup', () => {
  it('creates a private group owned by the caller, who is its first member', async () => {
    const title = unique('Survey team');
    const body = await post('community/createGroup', { title, tags: 'survey,field', description: 'Field survey crew', snippet: 'Crew' }, tokens.user1);
    expect(body).toMatchObject({
      success: true,
      group: {
        title,
        owner: 'user1',
        orgId: svc.orgId,
        access: 'private',
        tags: ['survey', 'field'],
        description: 'Field survey crew',
        snippet: 'Crew',
        protected: false,
        isInvitationOnly: false,
        leavingDisallowed: false,
        hiddenMembers: false,
        capabilities: [],
        userMembership: { username: 'user1', memberType: 'owner' },
        memberCount: 1,
      },
    });
    expect(body.group.id).toMatch(/^[0-9a-f]{32}$/);
    expect(await membersOf(body.group.id)).toEqual({ user1: 'owner' });
    expect(await groupEvents(body.group.id)).toEqual([
      { uri: `/groups/${body.group.id}/add`, source: 'group', operation: 'add', username: 'user1', properties: { title: [title] } },
    ]);
  });

  it('requires a title', async () => {
    expect((await post('community/createGroup', { access: 'private' }, tokens.user1)).error).toMatchObject({
      code: 400,
      fieldErrors: { title: 'is required' },
    });
    expect((await post('community/createGroup', { title: '   ' }, tokens.user1)).error).toMatchObject({
      code: 400,
      fieldErrors: { title: expect.any(String) },
    });
  });

  it('accepts a title of 250 characters and refuses 251', async () => {
    const at = `${'t'.repeat(246)}${String(++n).padStart(4, '0')}`;
    expect((await post('community/createGroup', { title: at }, tokens.user1)).success).toBe(true);
    const over = await post('community/createGroup', { title: 'x'.repeat(251) }, tokens.user1);
    expect(over.error).toMatchObject({ code: 400, fieldErrors: { title: expect.any(String) } });
  });

  it('refuses an unknown access value', async () => {
    expect((await post('community/createGroup', { title: unique('Bad access'), access: 'everyone' }, tokens.user1)).error).toMatchObject({
      code: 400,
      fieldErrors: { access: expect.any(String) },
    });
  });

  it('refuses a title the owner already uses (any case), naming `title`; another owner may use it', async () => {
    const title = unique('Same title');
    await createGroup('user1', { title });
    const dup = await post('community/createGroup', { title: title.toUpperCase() }, tokens.user1);
    expect(dup.error).toMatchObject({ code: 400, fieldErrors: { title: expect.stringContaining('already') } });
    expect(await svc.db.query('SELECT 1 FROM groups WHERE lower(title) = lower($1)', [title])).toHaveLength(1);
    expect((await post('community/createGroup', { title }, tokens.publisher1)).success).toBe(true);
  });

  it('the same new title asked for several times at once: one group, the others refused naming `title`', async () => {
    const title = unique('Race');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post('community/createGroup', { title: i % 2 ? title.toUpperCase() : title }, tokens.user1)),
    );
    expect(
      results.filter((r) => r.success),
      JSON.stringify(results),
    ).toHaveLength(1);
    for (const r of results.filter((r) => r.error)) expect(r.error).toMatchObject({ code: 400, fieldErrors: { title: expect.stringContaining('already') } });
    expect(await svc.db.query('SELECT 1 FROM groups WHERE lower(title) = lower($1)', [title])).toHaveLength(1);
  });

  it('needs portal:user:createGroup: viewer1 is refused', async () => {
    const title = unique('Viewer group');
    for (const access of ['private', 'org']) {
      const body = await post('community/createGroup', { title, access }, tokens.viewer1);
      expect(body.error).toMatchObject({ code: 403, details: ['Requires the privilege portal:user:createGroup.'] });
    }
    expect(await svc.db.query('SELECT 1 FROM groups WHERE title = $1', [title])).toEqual([]);
  });

  it('an org group needs portal:user:shareGroupToOrg, a public one portal:user:shareGroupToPublic', async () => {
    expect((await createGroup('limited1', { access: 'private' })).access).toBe('private');
    const org = await post('community/createGroup', { title: unique('Limited org'), access: 'org' }, tokens.limited1);
    expect(org.error).toMatchObject({ code: 403, details: ['Requires the privilege portal:user:shareGroupToOrg.'] });
    const pub = await post('community/createGroup', { title: unique('Limited public'), access: 'public' }, tokens.limited1);
    expect(pub.error).toMatchObject({ code: 403, details: ['Requires the privilege portal:user:shareGroupToPublic.'] });
    expect((await createGroup('user1', { access: 'org' })).access).toBe('org');
    expect((await createGroup('user1', { access: 'public' })).access).toBe('public');
  });

  it('leaving-disallowed and shared-update groups need administrative privileges', async () => {
    expect((await post('community/createGroup', { title: unique('No leaving'), leavingDisallowed: 'true' }, tokens.user1)).error).toMatchObject({ code: 403 });
    expect((await post('community/createGroup', { title: unique('Shared update'), capabilities: 'updateitemcontrol' }, tokens.user1)).error).toMatchObject({
      code: 403,
    });
    expect((await post('community/createGroup', { title: unique('Bad cap'), capabilities: 'flying' }, tokens.admin)).error).toMatchObject({
      code: 400,
      fieldErrors: { capabilities: expect.any(String) },
    });
    expect(await createGroup('admin', { leavingDisallowed: 'true', capabilities: 'updateitemcontrol' })).toMatchObject({
      leavingDisallowed: true,
      capabilities: ['updateitemcontrol'],
    });
  });

  it('needs a token', async () => {
    expect((await post('community/createGroup', { title: unique('Anonymous') })).error).toMatchObject({ code: 499 });
  });
});

describe('who sees a group', () => {
  let priv: Group;
  let org: Group;
  let pub: Group;
  beforeAll(async () => {
    priv = await createGroup('user1', { access: 'private' });
    org = await createGroup('user1', { access: 'org' });
    pub = await createGroup('user1', { access: 'public' });
  });

  const sees = async (groupId: string, who?: string) => {
    const body = await get(`community/groups/${groupId}`, {}, who ? tokens[who] : undefined);
    if (body.error) {
      expect(body.error).toMatchObject(notFound);
      return false;
    }
    expect(body.id).toBe(groupId);
    return true;
  };

  it("a private group: its members and the organization's administrators only", async () => {
    expect(await sees(priv.id, 'user1')).toBe(true);
    expect(await sees(priv.id, 'admin')).toBe(true);
    for (const who of ['publisher1', 'viewer1', 'limited1', 'partner_admin', undefined]) expect(await sees(priv.id, who), who).toBe(false);
    const asAdmin = await get(`community/groups/${priv.id}`, {}, tokens.admin);
    expect(asAdmin.userMembership).toEqual({ username: 'admin', memberType: 'none' });
  });

  it('an unknown group answers exactly like an invisible one', async () => {
    const unknown = await get('community/groups/0123456789abcdef0123456789abcdef', {}, tokens.admin);
    const hidden = await get(`community/groups/${priv.id}`, {}, tokens.publisher1);
    expect(unknown.error.code).toBe(hidden.error.code);
    expect(unknown.error.message).toBe(hidden.error.message);
  });

  it('an org group: members of the organization who may view its groups; not another organization', async () => {
    for (const who of ['user1', 'admin', 'publisher1', 'viewer1', 'nojoin1']) expect(await sees(org.id, who), who).toBe(true);
    // limited1's role lacks portal:user:viewOrgGroups.
    for (const who of ['limited1', 'partner_admin', undefined]) expect(await sees(org.id, who), who).toBe(false);
  });

  it('a public group: everyone, anonymous callers included (without userMembership)', async () => {
    for (const who of ['user1', 'publisher1', 'limited1', 'partner_admin']) expect(await sees(pub.id, who), who).toBe(true);
    const anonymous = await get(`community/groups/${pub.id}`);
    expect(anonymous).toMatchObject({ id: pub.id, access: 'public', owner: 'user1' });
    expect(anonymous).not.toHaveProperty('userMembership');
  });

  it('membership makes a group visible, also across organizations', async () => {
    const g = await createGroup('user1', { access: 'org' });
    expect(await sees(g.id, 'partner_admin')).toBe(false);
    expect(await sees(g.id, 'limited1')).toBe(false);
    await addMember(g.id, 'partner_admin');
    await addMember(g.id, 'limited1');
    expect(await sees(g.id, 'partner_admin')).toBe(true);
    expect(await sees(g.id, 'limited1')).toBe(true);
    expect((await get(`community/groups/${g.id}`, {}, tokens.partner_admin)).userMembership).toEqual({ username: 'partner_admin', memberType: 'member' });
  });

  it("the administrator of another organization does not see this organization's private groups", async () => {
    expect(await sees(priv.id, 'partner_admin')).toBe(false);
    const mine = await createGroup('partner_admin', { access: 'private' });
    expect(await sees(mine.id, 'admin')).toBe(false);
    expect(await sees(mine.id, 'partner_admin')).toBe(true);
  });
});

describe('searching groups', () => {
  const tag = `tag${randomUUID().slice(0, 8)}`;
  const word = `Word${randomUUID().slice(0, 8)}`;
  const groups: Record<string, Group> = {};
  beforeAll(async () => {
    groups.alphaPrivate = await createGroup('user1', { title: `${word} Alpha`, access: 'private', tags: `${tag},red` });
    groups.betaOrg = await createGroup('user1', { title: `${word} Beta`, access: 'org', tags: `${tag},blue` });
    groups.gammaPublic = await createGroup('publisher1', { title: `${word} Gamma`, access: 'public', tags: `${tag},red` });
    groups.deltaOrg = await createGroup('publisher1', { title: `Other Delta ${word.toLowerCase()}`, access: 'org', description: `Mentions ${tag} in prose` });
    groups.partnerPublic = await createGroup('partner_admin', { title: `${word} Partner`, access: 'public', tags: tag });
    groups.partnerPrivate = await createGroup('partner_admin', { title: `${word} Partner hidden`, access: 'private', tags: tag });
  });

  const search = async (q: string, who?: string, extra: Record<string, string> = {}) =>
    get('community/groups', { q, num: '100', ...extra }, who ? tokens[who] : undefined);
  const titles = (body: { results: { title: string }[] }) => body.results.map((r) => r.title).sort();

  it('tags: finds groups carrying the tag that the caller may see', async () => {
    expect(titles(await search(`tags:${tag}`, 'user1'))).toEqual([`${word} Alpha`, `${word} Beta`, `${word} Gamma`, `${word} Partner`].sort());
    expect(titles(await search(`tags:${tag}`, 'publisher1'))).toEqual([`${word} Beta`, `${word} Gamma`, `${word} Partner`].sort());
    expect(titles(await search(`tags:${tag}`, 'admin'))).toEqual([`${word} Alpha`, `${word} Beta`, `${word} Gamma`, `${word} Partner`].sort());
    expect(titles(await search(`tags:${tag}`, 'partner_admin'))).toEqual([`${word} Gamma`, `${word} Partner`, `${word} Partner hidden`].sort());
    expect(titles(await search(`tags:${tag}`))).toEqual([`${word} Gamma`, `${word} Partner`].sort());
  });

  it('title: matches within the title', async () => {
    expect(titles(await search(`title:${word}`, 'admin'))).toEqual(
      [`${word} Alpha`, `${word} Beta`, `${word} Gamma`, `${word} Partner`, `Other Delta ${word.toLowerCase()}`].sort(),
    );
    expect(titles(await search(`title:"${word} Gamma"`, 'admin'))).toEqual([`${word} Gamma`]);
  });

  it('owner: and AND combine', async () => {
    expect(titles(await search(`title:${word} AND owner:publisher1`, 'admin'))).toEqual([`${word} Gamma`, `Other Delta ${word.toLowerCase()}`].sort());
    expect(titles(await search(`owner:user1 AND tags:red AND tags:${tag}`, 'user1'))).toEqual([`${word} Alpha`]);
  });

  it('free text matches title, description and tags', async () => {
    expect(titles(await search(tag, 'admin'))).toEqual(
      [`${word} Alpha`, `${word} Beta`, `${word} Gamma`, `${word} Partner`, `Other Delta ${word.toLowerCase()}`].sort(),
    );
    expect(titles(await search(`${word} Beta`, 'admin'))).toEqual([`${word} Beta`]);
  });

  it('answers in the paging envelope and echoes the query', async () => {
    const q = `tags:${tag}`;
    const first = await get('community/groups', { q, num: '2', sortField: 'title' }, tokens.admin);
    expect(first).toMatchObject({ query: q, total: 4, start: 1, num: 2, nextStart: 3 });
    expect(first.results.map((r: Group) => r.title)).toEqual([`${word} Alpha`, `${word} Beta`]);
    const second = await get('community/groups', { q, num: '2', start: '3', sortField: 'title' }, tokens.admin);
    expect(second).toMatchObject({ total: 4, start: 3, num: 2, nextStart: -1 });
    expect(second.results.map((r: Group) => r.title)).toEqual([`${word} Gamma`, `${word} Partner`]);
    const desc = await get('community/groups', { q, num: '1', sortField: 'title', sortOrder: 'desc' }, tokens.admin);
    expect(desc.results.map((r: Group) => r.title)).toEqual([`${word} Partner`]);
    const past = await get('community/groups', { q, start: '10' }, tokens.admin);
    expect(past).toMatchObject({ total: 4, start: 10, num: 0, nextStart: -1, results: [] });
  });

  it("each result carries the caller's membership", async () => {
    const body = await search(`tags:${tag}`, 'user1');
    const alpha = body.results.find((r: Group) => r.id === groups.alphaPrivate.id);
    const gamma = body.results.find((r: Group) => r.id === groups.gammaPublic.id);
    expect(alpha.userMembership).toEqual({ username: 'user1', memberType: 'owner' });
    expect(gamma.userMembership).toEqual({ username: 'user1', memberType: 'none' });
  });
});

describe('updating a group', () => {
  it('the owner updates fields; a group update event is written', async () => {
    const g = await createGroup('user1');
    const title = unique('Renamed');
    expect(await post(`community/groups/${g.id}/update`, { title, description: 'New description', tags: 'a,b', access: 'org' }, tokens.user1)).toEqual({
      success: true,
      groupId: g.id,
    });
    expect(await get(`community/groups/${g.id}`, {}, tokens.user1)).toMatchObject({ title, description: 'New description', tags: ['a', 'b'], access: 'org' });
    expect((await groupEvents(g.id)).at(-1)).toMatchObject({ uri: `/groups/${g.id}/update`, operation: 'update', username: 'user1' });
  });

  it('a manager may update; so may an administrator of the organization (portal:admin:updateGroups)', async () => {
    const g = await createGroup('user1');
    await addMember(g.id, 'publisher1', 'admin');
    expect(await post(`community/groups/${g.id}/update`, { snippet: 'by the manager' }, tokens.publisher1)).toEqual({ success: true, groupId: g.id });
    expect(await post(`community/groups/${g.id}/update`, { description: 'by the administrator' }, tokens.admin)).toEqual({ success: true, groupId: g.id });
    expect(await get(`community/groups/${g.id}`, {}, tokens.user1)).toMatchObject({ snippet: 'by the manager', description: 'by the administrator' });
  });

  it('a plain member is refused with 403 and nothing changes', async () => {
    const g = await createGroup('user1', { description: 'original' });
    await addMember(g.id, 'member2');
    const body = await post(`community/groups/${g.id}/update`, { description: 'by a member' }, tokens.member2);
    expect(body.error).toMatchObject({ code: 403 });
    expect((await get(`community/groups/${g.id}`, {}, tokens.user1)).description).toBe('original');
    expect((await groupEvents(g.id)).filter((e) => e.operation === 'update')).toEqual([]);
  });

  it('a non-member who sees the group is refused (403); one who does not, is told it does not exist', async () => {
    const org = await createGroup('user1', { access: 'org' });
    expect((await post(`community/groups/${org.id}/update`, { description: 'x' }, tokens.publisher1)).error).toMatchObject({ code: 403 });
    const pub = await createGroup('user1', { access: 'public' });
    expect((await post(`community/groups/${pub.id}/update`, { description: 'x' }, tokens.partner_admin)).error).toMatchObject({ code: 403 });
    const priv = await createGroup('user1');
    expect((await post(`community/groups/${priv.id}/update`, { description: 'x' }, tokens.partner_admin)).error).toMatchObject(notFound);
  });

  it('making a group visible to the organization or everyone needs the same privileges as at creation', async () => {
    const g = await createGroup('limited1');
    expect((await post(`community/groups/${g.id}/update`, { access: 'org' }, tokens.limited1)).error).toMatchObject({
      code: 403,
      details: ['Requires the privilege portal:user:shareGroupToOrg.'],
    });
    expect((await post(`community/groups/${g.id}/update`, { access: 'public' }, tokens.limited1)).error).toMatchObject({ code: 403 });
    expect((await get(`community/groups/${g.id}`, {}, tokens.limited1)).access).toBe('private');
    expect(await post(`community/groups/${g.id}/update`, { snippet: 'still private' }, tokens.limited1)).toEqual({ success: true, groupId: g.id });
  });

  it('refuses a title the owner uses for another group', async () => {
    const a = await createGroup('user1');
    const b = await createGroup('user1');
    expect((await post(`community/groups/${b.id}/update`, { title: a.title.toLowerCase() }, tokens.user1)).error).toMatchObject({
      code: 400,
      fieldErrors: { title: expect.any(String) },
    });
    expect(await post(`community/groups/${b.id}/update`, { title: b.title.toUpperCase() }, tokens.user1)).toEqual({ success: true, groupId: b.id });
  });
});

describe('protect, unprotect and delete', () => {
  it('a protected group cannot be deleted until it is unprotected', async () => {
    const g = await createGroup('user1');
    expect(await post(`community/groups/${g.id}/protect`, {}, tokens.user1)).toEqual({ success: true, groupId: g.id });
    expect((await get(`community/groups/${g.id}`, {}, tokens.user1)).protected).toBe(true);
    const refused = await post(`community/groups/${g.id}/delete`, {}, tokens.user1);
    expect(refused.error).toMatchObject({ code: 400, message: expect.stringContaining('protected') });
    expect((await post(`community/groups/${g.id}/delete`, {}, tokens.admin)).error).toMatchObject({ code: 400 });
    expect(await post(`community/groups/${g.id}/unprotect`, {}, tokens.user1)).toEqual({ success: true, groupId: g.id });
    expect((await get(`community/groups/${g.id}`, {}, tokens.user1)).protected).toBe(false);
    expect(await post(`community/groups/${g.id}/delete`, {}, tokens.user1)).toEqual({ success: true, groupId: g.id });
    expect((await get(`community/groups/${g.id}`, {}, tokens.user1)).error).toMatchObject(notFound);
    expect(await svc.db.query('SELECT 1 FROM group_members WHERE group_id = $1', [g.id])).toEqual([]);
    expect((await groupEvents(g.id)).map((e) => [e.uri, e.operation])).toEqual([
      [`/groups/${g.id}/add`, 'add'],
      [`/groups/${g.id}/protect`, 'protect'],
      [`/groups/${g.id}/unprotect`, 'unprotect'],
      [`/groups/${g.id}/delete`, 'delete'],
    ]);
  });

  it('protection: the owner or an administrator; a manager or member is refused', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'publisher1', 'admin');
    await addMember(g.id, 'member2');
    expect((await post(`community/groups/${g.id}/protect`, {}, tokens.member2)).error).toMatchObject({ code: 403 });
    expect((await post(`community/groups/${g.id}/protect`, {}, tokens.publisher1)).error).toMatchObject({ code: 403 });
    expect((await get(`community/groups/${g.id}`, {}, tokens.user1)).protected).toBe(false);
    expect(await post(`community/groups/${g.id}/protect`, {}, tokens.admin)).toEqual({ success: true, groupId: g.id });
    expect((await post(`community/groups/${g.id}/unprotect`, {}, tokens.member2)).error).toMatchObject({ code: 403 });
    expect((await get(`community/groups/${g.id}`, {}, tokens.user1)).protected).toBe(true);
  });

  it('delete: a non-owner who is not an administrator is refused with 403 (managers too)', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'publisher1', 'admin');
    await addMember(g.id, 'member2');
    for (const who of ['member2', 'publisher1', 'viewer1'])
      expect((await post(`community/groups/${g.id}/delete`, {}, tokens[who])).error, who).toMatchObject({ code: 403 });
    expect((await post(`community/groups/${g.id}/delete`, {}, tokens.partner_admin)).error).toMatchObject(notFound);
    expect(await svc.db.query('SELECT 1 FROM groups WHERE id = $1', [g.id])).toHaveLength(1);
    expect(await post(`community/groups/${g.id}/delete`, {}, tokens.admin)).toEqual({ success: true, groupId: g.id });
    expect(await svc.db.query('SELECT 1 FROM groups WHERE id = $1', [g.id])).toEqual([]);
  });
});

describe('member lists: users and userlist', () => {
  let g: Group;
  beforeAll(async () => {
    g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'publisher1', 'admin');
    await addMember(g.id, 'member2');
    await addMember(g.id, 'viewer1');
  });

  it('users: the owner, admins (the owner among them) and plain members', async () => {
    const body = await get(`community/groups/${g.id}/users`, {}, tokens.member2);
    expect(body).toEqual({ owner: 'user1', admins: ['publisher1', 'user1'], users: ['member2', 'viewer1'] });
  });

  it('userlist: the paging envelope, member types, filters', async () => {
    const all = await get(`community/groups/${g.id}/userlist`, { num: '2' }, tokens.user1);
    expect(all).toMatchObject({ total: 4, start: 1, num: 2, nextStart: 3, owner: { username: 'user1' } });
    expect(all.users.map((u: { username: string; memberType: string }) => [u.username, u.memberType])).toEqual([
      ['member2', 'member'],
      ['publisher1', 'admin'],
    ]);
    expect(all.users[0]).toMatchObject({ fullName: 'Full member2', joined: expect.any(Number) });
    const rest = await get(`community/groups/${g.id}/userlist`, { num: '2', start: '3' }, tokens.user1);
    expect(rest).toMatchObject({ total: 4, start: 3, num: 2, nextStart: -1 });
    expect(rest.users.map((u: { username: string }) => u.username)).toEqual(['user1', 'viewer1']);
    const admins = await get(`community/groups/${g.id}/userlist`, { memberType: 'admins' }, tokens.user1);
    expect(admins.users.map((u: { username: string }) => u.username)).toEqual(['publisher1', 'user1']);
    const owner = await get(`community/groups/${g.id}/userlist`, { memberType: 'owner' }, tokens.user1);
    expect(owner.users.map((u: { username: string }) => u.username)).toEqual(['user1']);
    const named = await get(`community/groups/${g.id}/userlist`, { name: 'view' }, tokens.user1);
    expect(named).toMatchObject({ total: 1, users: [{ username: 'viewer1' }] });
  });

  it('visible to whoever sees the group; not to another organization', async () => {
    expect((await get(`community/groups/${g.id}/users`, {}, tokens.nojoin1)).owner).toBe('user1');
    expect((await get(`community/groups/${g.id}/users`, {}, tokens.partner_admin)).error).toMatchObject(notFound);
    expect((await get(`community/groups/${g.id}/userlist`, {}, tokens.partner_admin)).error).toMatchObject(notFound);
    expect((await get(`community/groups/${g.id}/users`)).error).toMatchObject(notFound);
  });

  it('hiddenMembers: plain members and onlookers are refused; the owner, managers and administrators see them', async () => {
    const hidden = await createGroup('user1', { access: 'org', hiddenMembers: 'true' });
    await addMember(hidden.id, 'publisher1', 'admin');
    await addMember(hidden.id, 'member2');
    for (const who of ['member2', 'viewer1']) {
      expect((await get(`community/groups/${hidden.id}/users`, {}, tokens[who])).error, who).toMatchObject({ code: 403 });
      expect((await get(`community/groups/${hidden.id}/userlist`, {}, tokens[who])).error, who).toMatchObject({ code: 403 });
    }
    for (const who of ['user1', 'publisher1', 'admin']) {
      expect(await get(`community/groups/${hidden.id}/users`, {}, tokens[who]), who).toEqual({
        owner: 'user1',
        admins: ['publisher1', 'user1'],
        users: ['member2'],
      });
      expect((await get(`community/groups/${hidden.id}/userlist`, {}, tokens[who])).total, who).toBe(3);
    }
  });
});

describe('join and leave', () => {
  it('a member of the organization joins an org group and leaves it; both write events', async () => {
    const g = await createGroup('user1', { access: 'org' });
    expect(await post(`community/groups/${g.id}/join`, {}, tokens.publisher1)).toEqual({ success: true, groupId: g.id });
    expect(await membersOf(g.id)).toEqual({ publisher1: 'member', user1: 'owner' });
    // Joining again is harmless.
    expect(await post(`community/groups/${g.id}/join`, {}, tokens.publisher1)).toEqual({ success: true, groupId: g.id });
    expect(await post(`community/groups/${g.id}/leave`, {}, tokens.publisher1)).toEqual({ success: true, groupId: g.id });
    expect(await membersOf(g.id)).toEqual({ user1: 'owner' });
    const events = (await groupEvents(g.id)).filter((e) => e.operation !== 'add');
    expect(events).toEqual([
      { uri: `/groups/${g.id}/addUsers`, source: 'group', operation: 'addUsers', username: 'publisher1', properties: { addedUserNames: ['publisher1'] } },
      {
        uri: `/groups/${g.id}/removeUsers`,
        source: 'group',
        operation: 'removeUsers',
        username: 'publisher1',
        properties: { removedUserNames: ['publisher1'] },
      },
    ]);
  });

  it('an invitation-only group cannot be joined', async () => {
    const g = await createGroup('user1', { access: 'org', isInvitationOnly: 'true' });
    const body = await post(`community/groups/${g.id}/join`, {}, tokens.publisher1);
    expect(body.error).toMatchObject({ code: 400, message: expect.stringContaining('invitation') });
    expect(await membersOf(g.id)).toEqual({ user1: 'owner' });
  });

  it('joining needs portal:user:joinGroup', async () => {
    const g = await createGroup('user1', { access: 'org' });
    expect((await post(`community/groups/${g.id}/join`, {}, tokens.nojoin1)).error).toMatchObject({
      code: 403,
      details: [expect.stringContaining('portal:user:joinGroup')],
    });
    expect(await post(`community/groups/${g.id}/join`, {}, tokens.viewer1)).toEqual({ success: true, groupId: g.id });
    expect(await membersOf(g.id)).toEqual({ user1: 'owner', viewer1: 'member' });
  });

  it('a private group cannot be joined by someone who cannot see it', async () => {
    const g = await createGroup('user1');
    expect((await post(`community/groups/${g.id}/join`, {}, tokens.publisher1)).error).toMatchObject(notFound);
    expect(await membersOf(g.id)).toEqual({ user1: 'owner' });
  });

  it('the owner cannot leave', async () => {
    const g = await createGroup('user1');
    expect((await post(`community/groups/${g.id}/leave`, {}, tokens.user1)).error).toMatchObject({ code: 400, message: expect.stringContaining('owner') });
    expect(await membersOf(g.id)).toEqual({ user1: 'owner' });
  });

  it('members of a leaving-disallowed group cannot leave', async () => {
    const g = await createGroup('admin', { access: 'org', leavingDisallowed: 'true' });
    expect(await post(`community/groups/${g.id}/join`, {}, tokens.user1)).toEqual({ success: true, groupId: g.id });
    expect((await post(`community/groups/${g.id}/leave`, {}, tokens.user1)).error).toMatchObject({ code: 400 });
    expect(await membersOf(g.id)).toEqual({ admin: 'owner', user1: 'member' });
  });

  it('leaving a group one is not in is an error', async () => {
    const g = await createGroup('user1', { access: 'org' });
    expect((await post(`community/groups/${g.id}/leave`, {}, tokens.publisher1)).error).toMatchObject({ code: 400 });
  });
});

describe('removeUsers', () => {
  it('the owner removes members; the owner and non-members stay in notRemoved; one event names the removed', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'publisher1', 'admin');
    await addMember(g.id, 'member2');
    await addMember(g.id, 'viewer1');
    const body = await post(`community/groups/${g.id}/removeUsers`, { users: 'member2,user1,VIEWER1,nobody_here,admin' }, tokens.user1);
    expect(body).toEqual({ notRemoved: ['user1', 'nobody_here', 'admin'] });
    expect(await membersOf(g.id)).toEqual({ publisher1: 'admin', user1: 'owner' });
    const removed = (await groupEvents(g.id)).filter((e) => e.operation === 'removeUsers');
    expect(removed).toEqual([
      {
        uri: `/groups/${g.id}/removeUsers`,
        source: 'group',
        operation: 'removeUsers',
        username: 'user1',
        properties: { removedUserNames: ['member2', 'viewer1'] },
      },
    ]);
  });

  it('the owner is never removed, not even by an administrator; no event when no one was removed', async () => {
    const g = await createGroup('user1', { access: 'org' });
    expect(await post(`community/groups/${g.id}/removeUsers`, { users: 'user1' }, tokens.admin)).toEqual({ notRemoved: ['user1'] });
    expect(await membersOf(g.id)).toEqual({ user1: 'owner' });
    expect((await groupEvents(g.id)).filter((e) => e.operation === 'removeUsers')).toEqual([]);
  });

  it('a manager removes members but not other managers; the owner removes managers', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'publisher1', 'admin');
    await addMember(g.id, 'viewer1', 'admin');
    await addMember(g.id, 'member2');
    expect(await post(`community/groups/${g.id}/removeUsers`, { users: 'member2,viewer1' }, tokens.publisher1)).toEqual({ notRemoved: ['viewer1'] });
    expect(await post(`community/groups/${g.id}/removeUsers`, { users: 'viewer1' }, tokens.user1)).toEqual({ notRemoved: [] });
    expect(await membersOf(g.id)).toEqual({ publisher1: 'admin', user1: 'owner' });
  });

  it('a plain member is refused with 403', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'member2');
    await addMember(g.id, 'viewer1');
    expect((await post(`community/groups/${g.id}/removeUsers`, { users: 'viewer1' }, tokens.member2)).error).toMatchObject({ code: 403 });
    expect(await membersOf(g.id)).toEqual({ member2: 'member', user1: 'owner', viewer1: 'member' });
  });

  it('takes at most 25 names: 26 is ORG_3100', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'member2');
    const names = (k: number) => ['member2', ...Array.from({ length: k - 1 }, (_, i) => `ghost${i}`)].join(',');
    expect((await post(`community/groups/${g.id}/removeUsers`, { users: names(26) }, tokens.user1)).error).toMatchObject({
      code: 400,
      messageCode: 'ORG_3100',
    });
    expect(await membersOf(g.id)).toEqual({ member2: 'member', user1: 'owner' });
    const ok = await post(`community/groups/${g.id}/removeUsers`, { users: names(25) }, tokens.user1);
    expect(ok.notRemoved).toHaveLength(24);
    expect(await membersOf(g.id)).toEqual({ user1: 'owner' });
  });
});

describe('updateUsers', () => {
  it('the owner promotes with admins and demotes with users; the owner stays owner', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'member2');
    await addMember(g.id, 'viewer1');
    const up = await post(`community/groups/${g.id}/updateUsers`, { admins: 'member2,user1,nobody_here' }, tokens.user1);
    expect(up).toEqual({
      results: [
        { username: 'member2', success: true },
        { username: 'user1', success: false },
        { username: 'nobody_here', success: false },
      ],
    });
    expect(await membersOf(g.id)).toEqual({ member2: 'admin', user1: 'owner', viewer1: 'member' });
    const down = await post(`community/groups/${g.id}/updateUsers`, { users: 'member2,user1,publisher1' }, tokens.user1);
    expect(down.results).toEqual([
      { username: 'member2', success: true },
      { username: 'user1', success: false },
      { username: 'publisher1', success: false },
    ]);
    expect(await membersOf(g.id)).toEqual({ member2: 'member', user1: 'owner', viewer1: 'member' });
    const events = (await groupEvents(g.id)).filter((e) => e.operation === 'updateUsers');
    expect(events.map((e) => e.properties)).toEqual([{ updatedUserNames: ['member2'] }, { updatedUserNames: ['member2'] }]);
    expect(events[0].uri).toBe(`/groups/${g.id}/updateUsers`);
  });

  it('an administrator may; a manager or member may not', async () => {
    const g = await createGroup('user1', { access: 'org' });
    await addMember(g.id, 'publisher1', 'admin');
    await addMember(g.id, 'member2');
    expect((await post(`community/groups/${g.id}/updateUsers`, { admins: 'member2' }, tokens.publisher1)).error).toMatchObject({ code: 403 });
    expect((await post(`community/groups/${g.id}/updateUsers`, { users: 'publisher1' }, tokens.member2)).error).toMatchObject({ code: 403 });
    expect(await membersOf(g.id)).toEqual({ member2: 'member', publisher1: 'admin', user1: 'owner' });
    expect((await post(`community/groups/${g.id}/updateUsers`, { admins: 'member2' }, tokens.admin)).results).toEqual([{ username: 'member2', success: true }]);
    expect(await membersOf(g.id)).toEqual({ member2: 'admin', publisher1: 'admin', user1: 'owner' });
  });
});
