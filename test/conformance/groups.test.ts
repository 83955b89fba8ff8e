/**
 * Esri's client (@esri/arcgis-rest-portal / -request 4.10.2) against the running local portal over
 * real HTTP: groups and their members, including addGroupUsers splitting 30 names into requests of
 * at most 25 and merging what was not added.
 */
import { randomUUID } from 'node:crypto';
import {
  addGroupUsers,
  createGroup,
  getGroup,
  getGroupUsers,
  joinGroup,
  leaveGroup,
  protectGroup,
  removeGroup,
  removeGroupUsers,
  searchGroups,
  searchGroupUsers,
  SearchQueryBuilder,
  unprotectGroup,
  updateGroup,
  updateUserMemberships,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, ArcGISRequestError } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../support/service.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;
let partner: ArcGISIdentityManager;

const MEMBERS = Array.from({ length: 28 }, (_, i) => `crowd${String(i + 1).padStart(2, '0')}`);
const word = `Conf${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  svc = await startService();
  for (const username of MEMBERS) {
    await svc.db.query(
      `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, created, modified)
       SELECT $1, $2, $3, password_hash, $3, $4, 'org_user', 0, 0 FROM users WHERE username = 'user1'`,
      [randomUUID().replaceAll('-', ''), svc.orgId, username, `${username}@demo.example.com`],
    );
  }
  portal = await svc.listen();
  [admin, user1, partner] = await signInDemo(portal, 'admin', 'user1', 'partner_admin');
});
afterAll(() => svc.close());

async function membersOf(groupId: string) {
  const rows = await svc.db.query<{ username: string; member_type: string }>(
    'SELECT u.username, m.member_type FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 ORDER BY u.username',
    [groupId],
  );
  return Object.fromEntries(rows.map((r) => [r.username, r.member_type]));
}

describe('groups through rest-js', () => {
  let groupId: string;

  it('createGroup sends the group fields and answers {success, group}', async () => {
    const res = await createGroup({
      group: { title: `${word} Field Team`, access: 'org', tags: ['field', word], description: 'Made by rest-js', snippet: 'rest-js' },
      authentication: user1,
    });
    expect(res.success).toBe(true);
    expect(res.group).toMatchObject({
      title: `${word} Field Team`,
      owner: 'user1',
      access: 'org',
      tags: ['field', word],
      description: 'Made by rest-js',
      snippet: 'rest-js',
    });
    groupId = res.group.id;
    expect(groupId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("getGroup reads it with the caller's membership", async () => {
    const group = await getGroup(groupId, { authentication: user1 });
    expect(group).toMatchObject({ id: groupId, owner: 'user1', orgId: svc.orgId, userMembership: { username: 'user1', memberType: 'owner' } });
    const asAdmin = await getGroup(groupId, { authentication: admin });
    expect(asAdmin.userMembership).toMatchObject({ memberType: 'none' });
  });

  it('getGroup of a group another organization cannot see is an ArcGISRequestError', async () => {
    const err = await rejection(getGroup(groupId, { authentication: partner }));
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.response).toMatchObject({ error: { code: 400, message: 'Group does not exist or is inaccessible.' } });
  });

  it('searchGroups with a SearchQueryBuilder query and with a plain q', async () => {
    const q = new SearchQueryBuilder().match(word).in('tags').and().match('user1').in('owner');
    const res = await searchGroups({ q, authentication: admin, num: 10 });
    expect(res).toMatchObject({ total: 1, start: 1, num: 1, nextStart: -1 });
    expect(res.results.map((g) => g.id)).toEqual([groupId]);
    const plain = await searchGroups({ q: `title:"${word} Field Team"`, authentication: user1 });
    expect(plain.results.map((g) => g.id)).toEqual([groupId]);
    expect((await searchGroups({ q: `tags:${word}`, authentication: partner })).total).toBe(0);
  });

  it('searchGroups pages, and rest-js offers nextPage while nextStart > 0', async () => {
    for (const suffix of ['B', 'C']) await createGroup({ group: { title: `${word} Paged ${suffix}`, access: 'org', tags: [word] }, authentication: user1 });
    const first = await searchGroups({ q: `tags:${word}`, num: 2, sortField: 'title', authentication: admin });
    expect(first).toMatchObject({ total: 3, start: 1, num: 2, nextStart: 3 });
    expect(typeof first.nextPage).toBe('function');
    const second = await first.nextPage!();
    expect(second).toMatchObject({ total: 3, start: 3, num: 1, nextStart: -1 });
    expect(second.results.map((g) => g.title)).toEqual([`${word} Paged C`]);
  });

  it('addGroupUsers with 30 names: rest-js sends requests of at most 25 and merges notAdded', async () => {
    const users = [...MEMBERS.slice(0, 27), 'ghost_one', 'ghost_two', 'publisher1'];
    expect(users).toHaveLength(30);
    const res = await addGroupUsers({ id: groupId, users, admins: [MEMBERS[27]], authentication: user1 });
    expect(res.errors).toBeUndefined();
    expect(res.notAdded?.sort()).toEqual(['ghost_one', 'ghost_two']);
    const members = await membersOf(groupId);
    expect(Object.keys(members)).toHaveLength(30);
    for (const u of MEMBERS.slice(0, 27)) expect(members[u]).toBe('member');
    expect(members[MEMBERS[27]]).toBe('admin');
    expect(members.publisher1).toBe('member');
    // Each request stayed within the limit: three addUsers events (25, 3 and 1 names).
    const events = await svc.db.query<{ properties: { addedUserNames: string[] } }>(
      `SELECT properties FROM events WHERE operation = 'addUsers' AND subject_id = $1 ORDER BY seq`,
      [groupId],
    );
    expect(events.map((e) => e.properties.addedUserNames.length).sort((a, b) => a - b)).toEqual([1, 3, 25]);
  });

  it('a caller who may not add users: rest-js reports the failed chunk in errors, not as a rejection', async () => {
    const publisher = await ArcGISIdentityManager.signIn({ username: 'publisher1', password: DEMO_PASSWORD, portal });
    const res = await addGroupUsers({ id: groupId, users: ['viewer1'], authentication: publisher });
    expect(res.notAdded).toEqual([]);
    expect(res.errors).toHaveLength(1);
    expect(res.errors![0]).toBeInstanceOf(ArcGISRequestError);
    expect(res.errors![0].code).toBe('GWM_0003');
    expect((await membersOf(groupId)).viewer1).toBeUndefined();
  });

  it('getGroupUsers lists the owner among the admins; searchGroupUsers pages the userlist', async () => {
    const res = await getGroupUsers(groupId, { authentication: user1 });
    expect(res.owner).toBe('user1');
    expect(res.admins.sort()).toEqual([MEMBERS[27], 'user1'].sort());
    expect(res.users).toHaveLength(28);
    expect(res.users).toContain('publisher1');
    const page = await searchGroupUsers(groupId, { num: 5, start: 1, sortField: 'username', sortOrder: 'asc', authentication: user1 });
    expect(page).toMatchObject({ total: 30, start: 1, num: 5, nextStart: 6 });
    expect(page.users.map((u) => u.username)).toEqual(MEMBERS.slice(0, 5));
    const admins = await searchGroupUsers(groupId, { memberType: 'admin', authentication: user1 });
    expect(admins.users.map((u) => u.username)).toEqual([MEMBERS[27]]);
  });

  it('updateUserMemberships promotes and demotes', async () => {
    expect((await updateUserMemberships({ id: groupId, users: ['publisher1'], newMemberType: 'admin', authentication: user1 })).results).toEqual([
      { username: 'publisher1', success: true },
    ]);
    expect((await membersOf(groupId)).publisher1).toBe('admin');
    await updateUserMemberships({ id: groupId, users: ['publisher1'], newMemberType: 'member', authentication: user1 });
    expect((await membersOf(groupId)).publisher1).toBe('member');
  });

  it('removeGroupUsers chunks 30 names and merges notRemoved (the owner and the unknown)', async () => {
    const users = [...MEMBERS, 'user1', 'ghost_one'];
    const res = await removeGroupUsers({ id: groupId, users, authentication: user1 });
    expect(res.errors).toBeUndefined();
    expect(res.notRemoved?.sort()).toEqual(['ghost_one', 'user1']);
    expect(await membersOf(groupId)).toEqual({ publisher1: 'member', user1: 'owner' });
  });

  it('joinGroup, leaveGroup, updateGroup, protectGroup, removeGroup', async () => {
    const viewer = await ArcGISIdentityManager.signIn({ username: 'viewer1', password: DEMO_PASSWORD, portal });
    expect(await joinGroup({ id: groupId, authentication: viewer })).toMatchObject({ success: true, groupId });
    expect(await leaveGroup({ id: groupId, authentication: viewer })).toMatchObject({ success: true, groupId });
    expect(await updateGroup({ group: { id: groupId, snippet: 'Updated by rest-js' }, authentication: user1 })).toMatchObject({ success: true, groupId });
    expect((await getGroup(groupId, { authentication: user1 })).snippet).toBe('Updated by rest-js');
    expect(await protectGroup({ id: groupId, authentication: user1 })).toMatchObject({ success: true });
    const refused = await rejection(removeGroup({ id: groupId, authentication: user1 }));
    expect(refused).toBeInstanceOf(ArcGISRequestError);
    expect(await unprotectGroup({ id: groupId, authentication: user1 })).toMatchObject({ success: true });
    expect(await removeGroup({ id: groupId, authentication: user1 })).toMatchObject({ success: true, groupId });
    expect(await svc.db.query('SELECT 1 FROM groups WHERE id = $1', [groupId])).toEqual([]);
  });
});
