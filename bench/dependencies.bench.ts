/**
 * Dependency benchmark (issue 26: "dependents of an item within 3× a primary-key read, p95, at
 * 100,000 items"). The real service on a fresh embedded database in a temporary DATA_DIR (or
 * PostgreSQL with DATABASE_URL), over HTTP on loopback, with BENCH_ITEMS items (default 100,000)
 * bulk-inserted with SQL as a realistic reference graph: 30 % Feature Service items (each its own
 * service URL), 50 % web maps using three layers each (two by item id, one by a layer URL
 * `…/FeatureServer/0`), the first 1,500 maps also one of five "hot" layers (each used by ~300
 * maps), 20 % web mapping applications showing one map each. Owners and sharing are mixed as in
 * search.bench.ts. The reference index is then built by the start-up indexer (its time is printed:
 * what the first start after migration 020 costs such a database).
 *
 * Prints p50/p95 of content/items/<id>/dependents (direct and transitive, typical and hot layers),
 * …/dependencies and the organization view's first pages, next to content/users/<owner>/items/<id>
 * — a plain primary-key read through the same HTTP stack — measured in the same run, with each
 * one's ratio to it at p50 and at p95 (the read taken in turns with each row's calls).
 *
 * And the adversarial graph of issue 35: ten, and thirty, public web maps each naming the others
 * 2,000 times (20,000 and 60,000 references; in the partner organization), asked for transitively
 * by an anonymous caller: p95, its ratio to the primary-key read, and the answer's size in bytes,
 * with whether issue 35's goal holds (p95 under 100 ms, answer under 1 MB). The machine's load
 * average is printed beside the figures.
 * Usage: npm run bench:dependencies (DATABASE_URL=postgres://… for PostgreSQL). BENCH_DATA_DIR=<dir>:
 * the embedded database in that folder, kept after the run; when it already holds this size's seed
 * (and reference index), seeding and indexing are skipped, so a 100,000-item run can be repeated
 * without its ten minutes of seeding (migrations added since still run at start; a folder migrated
 * by an older tree, whose migrations were folded or renamed since, is refused with the names).
 */
import { readdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { indexPendingItems } from '../src/server/areas/dependencies/indexer.ts';
import { MIGRATIONS_DIR } from '../src/server/store/migrate.ts';
import { createPglite } from '../src/server/store/pglite.ts';
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const LAYERS = Math.floor(ITEMS * 0.3);
const MAPS = Math.floor(ITEMS * 0.5);
const APPS = ITEMS - LAYERS - MAPS;
const HOT = 5;
const HOT_MAPS = Math.min(1_500, MAPS);

/**
 * The migrations a kept BENCH_DATA_DIR records that are no longer in the tree (folded or renamed
 * before they landed): its schema is not what the tree's migrations build, and migrating it fails
 * or measures another schema.
 */
async function staleMigrations(db: { query<T>(sql: string): Promise<T[]> }): Promise<string[]> {
  const inTree = new Set(readdirSync(MIGRATIONS_DIR));
  return (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name).filter((n) => !inTree.has(n));
}
const staleExit = (dataDir: string, stale: string[], why = '') => {
  console.error(
    `BENCH_DATA_DIR ${dataDir} was migrated with ${stale.join(', ')}, no longer in ${MIGRATIONS_DIR}: remove the folder to seed it again with this tree's schema${why}`,
  );
  process.exit(1);
};

const loadStart = loadavg()[0];
const dataDir = process.env.BENCH_DATA_DIR ?? freshDataDir();
const svc = await startService({ config: { dataDir } }).catch(async (err: unknown) => {
  // Migrating it failed: say why when the folder's schema is an older tree's.
  const pg = await createPglite(dataDir, { template: false });
  const stale = await staleMigrations({ query: async <T>(sql: string) => (await pg.query<T>(sql)).rows }).finally(() => pg.close());
  if (stale.length) staleExit(dataDir, stale, ` (${String(err)})`);
  throw err;
});
{
  const stale = await staleMigrations(svc.db);
  if (stale.length) staleExit(dataDir, stale);
}
const rest = await svc.listen();
const orgOf = async (username: string) => (await svc.db.query<{ org_id: string }>('SELECT org_id FROM users WHERE username = $1', [username]))[0].org_id;
const orgId = svc.orgId ?? (await orgOf('admin'));
const partnerOrgId = svc.partnerOrgId ?? (await orgOf('partner_admin'));
const token = await svc.tokenFor('admin');
const userToken = await svc.tokenFor('user1');

async function call(path: string, params: Record<string, string>, tok = token): Promise<Record<string, unknown>> {
  const res = await fetch(`${rest}/${path}?${new URLSearchParams({ ...params, f: 'json', token: tok })}`);
  const body = (await res.json()) as Record<string, unknown>;
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

const percentiles = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: pct(50), p95: pct(95) };
};

