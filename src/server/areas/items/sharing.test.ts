/** share / unshare (both paths), shareItems / unshareItems, the sharing privileges, group rules and events. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { eventsFor, getJson, insertItem } from './manage.test-support.ts';

/** createItem and shareToGroup only: no org or public sharing. */
const GROUP_ONLY = 'rGROUPONLYAAAAAA';

let svc: TestService;
const tokens: Record<string, string> = {};

async function insertMember(username: string, roleId: string | null, role = 'org_user') {
  await svc.db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, $3, password_hash, $3, $4, $5, $6, 0, 0 FROM users WHERE username = 'user1'`,
    [randomUUID().replaceAll('-', ''), svc.orgId, username, `${username}@example.com`, role, roleId],
  );
}

beforeAll(async () => {
  svc = await startService();
  await svc.db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
    svc.orgId,
    GROUP_ONLY,
    'Group sharer',
    '',
    ['portal:user:createItem', 'portal:user:shareToGroup', 'portal:user:joinGroup'],
  ]);
  await insertMember('groupsharer', GROUP_ONLY);
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin', 'groupsharer']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, who: string) => svc.post(path, params, tokens[who]);
const newGroup = async (owner: string, fields: Record<string, string> = {}) =>
  (await post('community/createGroup', { title: `G ${randomUUID().slice(0, 8)}`, ...fields }, owner)).group.id as string;
const sharingOf = async (id: string) =>
  (await getJson(svc, `content/users/${(await getJson(svc, `content/items/${id}`, {}, tokens.admin)).owner}/items/${id}`, {}, tokens.admin)).sharing;

describe('share', () => {
  it('shares to groups the owner belongs to; others land in notSharedWith', async () => {
    const mine = await newGroup('user1');
    const notMine = await newGroup('publisher1');
    const id = await insertItem(svc, 'user1');
    const body = await post(`content/users/user1/items/${id}/share`, { groups: `${mine},${notMine},nonexistent` }, 'user1');
    expect(body).toEqual({ notSharedWith: [notMine, 'nonexistent'], itemId: id });
    expect(await sharingOf(id)).toEqual({ access: 'shared', groups: [mine] });
    const events = await eventsFor(svc, id);
    expect(events).toEqual([{ operation: 'share', properties: { sharedToGroups: [mine] } }]);
    expect((await eventsFor(svc, mine)).at(-1)).toEqual({ operation: 'share', properties: { sharedItems: [{ itemId: id, itemType: 'Web Map' }] } });
  });

  it('everyone=true makes it public, org=true the organization’s, both false private (setItemAccess), groups=" " none', async () => {
    const id = await insertItem(svc, 'user1');
    expect(
      (await post(`content/users/user1/items/${id}/share`, { everyone: 'true', account: 'true', org: 'false', groups: ' ' }, 'user1')).notSharedWith,
    ).toEqual([]);
    expect((await sharingOf(id)).access).toBe('public');
    await post(`content/users/user1/items/${id}/share`, { org: 'true', everyone: 'false', groups: ' ' }, 'user1');
    expect((await sharingOf(id)).access).toBe('org');
    await post(`content/users/user1/items/${id}/share`, { org: 'false', everyone: 'false', groups: ' ' }, 'user1');
    expect((await sharingOf(id)).access).toBe('private');
    expect((await eventsFor(svc, id)).map((e) => [e.operation, e.properties])).toEqual([
      ['share', { sharedToGroups: ['Everyone'] }],
      ['unshare', { unsharedFromGroups: ['Everyone'] }],
      ['unshare', { unsharedFromGroups: ['Organization'] }],
    ]);
    // Only groups sent: the access stays.
    await post(`content/users/user1/items/${id}/share`, { everyone: 'true' }, 'user1');
    await post(`content/users/user1/items/${id}/share`, { groups: ' ' }, 'user1');
    expect((await sharingOf(id)).access).toBe('public');
  });

  it('needs shareToOrg / shareToPublic for the owner', async () => {
    const id = await insertItem(svc, 'groupsharer');
    expect((await post(`content/users/groupsharer/items/${id}/share`, { org: 'true' }, 'groupsharer')).error).toMatchObject({
      code: 403,
      details: ['Requires the privilege portal:user:shareToOrg.'],
    });
    expect((await post(`content/users/groupsharer/items/${id}/share`, { everyone: 'true' }, 'groupsharer')).error.details).toEqual([
      'Requires the privilege portal:user:shareToPublic.',
    ]);
    const g = await newGroup('admin');
    await post(`community/groups/${g}/addUsers`, { users: 'groupsharer' }, 'admin');
    expect(await post(`content/users/groupsharer/items/${id}/share`, { groups: g }, 'groupsharer')).toEqual({ notSharedWith: [], itemId: id });
  });

  it('a view-only group takes items only from its owner and managers (or an administrator)', async () => {
    const viewOnly = await newGroup('publisher1', { isViewOnly: 'true' });
    await post(`community/groups/${viewOnly}/addUsers`, { users: 'user1' }, 'publisher1');
    const id = await insertItem(svc, 'user1');
    expect((await post(`content/users/user1/items/${id}/share`, { groups: viewOnly }, 'user1')).notSharedWith).toEqual([viewOnly]);
    await post(`community/groups/${viewOnly}/updateUsers`, { admins: 'user1' }, 'publisher1');
    expect((await post(`content/users/user1/items/${id}/share`, { groups: viewOnly }, 'user1')).notSharedWith).toEqual([]);
    const other = await insertItem(svc, 'user1');
    expect((await post(`content/users/user1/items/${other}/share`, { groups: viewOnly }, 'admin')).notSharedWith).toEqual([]);
  });

  it("lets an administrator share another member's item (portal:admin:shareTo…), not a non-owner or another organization", async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    expect((await post(`content/items/${id}/share`, { everyone: 'true' }, 'publisher1')).error.code).toBe(403);
    expect((await post(`content/users/user1/items/${id}/share`, { everyone: 'true' }, 'admin')).notSharedWith).toEqual([]);
    expect((await sharingOf(id)).access).toBe('public');
    expect((await post(`content/items/${id}/share`, { org: 'true' }, 'partner_admin')).error.code).toBe(403);
    // The owner's path must name the owner.
    expect((await post(`content/users/publisher1/items/${id}/share`, { org: 'true' }, 'admin')).error.messageCode).toBe('CONT_0001');
  });

  it('content/items/<id>/share works for the owner too; a GET is refused', async () => {
    const g = await newGroup('user1');
    const id = await insertItem(svc, 'user1');
    expect(await post(`content/items/${id}/share`, { groups: g, confirmItemControl: 'true' }, 'user1')).toEqual({ notSharedWith: [], itemId: id });
    expect((await getJson(svc, `content/items/${id}/share`, { groups: g }, tokens.user1)).error.code).toBe(405);
  });

  it('takes at most 100 groups', async () => {
    const id = await insertItem(svc, 'user1');
    const groups = (n: number) => Array.from({ length: n }, (_, i) => `g${i}`).join(',');
    expect((await post(`content/users/user1/items/${id}/share`, { groups: groups(100) }, 'user1')).notSharedWith).toHaveLength(100);
    expect((await post(`content/users/user1/items/${id}/share`, { groups: groups(101) }, 'user1')).error.details[0]).toMatch(/^'groups'/);
  });
});

describe('unshare', () => {
  it('removes group shares; groups the caller may not touch land in notUnsharedFrom', async () => {
    const g = await newGroup('user1');
    const id = await insertItem(svc, 'user1');
    await post(`content/users/user1/items/${id}/share`, { groups: g }, 'user1');
    expect(await post(`content/users/user1/items/${id}/unshare`, { groups: `${g},nonexistent` }, 'user1')).toEqual({
      notUnsharedFrom: ['nonexistent'],
      itemId: id,
    });
    expect(await sharingOf(id)).toEqual({ access: 'private', groups: [] });
    expect((await eventsFor(svc, id)).at(-1)).toEqual({ operation: 'unshare', properties: { unsharedFromGroups: [g] } });
  });

  it("lets a group's manager take an item out of the group", async () => {
    const g = await newGroup('publisher1');
    await post(`community/groups/${g}/addUsers`, { users: 'user1' }, 'publisher1');
    const id = await insertItem(svc, 'user1', { access: 'org' });
    await post(`content/users/user1/items/${id}/share`, { groups: g }, 'user1');
    expect(await post(`content/items/${id}/unshare`, { groups: g }, 'publisher1')).toEqual({ notUnsharedFrom: [], itemId: id });
    expect((await sharingOf(id)).groups).toEqual([]);
  });
});

describe('shareItems / unshareItems', () => {
  it('shares several items, one result each; an item that fails does not stop the others', async () => {
    const g = await newGroup('user1');
    const a = await insertItem(svc, 'user1');
    const b = await insertItem(svc, 'user1');
    const theirs = await insertItem(svc, 'publisher1');
    const body = await post('content/users/user1/shareItems', { items: `${a},${b},${theirs}`, groups: g }, 'user1');
    expect(body.results).toEqual([
      { itemId: a, success: true, notSharedWith: [] },
      { itemId: b, success: true, notSharedWith: [] },
      expect.objectContaining({ itemId: theirs, success: false, notSharedWith: [g] }),
    ]);
    const un = await post('content/users/user1/unshareItems', { items: `${a},${b}`, groups: g }, 'user1');
    expect(un.results).toEqual([
      { itemId: a, success: true, notUnsharedFrom: [] },
      { itemId: b, success: true, notUnsharedFrom: [] },
    ]);
    expect((await post('content/users/user1/shareItems', { items: '', groups: g }, 'user1')).error.details[0]).toMatch(/^'items'/);
  });
});
