/**
 * Reassign benchmark (issue: canReassignItems and reassignItems with 100 items, each as p95
 * latency and as a ratio of 100 single-item calls measured in the same run; goal ≥ 10×).
 * The real service on a fresh embedded database over HTTP on loopback. user1 owns 100 items,
 * each shared to a group publisher1 belongs to (so the group rule is checked for every item),
 * and a fifth of them tied in one-owner pairs (Service2Data). Every round moves the 100 items
 * to publisher1 and back, so each round does the same work.
 * Usage: node --import tsx bench/reassign.bench.ts   (BENCH_RUNS=20 rounds by default)
 */
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const N = 100;
const svc = await startService({ config: { dataDir: freshDataDir() } });
const rest = await svc.listen();
const token = await svc.tokenFor('admin');

/** `refusalOk`: a CONT_0291 answer is a valid answer of a check (a pair's item checked alone is refused). */
async function post(path: string, params: Record<string, string>, refusalOk = false): Promise<Record<string, unknown>> {
  const res = await fetch(`${rest}/${path}`, { method: 'POST', body: new URLSearchParams({ ...params, f: 'json', token }) });
  const body = (await res.json()) as { error?: { messageCode?: string } };
  if (body.error && !(refusalOk && body.error.messageCode === 'CONT_0291')) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

const { group } = (await post('community/createGroup', { title: 'Bench transfer group', access: 'org' })) as { group: { id: string } };
await post(`community/groups/${group.id}/addUsers`, { users: 'user1,publisher1' });
const ids = (
  await svc.db.query<{ id: string }>(
    `INSERT INTO items (id, org_id, owner_id, title, type, created, modified)
     SELECT md5('bench-reassign' || i), $1, (SELECT id FROM users WHERE username = 'user1'), 'Bench item ' || i,
            CASE WHEN i % 10 = 1 THEN 'Feature Service' WHEN i % 10 = 2 THEN 'CSV' ELSE 'Web Map' END, 0, 0
       FROM generate_series(1, ${N}) AS i RETURNING id`,
    [svc.orgId],
  )
).map((r) => r.id);
await svc.db.query(`INSERT INTO item_shares (item_id, group_id, shared) SELECT unnest($1::text[]), $2, 0`, [ids, group.id]);
await svc.db.query(
  `INSERT INTO relationships (org_id, type, origin_id, destination_id, created_by, created)
   SELECT $1, 'Service2Data', md5('bench-reassign' || i), md5('bench-reassign' || (i + 1)), (SELECT id FROM users WHERE username = 'user1'), 0
     FROM generate_series(1, ${N}, 10) AS i`,
  [svc.orgId],
);

const owners = ['user1', 'publisher1'];
const times = {
  checkBulk: [] as number[],
  checkSingles: [] as number[],
  checkOne: [] as number[],
  moveBulk: [] as number[],
  moveSingles: [] as number[],
  moveOne: [] as number[],
};
const timed = async (into: number[], run: () => Promise<unknown>) => {
  const t = performance.now();
  await run();
  into.push(performance.now() - t);
};

const owner = 0;
for (let round = 0; round < RUNS; round++) {
  const from = owners[owner];
  const to = owners[1 - owner];
  // Checks: one canReassignItems with 100 ids, then 100 canReassign calls.
  await timed(times.checkBulk, () => post(`content/users/${from}/canReassignItems`, { items: ids.join(','), targetUsername: to }));
  await timed(times.checkSingles, async () => {
    for (const id of ids) await timed(times.checkOne, () => post(`content/users/${from}/items/${id}/canReassign`, { targetUsername: to }, true));
  });
  // Moves: the bulk form one way, single-item calls back.
  await timed(times.moveBulk, () => post(`content/users/${from}/reassignItems`, { items: ids.join(','), targetUsername: to }));
  await timed(times.moveSingles, async () => {
    for (let i = 0; i < ids.length; i++) {
      // A one-owner pair has to move together: its two items go in one request.
      const paired = i % 10 === 0;
      const batch = paired ? [ids[i], ids[i + 1]] : i % 10 === 1 ? [] : [ids[i]];
      if (!batch.length) continue;
      await timed(times.moveOne, () =>
        batch.length === 1
          ? post(`content/users/${to}/items/${batch[0]}/reassign`, { targetUsername: from })
          : post(`content/users/${to}/reassignItems`, { items: batch.join(','), targetUsername: from }),
      );
    }
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const row = (name: string, bulk: number[], singles: number[], one: number[]) =>
  console.log(
    `${name.padEnd(18)} bulk p50 ${fmt(pct(bulk, 50), 1)} ms  p95 ${fmt(pct(bulk, 95), 1)} ms | one call p95 ${fmt(pct(one, 95), 1)} ms | 100 single calls p50 ${fmt(pct(singles, 50), 0)} ms  p95 ${fmt(pct(singles, 95), 0)} ms | ratio (p50) ${fmt(pct(singles, 50) / pct(bulk, 50), 1)}×  (p95) ${fmt(pct(singles, 95) / pct(bulk, 95), 1)}×`,
  );
console.log(`reassign benchmark: ${N} items, ${RUNS} rounds, embedded database, HTTP on loopback`);
row('canReassignItems', times.checkBulk, times.checkSingles, times.checkOne);
row('reassignItems', times.moveBulk, times.moveSingles, times.moveOne);
await svc.close();
