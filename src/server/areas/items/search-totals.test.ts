/**
 * `GET search`'s total on a larger organization (searchPage.ts, searchLists.ts): exact at every size
 * (the ordered matches are kept until the next change to what a search sees, migration 019), the
 * same on every page, a change showing at once; `nextStart` exact; the caller's visibility in both.
 * (Beyond 200,000 matches the earlier estimate still applies; that size is not built here.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { getJson } from './manage.test-support.ts';

const N = 12_000;
const W = `zt${randomUUID().slice(0, 8)}`;
/** In every title; every 8th; every 24th; every 200th. */
const ALL = `${W}all`;
const MID = `${W}mid`;
const SMALL = `${W}small`;
const FEW = `${W}few`;

/** N items of publisher1, every other one shared with the organization, the rest private. */
async function bulkItems(svc: TestService, n: number) {
  await svc.db.query(
    `INSERT INTO items (id, org_id, owner_id, title, type, access, created, modified)
     SELECT md5($1 || i), u.org_id, u.id,
            'Bulk ' || i || ' ${ALL}' || CASE WHEN i % 8 = 0 THEN ' ${MID}' ELSE '' END
              || CASE WHEN i % 24 = 0 THEN ' ${SMALL}' ELSE '' END || CASE WHEN i % 200 = 0 THEN ' ${FEW}' ELSE '' END,
            'Web Map', CASE WHEN i % 2 = 0 THEN 'org' ELSE 'private' END, 1000 + i, 1000 + i
       FROM generate_series(1, ${n}) AS i, users u WHERE u.username = 'publisher1'`,
    [W],
  );
  await svc.db.query('ANALYZE items');
}

describe('search totals on 12,000 items', () => {
  let svc: TestService;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    svc = await startService();
    for (const u of ['admin', 'user1']) tokens[u] = await svc.tokenFor(u);
    await bulkItems(svc, N);
  }, 120_000);
  afterAll(() => svc?.close());

  const search = async (q: string, extra: Record<string, string> = {}, who = 'admin') => {
    const body = await getJson(svc, 'search', { q, num: '10', ...extra }, tokens[who]);
    expect(body.error, JSON.stringify(body.error)).toBeUndefined();
    return body;
  };

  it('a broad term: the exact total on every page, no estimate; nextStart exact', async () => {
    const first = await search(ALL);
    expect(first).toMatchObject({ total: N, start: 1, num: 10, nextStart: 11 });
    expect(first).not.toHaveProperty('totalEstimated');
    expect(first.results).toHaveLength(10);
    const later = await search(ALL, { start: '5001', num: '100' });
    expect(later).toMatchObject({ total: N, start: 5001, num: 100, nextStart: 5101 });
    // Newest first: the page holds the items 7000 … 6901 by their modified time.
    expect(later.results[0].modified).toBe(1000 + N - 5000);
    expect(later.results[99].modified).toBe(1000 + N - 5099);
  });

  it('exact when the page reaches the last match, and for num=0', async () => {
    const last = await search(ALL, { start: String(N - 49), num: '100' });
    expect(last).toMatchObject({ total: N, start: N - 49, num: 50, nextStart: -1 });
    expect(last).not.toHaveProperty('totalEstimated');
    const count = await search(ALL, { num: '0' });
    expect(count).toMatchObject({ total: N, num: 0, nextStart: -1, results: [] });
    expect(count).not.toHaveProperty('totalEstimated');
  });

  it('exact at every size, in any order', async () => {
    expect(await search(FEW)).toMatchObject({ total: N / 200, nextStart: 11 });
    expect(await search(SMALL)).toMatchObject({ total: N / 24, nextStart: 11 });
    const mid = await search(MID, { sortField: 'title', sortOrder: 'asc' });
    expect(mid).toMatchObject({ total: N / 8, nextStart: 11 });
    expect(mid).not.toHaveProperty('totalEstimated');
    // Title order, read from the kept list on a deep page: the same rows a fresh sort gives.
    const deep = await search(MID, { sortField: 'title', start: '1001', num: '5' });
    const titles = (
      await svc.db.query<{ title: string }>(`SELECT title FROM items WHERE title LIKE $1 ORDER BY lower(title), id OFFSET 1000 LIMIT 5`, [`%${MID}%`])
    ).map((r) => r.title);
    expect(deep.results.map((r: { title: string }) => r.title)).toEqual(titles);
  });

  it('counts only what the caller may see', async () => {
    const member = await search(ALL, {}, 'user1');
    expect(member).toMatchObject({ total: N / 2, nextStart: 11 });
    expect((await search(ALL, { num: '0' }, 'user1')).total).toBe(N / 2);
    expect(await getJson(svc, 'search', { q: ALL, num: '10' })).toMatchObject({ total: 0, nextStart: -1, results: [] });
  });

  it('a change to items, shares or memberships shows in the next page at once', async () => {
    expect((await search(ALL, { start: '101' })).total).toBe(N);
    await svc.db.query(
      `INSERT INTO items (id, org_id, owner_id, title, type, access, created, modified)
       SELECT md5($1 || 'extra'), u.org_id, u.id, 'Extra ${ALL}', 'Web Map', 'private', 1, 1 FROM users u WHERE u.username = 'publisher1'`,
      [W],
    );
    expect((await search(ALL, { start: '101' })).total).toBe(N + 1);
    // user1 sees the organization's half; a private item shared to a group of theirs joins it.
    expect((await search(ALL, { start: '101' }, 'user1')).total).toBe(N / 2);
    const { group } = await svc.post('community/createGroup', { title: `Totals ${W}` }, tokens.admin);
    const groupId = group.id as string;
    expect(await svc.post(`community/groups/${groupId}/addUsers`, { users: 'user1' }, tokens.admin)).toMatchObject({ notAdded: [] });
    await svc.db.query(`INSERT INTO item_shares (item_id, group_id, shared) VALUES (md5($1 || 'extra'), $2, 0)`, [W, groupId]);
    expect((await search(ALL, { start: '101' }, 'user1')).total).toBe(N / 2 + 1);
    await svc.db.query(`DELETE FROM group_members WHERE group_id = $1 AND user_id = (SELECT id FROM users WHERE username = 'user1')`, [groupId]);
    expect((await search(ALL, { start: '101' }, 'user1')).total).toBe(N / 2);
    await svc.db.query(`DELETE FROM items WHERE id = md5($1 || 'extra')`, [W]);
    expect((await search(ALL, { start: '101' })).total).toBe(N);
  });

  it('a page past the end answers an exact total no greater than its start', async () => {
    const past = await search(SMALL, { start: '900' });
    expect(past).toMatchObject({ total: N / 24, num: 0, nextStart: -1, results: [] });
    const far = await search(ALL, { start: String(N + 1) });
    expect(far).toMatchObject({ total: N, num: 0, nextStart: -1, results: [] });
  });
});

describe('search totals without local extras', () => {
  it('an exact total is answered without the flag', async () => {
    const svc = await startService({ config: { localExtras: false } });
    try {
      await bulkItems(svc, 3000);
      const body = await getJson(svc, 'search', { q: ALL, num: '10' }, await svc.tokenFor('admin'));
      expect(body.total).toBe(3000);
      expect(body.nextStart).toBe(11);
      expect(body).not.toHaveProperty('totalEstimated');
    } finally {
      await svc.close();
    }
  }, 120_000);
});
