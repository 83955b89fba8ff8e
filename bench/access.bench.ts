/**
 * Access benchmark (issue: roles, groups, defaults). The real service on a fresh embedded
 * database in a temporary DATA_DIR, over HTTP on loopback. Prints p50/p95 of:
 *  - addUsers with 25 names (to a fresh group each time),
 *  - setPrivileges with the whole privilege catalogue,
 *  - the members list of an organization with 10,000 members, at pages spread over the list,
 * each next to `community/self` (the cheapest authenticated read) measured in the same run.
 * Goal: each under 50 ms p95.  Usage: npm run bench:access
 */
import { PRIVILEGES } from '../src/shared/privileges.ts';
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const svc = await startService({ config: { dataDir: freshDataDir() } });
const rest = await svc.listen();
const token = await svc.tokenFor('admin');

async function call(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(`${rest}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...params, f: 'json', token }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

async function measure(name: string, runs: number, prepare: (i: number) => Promise<() => Promise<unknown>>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await prepare(i);
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  return { name, p50: pct(50), p95: pct(95) };
}

// 10,000 members (one shared, valid password hash: these accounts never sign in here).
const [{ password_hash }] = await svc.db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'user1'");
await svc.db.query(
  `INSERT INTO users (id, org_id, username, password_hash, first_name, last_name, full_name, email, role, created, modified)
   SELECT md5('bench' || i), $1, 'member' || lpad(i::text, 5, '0'), $2, 'First' || i, 'Last' || i, 'First' || i || ' Last' || i,
          'member' || i || '@example.com', CASE WHEN i % 10 = 0 THEN 'org_publisher' ELSE 'org_user' END, $3::bigint + i, $3::bigint + i
     FROM generate_series(1, 9995) AS i`,
  [svc.orgId, password_hash, Date.now()],
);
const total = (await call(`portals/${svc.orgId}/users`, { num: '1' })).total as number;
const { id: roleId } = (await call('portals/self/createRole', { name: 'Everything', description: 'bench' })) as { id: string };
const everything = JSON.stringify({ privileges: PRIVILEGES.map((p) => p.id) });

const results = [
  await measure('community/self (baseline)', RUNS, async () => () => call('community/self', {})),
  await measure('addUsers, 25 names', RUNS, async (i) => {
    const { group } = (await call('community/createGroup', { title: `Bench group ${i}` })) as { group: { id: string } };
    const users = Array.from({ length: 25 }, (_, k) => `member${String(((i * 25 + k) % 9995) + 1).padStart(5, '0')}`).join(',');
    return () => call(`community/groups/${group.id}/addUsers`, { users });
  }),
  await measure(
    `setPrivileges, ${PRIVILEGES.length} privileges`,
    RUNS,
    async () => () => call(`portals/self/roles/${roleId}/setPrivileges`, { privileges: everything }),
  ),
  await measure(`members list, ${fmt(total)} members, 100 per page`, RUNS, async (i) => {
    const start = String(1 + ((i * 4999) % Math.max(1, total - 99)));
    return () => call(`portals/${svc.orgId}/users`, { start, num: '100', sortField: 'username' });
  }),
];
await svc.close();

const base = results[0];
console.log(`${RUNS} runs each, over HTTP on loopback, embedded database on disk`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(42)} p50 ${fmt(r.p50, 2).padStart(7)} ms  p95 ${fmt(r.p95, 2).padStart(7)} ms  (p95 ${fmt(r.p95 / base.p95, 1)}× baseline)${r === base ? '' : r.p95 < 50 ? '  goal < 50 ms: met' : '  goal < 50 ms: NOT met'}`,
  );
}
