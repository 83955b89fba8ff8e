/**
 * Item Groups (`content/items/<id>/groups`): the groups an item is shared with, split into admin /
 * member / other as the caller sees them; groups the caller cannot see left out; the item's own
 * visibility and organization isolation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { getJson, insertItem, shareToGroup } from './manage.test-support.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, who?: string) => svc.post(path, params, who ? tokens[who] : undefined);

async function newGroup(owner: string, access: 'private' | 'org' | 'public', members: string[] = []): Promise<string> {
  const made = await post('community/createGroup', { title: `IG ${access} ${randomUUID().slice(0, 8)}`, access }, owner);
  expect(made.error, JSON.stringify(made)).toBeUndefined();
  const id = made.group.id as string;
  if (members.length) expect((await post(`community/groups/${id}/addUsers`, { users: members.join(',') }, owner)).notAdded).toEqual([]);
  return id;
}

const groupsOf = (itemId: string, who?: string) => post(`content/items/${itemId}/groups`, {}, who);
const ids = (groups: { id: string }[]) => groups.map((g) => g.id).sort();

describe('content/items/<id>/groups', () => {
  it('splits the groups by the caller: owned or managed under admin, joined under member, a private group the caller is not in left out', async () => {
    const ownGroup = await newGroup('publisher1', 'private');
    const joined = await newGroup('admin', 'private', ['publisher1', 'user1']);
    const notIn = await newGroup('admin', 'private');
    const orgGroup = await newGroup('admin', 'org');
    const item = await insertItem(svc, 'publisher1', { access: 'org' });
    for (const g of [ownGroup, joined, notIn, orgGroup]) await shareToGroup(svc, item, g);

    const owner = await groupsOf(item, 'publisher1');
    expect(ids(owner.admin)).toEqual([ownGroup]);
    expect(ids(owner.member)).toEqual([joined]);
    expect(ids(owner.other)).toEqual([orgGroup]);
    // A group object as the portal's other group answers give it, with the caller's membership.
    expect(owner.admin[0]).toMatchObject({
      id: ownGroup,
      owner: 'publisher1',
      access: 'private',
      userMembership: { username: 'publisher1', memberType: 'owner' },
    });
    expect(owner.member[0].userMembership).toEqual({ username: 'publisher1', memberType: 'member' });

    const member = await groupsOf(item, 'user1');
    expect(member.admin).toEqual([]);
    expect(ids(member.member)).toEqual([joined]);
    expect(ids(member.other)).toEqual([orgGroup]);
    expect(JSON.stringify(member)).not.toContain(notIn);
    expect(JSON.stringify(member)).not.toContain(ownGroup);

    // The organization's administrator sees every group of the organization.
    const admin = await groupsOf(item, 'admin');
    expect(ids(admin.admin)).toEqual([joined, notIn, orgGroup].sort());
    expect(ids(admin.other)).toEqual([ownGroup]);
    expect(admin.member).toEqual([]);
  });

  it('answers GET too, and an item shared with no group has three empty lists', async () => {
    const item = await insertItem(svc, 'publisher1');
    expect(await getJson(svc, `content/items/${item}/groups`, {}, tokens.publisher1)).toEqual({ admin: [], member: [], other: [] });
  });

  it('gives an anonymous caller of a public item only the public groups, without a membership', async () => {
    const publicGroup = await newGroup('admin', 'public');
    const orgGroup = await newGroup('admin', 'org');
    const privateGroup = await newGroup('publisher1', 'private');
    const item = await insertItem(svc, 'publisher1', { access: 'public' });
    for (const g of [publicGroup, orgGroup, privateGroup]) await shareToGroup(svc, item, g);

    const anonymous = await groupsOf(item);
    expect(anonymous.admin).toEqual([]);
    expect(anonymous.member).toEqual([]);
    expect(ids(anonymous.other)).toEqual([publicGroup]);
    expect(anonymous.other[0]).not.toHaveProperty('userMembership');

    // Another organization's caller sees the public item, and of its groups only the public one.
    const partner = await groupsOf(item, 'partner_admin');
    expect(ids([...partner.admin, ...partner.member, ...partner.other])).toEqual([publicGroup]);
  });

  it('refuses an item the caller cannot see as reading it does: another organization, or anonymous', async () => {
    const group = await newGroup('publisher1', 'private');
    const item = await insertItem(svc, 'publisher1', { access: 'org' });
    await shareToGroup(svc, item, group);
    const refusal = (await post(`content/items/${item}`, {}, 'partner_admin')).error;
    expect(refusal).toMatchObject({ code: 400, message: 'Item does not exist or is inaccessible.' });
    expect((await groupsOf(item, 'partner_admin')).error).toEqual(refusal);
    expect((await groupsOf(item)).error).toMatchObject({ code: 400, message: 'Item does not exist or is inaccessible.' });
  });

  it('answers an unknown item id with the error envelope', async () => {
    const unknown = randomUUID().replaceAll('-', '');
    expect(await groupsOf(unknown, 'admin')).toEqual({
      error: expect.objectContaining({
        code: 400,
        message: 'Item does not exist or is inaccessible.',
        details: [`Item '${unknown}' does not exist or is inaccessible.`],
      }),
    });
  });
});