async function measure(name: string, runs: number, run: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return { name, ...percentiles(times) };
}

/**
 * `run` and the primary-key read taken in turns: the row's ratios are to the read measured beside
 * it. On a machine others load, the load moves within a run; one baseline measured before every
 * row made a row's ratio say more about when it ran than about what it costs.
 */
async function measurePaired(name: string, runs: number, run: (i: number) => Promise<unknown>, base: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  const baseTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await base(i);
    baseTimes.push(performance.now() - t);
    t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return { name, ...percentiles(times), base: percentiles(baseTimes) };
}

const T0 = Date.now();
const layerId = (n: string) => `md5('layer' || (${n}))`;
const mapId = (n: string) => `md5('map' || (${n}))`;
const serviceUrl = (n: string) => `'https://127.0.0.1/arcgis/rest/services/S' || (${n}) || '/FeatureServer'`;
// Owner, sharing and status as search.bench.ts spreads them.
const common = (i: string) => `$1,
  (SELECT id FROM users WHERE username = (ARRAY['admin','publisher1','user1','viewer1','publisher1'])[1 + ${i} % 5]),
  (ARRAY['public','org','private','private'])[1 + ${i} % 4],
  CASE WHEN ${i} % 97 = 0 THEN 'org_authoritative' WHEN ${i} % 89 = 0 THEN 'deprecated' END,
  $2::bigint + ${i}, $2::bigint + ${i}`;
const COLUMNS = 'id, title, type, url, data_kind, data_text, size, org_id, owner_id, access, content_status, created, modified';
const RINGS = [10, 30];
const RING_GOAL_MS = 100;
const RING_GOAL_BYTES = 1024 * 1024;
const NAMES_PER_MAP = 2_000;
const ringId = (size: number, k: string) => `md5('ring${size}-' || (${k}))`;
/** Inserts what is missing: a run stopped while seeding is completed by the next one with the same BENCH_DATA_DIR. */
async function seed(): Promise<void> {
  await svc.db.query(
    `INSERT INTO items (${COLUMNS})
     SELECT ${layerId('i')}, 'Layer ' || i, 'Feature Service', ${serviceUrl('i')}, 'none', NULL, 0, ${common('i')}
       FROM generate_series(0, ${LAYERS - 1}) AS i
     ON CONFLICT (id) DO NOTHING`,
    [orgId, T0 - ITEMS],
  );
  await svc.db.query(
    `INSERT INTO items (${COLUMNS})
     SELECT ${mapId('j')}, 'Map ' || j, 'Web Map', NULL, 'text', d, length(d), ${common(`(${LAYERS} + j)`)}
       FROM generate_series(0, ${MAPS - 1}) AS j,
       LATERAL (SELECT jsonb_build_object(
         'operationalLayers', jsonb_build_array(
           jsonb_build_object('id', 'a', 'layerType', 'ArcGISFeatureLayer', 'itemId', ${layerId(`(j::bigint * 7919) % ${LAYERS}`)}),
           jsonb_build_object('id', 'b', 'layerType', 'ArcGISFeatureLayer', 'itemId', ${layerId(`(j::bigint * 104729) % ${LAYERS}`)}),
           jsonb_build_object('id', 'c', 'layerType', 'ArcGISFeatureLayer', 'url', ${serviceUrl(`(j * 31 + 7) % ${LAYERS}`)} || '/0'))
           || CASE WHEN j < ${HOT_MAPS} THEN jsonb_build_array(jsonb_build_object('id', 'hot', 'itemId', ${layerId(`j % ${HOT}`)})) ELSE '[]'::jsonb END,
         'baseMap', jsonb_build_object('baseMapLayers', '[]'::jsonb, 'title', 'None'), 'version', '2.31')::text AS d) AS data
     ON CONFLICT (id) DO NOTHING`,
    [orgId, T0 - ITEMS],
  );
  await svc.db.query(
    `INSERT INTO items (${COLUMNS})
     SELECT md5('app' || k), 'App ' || k, 'Web Mapping Application', NULL, 'text', d, length(d), ${common(`(${LAYERS + MAPS} + k)`)}
       FROM generate_series(0, ${APPS - 1}) AS k,
       LATERAL (SELECT jsonb_build_object('source', md5('template'), 'values', jsonb_build_object('webmap', ${mapId(`(k * 13) % ${MAPS}`)}, 'title', 'App'))::text AS d) AS data
     ON CONFLICT (id) DO NOTHING`,
    [orgId, T0 - ITEMS],
  );
  // The adversarial rings: public maps of the partner organization's administrator (so the demo
  // organization's view measures what it measured), each naming the others of its ring 2,000 times in all.
  for (const size of RINGS) {
    await svc.db.query(
      `INSERT INTO items (${COLUMNS})
       SELECT ${ringId(size, 'k')}, 'Ring ' || ${size} || ' map ' || k, 'Web Map', NULL, 'text', d, length(d), $1,
              (SELECT id FROM users WHERE username = 'partner_admin'), 'public', NULL, $2::bigint, $2::bigint
         FROM generate_series(0, ${size - 1}) AS k,
         LATERAL (SELECT jsonb_build_object('operationalLayers', (
           SELECT jsonb_agg(jsonb_build_object('id', 'l' || n, 'itemId', ${ringId(size, `(k + 1 + n % ${size - 1}) % ${size}`)}))
             FROM generate_series(0, ${NAMES_PER_MAP - 1}) AS n))::text AS d) AS data
       ON CONFLICT (id) DO NOTHING`,
      [partnerOrgId, T0],
    );
  }
}
const seedStart = performance.now();
// This size's seed is there when its last app and the last ring map are, and no app past the last.
const [{ reused }] = await svc.db.query<{ reused: boolean }>(
  `SELECT EXISTS (SELECT 1 FROM items WHERE id = md5('app' || ${APPS - 1}))
      AND EXISTS (SELECT 1 FROM items WHERE id = md5('ring30-' || 29))
      AND NOT EXISTS (SELECT 1 FROM items WHERE id = md5('app' || ${APPS})) AS reused`,
);
if (!reused) await seed();
const seedMs = performance.now() - seedStart;
const indexStart = performance.now();
const indexed = await indexPendingItems(svc.app.portal);
const indexMs = performance.now() - indexStart;
if (!reused || indexed) await svc.db.query('ANALYZE');
// A settled index, as PostgreSQL's autovacuum and the embedded database's retention sweep leave it:
// the visibility map set, so a dependents step reads its rows from the index alone (migration 050).
// A kept BENCH_DATA_DIR already vacuumed skips the pages that did not change (a few ms).
await svc.db.query('VACUUM item_reference_edges');
const [{ refs }] = await svc.db.query<{ refs: number }>('SELECT count(*)::int AS refs FROM item_references');

