/**
 * `GET search`'s total on a larger organization (searchPage.ts): exact up to 1,000 matches, when the
 * page reaches the last match and for `num=0`; an estimate (rounded, flagged `totalEstimated`, stable
 * from page to page) beyond; `nextStart` exact throughout; the caller's visibility in both.
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

  it('a broad term: an estimate, two significant digits, flagged, the same on every page; nextStart exact', async () => {
    const first = await search(ALL);
    expect(first).toMatchObject({ start: 1, num: 10, nextStart: 11, totalEstimated: true });
    expect(first.results).toHaveLength(10);
    expect(first.total).toBeGreaterThan(N * 0.75);
    expect(first.total).toBeLessThan(N * 1.25);
    expect(first.total % 100).toBe(0);
    const later = await search(ALL, { start: '5001', num: '100' });
    expect(later).toMatchObject({ total: first.total, totalEstimated: true, start: 5001, num: 100, nextStart: 5101 });
    // Newest first: the page holds the items 7000 … 6901 by their modified time.
    expect(later.results[0].modified).toBe(1000 + N - 5000);
  });

  it('exact when the page reaches the last match, and for num=0', async () => {
    const last = await search(ALL, { start: String(N - 49), num: '100' });
    expect(last).toMatchObject({ total: N, start: N - 49, num: 50, nextStart: -1 });
    expect(last).not.toHaveProperty('totalEstimated');
    const count = await search(ALL, { num: '0' });
    expect(count).toMatchObject({ total: N, num: 0, nextStart: -1, results: [] });
    expect(count).not.toHaveProperty('totalEstimated');
  });

  it('exact up to 1,000 matches; an estimate above, however the sample falls', async () => {
    expect(await search(FEW)).toMatchObject({ total: N / 200, nextStart: 11 });
    const small = await search(SMALL);
    expect(small).toMatchObject({ total: N / 24, nextStart: 11 });
    expect(small).not.toHaveProperty('totalEstimated');
    const mid = await search(MID);
    expect(mid).toMatchObject({ totalEstimated: true, nextStart: 11 });
    expect(mid.total).toBeGreaterThan(1000);
    expect(Math.abs(mid.total - N / 8)).toBeLessThan((N / 8) * 0.5);
  });

  it('counts only what the caller may see', async () => {
    const member = await search(ALL, {}, 'user1');
    expect(member.totalEstimated).toBe(true);
    expect(Math.abs(member.total - N / 2)).toBeLessThan((N / 2) * 0.3);
    expect((await search(ALL, { num: '0' }, 'user1')).total).toBe(N / 2);
    expect(await getJson(svc, 'search', { q: ALL, num: '10' })).toMatchObject({ total: 0, nextStart: -1, results: [] });
  });

  it('a page past the end answers an exact total no greater than its start', async () => {
    const past = await search(SMALL, { start: '900' });
    expect(past).toMatchObject({ total: N / 24, num: 0, nextStart: -1, results: [] });
    const far = await search(ALL, { start: String(N + 1) });
    expect(far).toMatchObject({ total: N, num: 0, nextStart: -1, results: [] });
  });
});

describe('search totals without local extras', () => {
  it('an estimated total is answered without the flag', async () => {
    const svc = await startService({ config: { localExtras: false } });
    try {
      await bulkItems(svc, 3000);
      const body = await getJson(svc, 'search', { q: ALL, num: '10' }, await svc.tokenFor('admin'));
      expect(body.total).toBeGreaterThan(1000);
      expect(body.nextStart).toBe(11);
      expect(body).not.toHaveProperty('totalEstimated');
    } finally {
      await svc.close();
    }
  }, 120_000);
});
