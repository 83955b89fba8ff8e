/**
 * Group Content Search, `content/groups/<groupId>/search` (the public "Group Content Search" page;
 * what the Maps SDK's PortalGroup.queryItems sends when the portal's version is above 5): the items
 * shared to a group the caller may see, filtered by what the caller may see, with q, categories,
 * bbox, paging and sort; a group the caller cannot see answers as one that does not exist.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { getJson, insertItem, shareToGroup } from './manage.test-support.ts';

describe('content/groups/<groupId>/search', () => {
  let svc: TestService;
  const tokens: Record<string, string> = {};
  let groupId: string;
  const shared: string[] = [];
  let privateOfPublisher: string;
  let outside: string;
  const W = `gs${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    svc = await startService();
    for (const u of ['admin', 'publisher1', 'user1', 'viewer1']) tokens[u] = await svc.tokenFor(u);
    const made = await svc.post('community/createGroup', { title: `Group ${W}`, access: 'private' }, tokens.publisher1);
    groupId = made.group.id;
    expect(await svc.post(`community/groups/${groupId}/addUsers`, { users: 'user1' }, tokens.publisher1)).toMatchObject({ notAdded: [] });
    // 25 org items shared to the group, titles in reverse of their creation order.
    for (let i = 0; i < 25; i++) {
      const id = await insertItem(svc, 'publisher1', {
        title: `${W} ${String.fromCharCode(122 - i)} item`,
        access: 'org',
        tags: [i % 2 ? 'odd' : 'even'],
        created: 1000 + i,
        modified: 1000 + i,
      });
      await shareToGroup(svc, id, groupId);
      shared.push(id);
    }
    await svc.db.query(`UPDATE items SET categories = '{/Categories/Water/Rivers}', extent = '[[10,10],[20,20]]' WHERE id = $1`, [shared[0]]);
    await svc.db.query(`UPDATE items SET categories = '{/Categories/Forest}', extent = '[[-120,30],[-110,40]]' WHERE id = $1`, [shared[1]]);
    // A private item of publisher1's shared to the group: members see it through the group.
    privateOfPublisher = await insertItem(svc, 'publisher1', { title: `${W} private shared`, access: 'private', created: 5000, modified: 5000 });
    await shareToGroup(svc, privateOfPublisher, groupId);
    // Not shared to the group: never in its results, however visible.
    outside = await insertItem(svc, 'publisher1', { title: `${W} outside`, access: 'public' });
  }, 120_000);
  afterAll(() => svc?.close());

  const search = async (params: Record<string, string>, who = 'user1', id = groupId) => getJson(svc, `content/groups/${id}/search`, params, tokens[who]);
  const ids = (body: { results: { id: string }[] }) => body.results.map((r) => r.id);

  it('a member gets every item shared to the group, in the search envelope', async () => {
    const body = await search({ num: '100' });
    expect(body.error).toBeUndefined();
    expect(body).toMatchObject({ query: '', total: 26, start: 1, num: 26, nextStart: -1 });
    expect(new Set(ids(body))).toEqual(new Set([...shared, privateOfPublisher]));
    expect(ids(body)).not.toContain(outside);
    expect(body.results.find((r: { id: string }) => r.id === privateOfPublisher)).toMatchObject({ access: 'shared', owner: 'publisher1' });
  });

  it('pages with start and num, sorted as asked', async () => {
    const first = await search({ num: '10', sortField: 'created', sortOrder: 'asc' });
    expect(first).toMatchObject({ total: 26, start: 1, num: 10, nextStart: 11 });
    expect(ids(first)).toEqual(shared.slice(0, 10));
    const third = await search({ num: '10', start: '21', sortField: 'created', sortOrder: 'asc' });
    expect(third).toMatchObject({ total: 26, start: 21, num: 6, nextStart: -1 });
    expect(ids(third)).toEqual([...shared.slice(20), privateOfPublisher]);
    const byTitle = await search({ num: '3', sortField: 'title', sortOrder: 'desc' });
    expect(byTitle.results.map((r: { title: string }) => r.title)).toEqual([`${W} z item`, `${W} y item`, `${W} x item`]);
  });

  it('q narrows within the group', async () => {
    const odd = await search({ q: 'tags:odd', num: '100' });
    expect(odd.total).toBe(12);
    expect(new Set(ids(odd))).toEqual(new Set(shared.filter((_, i) => i % 2)));
    const text = await search({ q: `"${W} private"` });
    expect(ids(text)).toEqual([privateOfPublisher]);
    expect((await search({ q: `"${W} outside"` })).total).toBe(0);
  });

  it('categories, categoryFilters and bbox filter the group items', async () => {
    expect(ids(await search({ categories: '/Categories/Water' }))).toEqual([shared[0]]);
    expect(new Set(ids(await search({ categories: '/Categories/Water/Rivers,/Categories/Forest' })))).toEqual(new Set([shared[0], shared[1]]));
    expect(ids(await search({ categories: JSON.stringify([['/Categories/Water'], ['/Categories/Forest']]) }))).toEqual([]);
    expect(ids(await search({ categoryFilters: 'river' }))).toEqual([shared[0]]);
    expect(ids(await search({ bbox: '15,15,30,30' }))).toEqual([shared[0]]);
    expect(ids(await search({ bbox: '-180,-90,180,90', sortField: 'created' }))).toEqual([shared[0], shared[1]]);
    // What the Maps SDK sends without an extent or categories.
    expect((await search({ bbox: '', categories: '', q: '' })).total).toBe(26);
    expect((await search({ bbox: '1,2,3' })).error).toMatchObject({ code: 400 });
    expect((await search({ categories: 'a,b,c,d,e,f,g,h,i' })).error).toMatchObject({ code: 400 });
  });

  it('a caller who may not see the group, or an unknown group, gets the error of a group that does not exist', async () => {
    const notMember = await search({}, 'viewer1');
    expect(notMember.error).toMatchObject({ code: 400, message: 'Group does not exist or is inaccessible.' });
    const anonymous = await getJson(svc, `content/groups/${groupId}/search`, {});
    expect(anonymous.error).toMatchObject({ code: 400, message: 'Group does not exist or is inaccessible.' });
    expect((await search({}, 'user1', 'f'.repeat(32))).error).toMatchObject({ code: 400, message: 'Group does not exist or is inaccessible.' });
  });

  it('only the items the caller may see: an administrator who sees the group sees all; the results follow a change of sharing', async () => {
    expect((await search({ num: '0' }, 'admin')).total).toBe(26);
    const member = await search({ num: '0' });
    expect(member.total).toBe(26);
    await svc.db.query('DELETE FROM item_shares WHERE item_id = $1 AND group_id = $2', [shared[5], groupId]);
    expect((await search({ num: '100' })).results).toHaveLength(25);
    await shareToGroup(svc, shared[5], groupId);
  });
});