const ids = (prefix: string, n: number) =>
  svc.db.query<{ id: string; owner: string }>(
    `SELECT i.id, u.username AS owner FROM generate_series(0, ${n - 1}) AS g JOIN items i ON i.id = md5('${prefix}' || g) JOIN users u ON u.id = i.owner_id ORDER BY g`,
  );
const layers = await ids('layer', LAYERS);
const apps = await ids('app', APPS);
const maps = await ids('map', Math.min(MAPS, 10_000));
const pick = <T>(list: T[], i: number) => list[(i * 7919 + 11) % list.length];
const typical = (i: number) => pick(layers.slice(HOT), i).id;
const hot = (i: number) => layers[i % HOT].id;

const pkRead = (i: number) => {
  const it = pick(maps, i);
  return call(`content/users/${it.owner}/items/${it.id}`, {});
};
const baseline = await measure('content/users/<owner>/items/<id> (baseline: by primary key)', RUNS, pkRead);
const forms: [string, (i: number) => Promise<unknown>][] = [
  ['dependents of a layer, direct', (i) => call(`content/items/${typical(i)}/dependents`, {})],
  ['dependents of a layer, transitive', (i) => call(`content/items/${typical(i)}/dependents`, { transitive: 'true' })],
  [`dependents of a hot layer (~${fmt(HOT_MAPS / HOT)} maps), direct`, (i) => call(`content/items/${hot(i)}/dependents`, {})],
  ['dependents of a hot layer, transitive (maps and apps)', (i) => call(`content/items/${hot(i)}/dependents`, { transitive: 'true' })],
  [
    'dependents of a layer, transitive, as user1 (hidden counted)',
    (i) => call(`content/items/${pick(layers, i).id}/dependents`, { transitive: 'true' }, userToken).catch(() => null),
  ],
  ['dependencies of a map, direct', (i) => call(`content/items/${pick(maps, i).id}/dependencies`, {})],
  ['dependencies of an app, transitive', (i) => call(`content/items/${pick(apps, i).id}/dependencies`, { transitive: 'true' })],
  ['portals/self/dependencies view=unused, first page', () => call('portals/self/dependencies', { view: 'unused', num: '25' })],
  ['portals/self/dependencies view=usedByMany, first page', () => call('portals/self/dependencies', { view: 'usedByMany', num: '25' })],
];
async function anonymous(path: string): Promise<number> {
  const res = await fetch(`${rest}/${path}?f=json&transitive=true`);
  const text = await res.text();
  if (text.includes('"error"')) throw new Error(`${path}: ${text.slice(0, 300)}`);
  return Buffer.byteLength(text);
}
const ringBytes = new Map<string, { bytes: number; edges: number; truncated: boolean }>();
for (const size of RINGS) {
  const [{ id }] = await svc.db.query<{ id: string }>(`SELECT ${ringId(size, '0')} AS id`);
  for (const direction of ['dependents', 'dependencies']) {
    const name = `adversarial ring of ${size} maps × ${fmt(NAMES_PER_MAP)} names, ${direction}, anonymous, transitive`;
    const a = (await (await fetch(`${rest}/content/items/${id}/${direction}?f=json&transitive=true`)).json()) as { edges: unknown[]; truncated: boolean };
    ringBytes.set(name, { bytes: await anonymous(`content/items/${id}/${direction}`), edges: a.edges.length, truncated: a.truncated });
    forms.push([name, () => anonymous(`content/items/${id}/${direction}`)]);
  }
}
const measuring = loadavg()[0];
const results = [];
for (const [name, run] of forms) results.push(await measurePaired(name, name.startsWith('portals/') ? Math.min(RUNS, 20) : RUNS, run, pkRead));
const sample = (await call(`content/items/${hot(0)}/dependents`, { transitive: 'true' })) as { items: unknown[]; edges: unknown[] };
await svc.close();

