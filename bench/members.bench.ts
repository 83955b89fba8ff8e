/**
 * Members benchmark (issue 37): the member list of an organization of 100,000 members, filtered and
 * sorted as the Members page asks, each next to a primary-key read of one member measured in turns
 * with it in the same run (so a machine others load moves both alike). The real service's own
 * listMembers (count and page, as `portals/<orgId>/users` runs them) on the embedded database on disk.
 * Prints p50/p95 of each and its ratio to the primary-key read. Issue 37's goal: the first page
 * filtered by last sign-in within 3× a primary-key read at p95.
 * Usage: node --import tsx bench/members.bench.ts  (BENCH_MEMBERS, BENCH_RUNS to change the sizes;
 * DATABASE_URL for PostgreSQL)
 */
import { findUserById, listMembers, type MemberFilter } from '../src/server/areas/users/repo.ts';
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir } from './lib.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);

const svc = await startService({ config: { dataDir: freshDataDir() } });
const db = svc.db;
const [{ password_hash }] = await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'user1'");
// Members created over three years; a fifth never signed in, the rest within the last year; one in
// twenty disabled; a third Viewers, a sixth Contributors, the rest Creators.
const t0 = performance.now();
for (let from = 1; from <= MEMBERS; from += 20_000) {
  await db.query(
    `INSERT INTO users (id, org_id, username, password_hash, first_name, last_name, full_name, email, role, role_id,
                        user_license_type_id, disabled, last_login, created, modified)
     SELECT md5('m' || i), $1, 'm' || lpad(i::text, 6, '0'), $2, 'First' || i, 'Last' || i, 'First' || i || ' Last' || i,
            'm' || i || '@example.com', 'org_user', NULL,
            CASE WHEN i % 3 = 0 THEN 'viewerUT' WHEN i % 6 = 1 THEN 'contributorUT' ELSE 'creatorUT' END,
            i % 20 = 0,
            CASE WHEN i % 5 = 0 THEN -1 ELSE $3::bigint - ((i * 7919) % 365) * $4::bigint - (i % 86400) * 1000 END,
            $3::bigint - ((i * 104729) % 1095) * $4::bigint, $3::bigint
       FROM generate_series($5::bigint, $6::bigint) AS i`,
    [svc.orgId, password_hash, NOW, DAY, from, Math.min(MEMBERS, from + 19_999)],
  );
}
// BENCH_VACUUM=1: as PostgreSQL's autovacuum leaves a settled table (the visibility map set, so a
// count reads the index alone); the embedded database runs no autovacuum.
await db.query(process.env.BENCH_VACUUM === '1' ? 'VACUUM ANALYZE users' : 'ANALYZE users');
console.log(`${fmt(MEMBERS)} members inserted in ${fmt((performance.now() - t0) / 1000, 1)} s`);
const ids = (await db.query<{ id: string }>('SELECT id FROM users WHERE org_id = $1 ORDER BY id LIMIT 1000', [svc.orgId])).map((r) => r.id);

const page =
  (filter: Omit<MemberFilter, 'orgId'>, field: string, order: 'asc' | 'desc', offset = 0) =>
  () =>
    listMembers(db, { orgId: svc.orgId, ...filter }, { field, order }, { offset, limit: 100 });
const rows: { name: string; run: () => Promise<unknown> }[] = [
  { name: 'not signed in for 90 days, by last sign-in (total + 100)', run: page({ lastLogin: { before: NOW - 90 * DAY } }, 'lastlogin', 'desc') },
  {
    name: 'the same, total only (num=0)',
    run: () => listMembers(db, { orgId: svc.orgId, lastLogin: { before: NOW - 90 * DAY } }, { field: 'lastlogin', order: 'desc' }, { offset: 0, limit: 0 }),
  },
  { name: 'enabled Viewers, by username (total + 100)', run: page({ disabled: false, licenseTypes: ['viewerUT'] }, 'username', 'asc') },
  { name: 'disabled, by last sign-in (total + 100)', run: page({ disabled: true }, 'lastlogin', 'asc') },
  { name: 'created in the last 30 days, newest first (total + 100)', run: page({ created: { after: NOW - 30 * DAY } }, 'created', 'desc') },
  { name: 'everyone by user type, page 500 (total + 100)', run: page({}, 'userlicensetype', 'asc', 49_900) },
];

const pk: number[] = [];
const times = rows.map(() => [] as number[]);
let sample: unknown;
for (let i = 0; i < RUNS; i++) {
  for (let r = 0; r < rows.length; r++) {
    // A primary-key read before each page, so each pair meets the same load.
    let t = performance.now();
    await findUserById(db, ids[(i * rows.length + r) % ids.length]);
    pk.push(performance.now() - t);
    t = performance.now();
    sample = await rows[r].run();
    times[r].push(performance.now() - t);
  }
}
await svc.close();
void sample;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const [pk50, pk95] = [pct(pk, 50), pct(pk, 95)];
console.log(
  `${RUNS} runs of each, in turns with a primary-key read (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database on disk'}${process.env.BENCH_VACUUM === '1' ? ', after VACUUM' : ''})`,
);
console.log(`${'primary-key read (baseline)'.padEnd(56)} p50 ${fmt(pk50, 2).padStart(7)} ms  p95 ${fmt(pk95, 2).padStart(7)} ms`);
rows.forEach((r, k) => {
  const [p50, p95] = [pct(times[k], 50), pct(times[k], 95)];
  console.log(
    `${r.name.padEnd(56)} p50 ${fmt(p50, 2).padStart(7)} ms  p95 ${fmt(p95, 2).padStart(7)} ms  ratio p50 ${fmt(p50 / pk50, 1)}×  p95 ${fmt(p95 / pk95, 1)}×`,
  );
});
