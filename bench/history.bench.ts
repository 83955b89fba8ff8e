/**
 * Organization history benchmark (docs/history.md). The real service on a fresh database (embedded
 * in a temporary DATA_DIR, or DATABASE_URL), over HTTP on loopback, with 1,000,000 history events in
 * one organization written set-based (generate_series): five target types, 5,000 targets, four
 * actors, one event every 30 s over a year. Prints p50/p95 of filtered pages of
 * `portals/<orgId>/history` (by id, by actor, by date range, and a deep page through nextKey) next
 * to `content/users/<owner>/items/<id>` — a plain primary-key read through the same HTTP stack —
 * measured in the same run (goal: p95 within 5×), and the time of a 10,000-event f=csv (goal < 2 s).
 * Usage: npm run bench:history  (BENCH_EVENTS, BENCH_RUNS, BENCH_CSV_RUNS to change the sizes)
 */
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir } from './lib.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const CSV_RUNS = Number(process.env.BENCH_CSV_RUNS ?? 5);
const TARGETS = 5000;
const STEP_MS = 30_000;

const svc = await startService({ config: { dataDir: freshDataDir() } });
const rest = await svc.listen();
const token = await svc.tokenFor('admin');

async function call(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(`${rest}/${path}?${new URLSearchParams({ ...params, f: 'json', token })}`);
  const body = (await res.json()) as Record<string, unknown>;
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

async function measure(name: string, runs: number, run: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
  return { name, p50: pct(50), p95: pct(95) };
}

const T_END = Date.now() - 60_000;
const T_START = T_END - EVENTS * STEP_MS;
const load0 = performance.now();
await svc.db.query(
  `INSERT INTO events (id, org_id, uri, source, operation, subject_id, user_id, username, properties, created, id_type, action, op, owner, title, data)
   SELECT md5('bench-event' || i), $1, '/bench/' || i,
          (ARRAY['item','group','user','role','organization'])[1 + i % 5],
          (ARRAY['update','addUsers','updateUserRole','update','update'])[1 + i % 5],
          (ARRAY['item','group','user','role','org'])[1 + i % 5] || (i / 5) % ${TARGETS / 5},
          NULL,
          (ARRAY['admin','publisher1','user1','viewer1'])[1 + i % 4],
          '{}'::jsonb,
          $2::bigint + i::bigint * ${STEP_MS},
          (ARRAY['i','g','u','r','a'])[1 + i % 5],
          (ARRAY['update','addusers','update','update','update'])[1 + i % 5],
          (ARRAY['reassignItem','addUsers','updateUserRole','setPrivileges','updateOrganization'])[1 + i % 5],
          CASE WHEN i % 5 = 0 THEN (ARRAY['publisher1','user1'])[1 + i % 2] END,
          'Target ' || (i / 5) % ${TARGETS / 5},
          jsonb_build_object('before', jsonb_build_object('owner', 'publisher1', 'ownerFolder', NULL), 'after', jsonb_build_object('owner', 'admin', 'ownerFolder', NULL))
     FROM generate_series(1, ${EVENTS}) AS i`,
  [svc.orgId, T_START],
);
await svc.db.query('ANALYZE events');
const loadMs = performance.now() - load0;

// Items for the baseline read (after the load: a keep-alive connection idle through it would be closed).
const itemIds: string[] = [];
for (let i = 0; i < 20; i++) {
  const res = await fetch(`${rest}/content/users/admin/addItem`, {
    method: 'POST',
    body: new URLSearchParams({ title: `Bench ${i}`, type: 'Web Map', text: '{}', f: 'json', token }),
  });
  itemIds.push(((await res.json()) as { id: string }).id);
}

const day = 86_400_000;
// A cursor in the middle of the year, from the page before it.
const mid = (await call(`portals/${svc.orgId}/history`, { all: 'true', num: '1', toDate: String(T_START + (EVENTS * STEP_MS) / 2) })).nextKey as string;

const results = [
  await measure('content/users/<owner>/items/<id> (baseline: by primary key)', RUNS, (i) =>
    call(`content/users/admin/items/${itemIds[i % itemIds.length]}`, {}),
  ),
  await measure('history, id=<target> (≈200 events each), 25 per page', RUNS, (i) =>
    call(`portals/${svc.orgId}/history`, { id: `item${(i * 37) % (TARGETS / 5)}` }),
  ),
  await measure('history, actors=user1 (250,000 events), 100 per page', RUNS, () =>
    call(`portals/${svc.orgId}/history`, { all: 'true', actors: 'user1', num: '100' }),
  ),
  await measure('history, one day (≈2,900 events), types=i,g, 100 per page', RUNS, (i) => {
    const from = T_START + ((i * 7) % 360) * day;
    return call(`portals/${svc.orgId}/history`, { types: 'i,g', fromDate: String(from), toDate: String(from + day), num: '100' });
  }),
  await measure('history, all=true, deep page (nextKey mid-year), 100 per page', RUNS, () =>
    call(`portals/${svc.orgId}/history`, { all: 'true', num: '100', start: mid }),
  ),
  await measure('history, actors=admin + actions=reassignItem + 30 days, 100 per page', RUNS, (i) => {
    const from = T_START + ((i * 11) % 330) * day;
    return call(`portals/${svc.orgId}/history`, {
      all: 'true',
      actors: 'admin',
      actions: 'reassignItem',
      fromDate: String(from),
      toDate: String(from + 30 * day),
      num: '100',
    });
  }),
];

const csvTimes: number[] = [];
let csvLines = 0;
for (let i = 0; i < CSV_RUNS; i++) {
  const t = performance.now();
  const res = await fetch(`${rest}/portals/${svc.orgId}/history?${new URLSearchParams({ f: 'csv', all: 'true', num: '10000', token })}`);
  const text = await res.text();
  csvTimes.push(performance.now() - t);
  csvLines = text.split('\r\n').length - 2;
}
csvTimes.sort((a, b) => a - b);
await svc.close();

const base = results[0];
console.log(
  `${fmt(EVENTS)} history events loaded in ${fmt(loadMs / 1000, 1)} s; ${RUNS} runs each, over HTTP on loopback, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database on disk'}`,
);
for (const r of results) {
  console.log(`${r.name.padEnd(72)} p50 ${fmt(r.p50, 2).padStart(7)} ms  p95 ${fmt(r.p95, 2).padStart(7)} ms  (p95 ${fmt(r.p95 / base.p95, 1)}× baseline)`);
}
console.log(
  `f=csv, ${fmt(csvLines)} events: median ${fmt(csvTimes[Math.floor(csvTimes.length / 2)], 0)} ms, worst ${fmt(csvTimes.at(-1)!, 0)} ms (${CSV_RUNS} runs; goal < 2,000 ms)`,
);