const where = svc.db.kind === 'pglite' ? 'embedded database on disk' : 'PostgreSQL';
// The machine's load beside the figures: absolute times mean little on a shared machine, the ratios more.
console.log(
  `load average (1 min) ${measuring.toFixed(2)} at the start of the measurements, ${loadavg()[0].toFixed(2)} at their end, ${loadStart.toFixed(2)} before seeding; ${availableParallelism()} CPUs`,
);
console.log(
  `${fmt(ITEMS)} items (${fmt(LAYERS)} layers, ${fmt(MAPS)} maps, ${fmt(APPS)} apps), ${fmt(refs)} references; ${RUNS} runs each, over HTTP on loopback, ${where}`,
);
console.log(
  reused
    ? `seed reused from BENCH_DATA_DIR ${process.env.BENCH_DATA_DIR}`
    : `seeded in ${fmt(seedMs / 1000, 1)} s; start-up indexer read ${fmt(indexed)} items in ${fmt(indexMs / 1000, 1)} s`,
);
console.log(`a hot layer's transitive dependents: ${fmt(sample.items.length)} items, ${fmt(sample.edges.length)} edges`);
console.log(`${baseline.name.padEnd(64)} p50 ${fmt(baseline.p50, 2).padStart(7)} ms  p95 ${fmt(baseline.p95, 2).padStart(7)} ms`);
// Issue 35's goal is every row within 3× the primary-key read, at p50 and at p95: both ratios are
// printed, each to the read measured in turns with the row (measurePaired), whose p50/p95 follow.
console.log(`${'operation'.padEnd(64)} ${'p50'.padStart(10)} ${'p95'.padStart(10)}  ÷ pk p50  ÷ pk p95  (pk p50 / p95 beside it)`);
for (const r of results) {
  const size = ringBytes.get(r.name);
  // Issue 35's goal for the adversarial answers, in absolute terms: p95 under 100 ms and the answer under 1 MB.
  const goal = size && (r.p95 < RING_GOAL_MS && size.bytes < RING_GOAL_BYTES ? 'goal met' : `GOAL MISSED (p95 < ${RING_GOAL_MS} ms, < 1 MB)`);
  const extra = size ? `  ${fmt(size.bytes)} bytes, ${fmt(size.edges)} edges${size.truncated ? ', truncated' : ''}; ${goal}` : '';
  console.log(
    `${r.name.padEnd(64)} ${fmt(r.p50, 2).padStart(7)} ms ${fmt(r.p95, 2).padStart(7)} ms  ${`${fmt(r.p50 / r.base.p50, 1)}×`.padStart(8)}  ${`${fmt(r.p95 / r.base.p95, 1)}×`.padStart(8)}  (${fmt(r.base.p50, 2)} / ${fmt(r.base.p95, 2)} ms)${extra}`,
  );
}
