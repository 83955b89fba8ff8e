/**
 * Item search benchmark. The real service on a fresh embedded database in a temporary DATA_DIR,
 * over HTTP on loopback, with 20,000 items (BENCH_ITEMS; bulk-inserted with SQL: a quarter public, a
 * quarter the organization's, the rest private to five owners; some shared to a group, some
 * authoritative). Prints p50/p95 of every form of `search` apps send (free text, fields, ranges
 * sorted by title, pages spread over the whole result set, no sortField, `group:` as a member)
 * and of `content/groups/<id>/search` with and without q, next to `content/users/<owner>/items/<id>` — a plain primary-key read through
 * the same HTTP stack (`content/items/<id>` also counts a view, a write) — measured in the same
 * run, and what each search answered as its total against the exact count (num=0) with the
 * difference in per cent. Each form is measured after the search counter (migration 019) moved, so
 * its first call reads the matches afresh ("first call"); the p50/p95 that follow page through
 * the kept list, as a client paging by nextStart does.
 * Usage: npm run bench:search (DATABASE_URL=postgres://… for PostgreSQL)
 */
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 20_000);
const svc = await startService({ config: { dataDir: freshDataDir() } });
const rest = await svc.listen();
const token = await svc.tokenFor('admin');
const userToken = await svc.tokenFor('user1');

async function call(path: string, params: Record<string, string>, tok = token): Promise<Record<string, unknown>> {
  const res = await fetch(`${rest}/${path}?${new URLSearchParams({ ...params, f: 'json', token: tok })}`);
  const body = (await res.json()) as Record<string, unknown>;
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

async function post(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(`${rest}/${path}`, { method: 'POST', body: new URLSearchParams({ ...params, f: 'json', token }) });
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

const T0 = Date.now();
const { group } = (await post('community/createGroup', { title: 'Bench group' })) as { group: { id: string } };
await svc.db.query(
  `INSERT INTO items (id, org_id, owner_id, title, type, tags, type_keywords, snippet, access, content_status, created, modified)
   SELECT md5('item' || i), $1,
          (SELECT id FROM users WHERE username = (ARRAY['admin','publisher1','user1','viewer1','publisher1'])[1 + i % 5]),
          'Item ' || i || ' ' || (ARRAY['parks','roads','water','schools','transit'])[1 + i % 5],
          (ARRAY['Web Map','Feature Service','CSV','Web Mapping Application'])[1 + i % 4],
          ARRAY[(ARRAY['parks','roads','water','schools','transit'])[1 + i % 5], 'bench'],
          ARRAY['Data'], 'Snippet for item ' || i,
          (ARRAY['public','org','private','private'])[1 + i % 4],
          CASE WHEN i % 97 = 0 THEN 'org_authoritative' WHEN i % 89 = 0 THEN 'deprecated' END,
          $2::bigint + i, $2::bigint + i
     FROM generate_series(1, ${ITEMS}) AS i`,
  [svc.orgId, T0 - ITEMS],
);
await post(`community/groups/${group.id}/addUsers`, { users: 'user1' });
await svc.db.query(`INSERT INTO item_shares (item_id, group_id, shared) SELECT id, $1, 0 FROM items WHERE access = 'private' AND md5(id) < '2'`, [group.id]);
await svc.db.query('ANALYZE');
const rowsById = await svc.db.query<{ id: string; owner: string }>(
  'SELECT i.id, u.username AS owner FROM items i JOIN users u ON u.id = i.owner_id ORDER BY i.id',
);
const ids = rowsById.map((r) => r.id);
const owners = rowsById.map((r) => r.owner);
// num=0 asks for the count alone, which is always exact (a page's total may be an estimate).
const total = (await call('search', { q: '', num: '0' })).total as number;
const pages = Math.ceil(total / 100);

interface Form {
  name: string;
  path: string;
  /** Parameters of run i (pages spread where the form pages). */
  params: (i: number) => Record<string, string>;
  token: string;
}
const groupPath = `content/groups/${group.id}/search`;
const spread = (i: number) => String(1 + ((i * 37) % pages) * 100);
const forms: Form[] = [
  {
    name: `all ${fmt(total)} visible, 100 a page, pages spread, by modified`,
    path: 'search',
    token,
    params: (i) => ({ q: '', num: '100', start: spread(i), sortField: 'modified', sortOrder: 'desc' }),
  },
  { name: 'no sortField (authoritative first), 100 a page, pages spread', path: 'search', token, params: (i) => ({ q: '', num: '100', start: spread(i) }) },
  { name: 'tags:water AND type:"Web Map"', path: 'search', token, params: () => ({ q: 'tags:water AND type:"Web Map"', num: '10' }) },
  { name: 'free text "parks"', path: 'search', token, params: () => ({ q: 'parks', num: '10' }) },
  { name: 'free text "4242" (a few dozen matches)', path: 'search', token, params: () => ({ q: '4242', num: '10' }) },
  { name: 'free text "item 4242" (phrase, common word)', path: 'search', token, params: () => ({ q: '"item 4242"', num: '10' }) },
  { name: 'owner:user1', path: 'search', token, params: () => ({ q: 'owner:user1', num: '10' }) },
  {
    name: 'owner:user1 OR (access:org AND title:roads)',
    path: 'search',
    token,
    params: () => ({ q: 'owner:user1 OR (access:org AND title:roads)', num: '10' }),
  },
  { name: 'orgid:<org>', path: 'search', token, params: () => ({ q: `orgid:${svc.orgId}`, num: '10' }) },
  {
    name: `created range (${fmt(ITEMS / 2)} items), sorted by title`,
    path: 'search',
    token,
    params: () => ({ q: `created:[${T0 - ITEMS} TO ${T0 - ITEMS / 2}]`, num: '10', sortField: 'title' }),
  },
  { name: 'group:<id> as a member', path: 'search', token: userToken, params: () => ({ q: `group:${group.id}`, num: '10' }) },
  { name: 'content/groups/<id>/search as a member', path: groupPath, token: userToken, params: () => ({ num: '10' }) },
  {
    name: 'content/groups/<id>/search, q=water, pages spread',
    path: groupPath,
    token: userToken,
    params: (i) => ({ q: 'water', num: '10', start: String(1 + ((i * 7) % 100) * 10) }),
  },
];

const baseline = await measure('content/users/<owner>/items/<id> (baseline: by primary key)', RUNS, (i) =>
  call(`content/users/${owners[(i * 7919) % ids.length]}/items/${ids[(i * 7919) % ids.length]}`, {}),
);
const results: { name: string; p50: number; p95: number; cold: number; answered: string; exact: number; off: number }[] = [];
for (const f of forms) {
  // The first call after a change pays for reading the matches in order (then kept: searchLists.ts).
  await svc.db.query('UPDATE item_search_generation SET generation = generation + 1');
  const t = performance.now();
  const first = await call(f.path, f.params(0), f.token);
  const cold = performance.now() - t;
  const m = await measure(f.name, RUNS, (i) => call(f.path, f.params(i), f.token));
  const exact = (await call(f.path, { ...f.params(0), num: '0', start: '1' }, f.token)).total as number;
  const answered = `${fmt(first.total as number)}${first.totalEstimated ? ' (est.)' : ''}`;
  results.push({ ...m, cold, answered, exact, off: exact ? (100 * ((first.total as number) - exact)) / exact : 0 });
}
await svc.close();

console.log(`${fmt(ITEMS)} items; ${RUNS} runs each, over HTTP on loopback, ${svc.db.kind === 'pglite' ? 'embedded database on disk' : 'PostgreSQL'}`);
console.log(`${baseline.name.padEnd(66)} p50 ${fmt(baseline.p50, 2).padStart(7)} ms  p95 ${fmt(baseline.p95, 2).padStart(7)} ms`);
console.log(`${'form'.padEnd(66)} ${'p50'.padStart(10)} ${'p95'.padStart(10)}  ÷ pk p95  first call   total answered / exact (diff)`);
for (const r of results) {
  console.log(
    `${r.name.padEnd(66)} ${fmt(r.p50, 2).padStart(7)} ms ${fmt(r.p95, 2).padStart(7)} ms  ${`${fmt(r.p95 / baseline.p95, 1)}×`.padStart(7)}  ${fmt(r.cold, 1).padStart(7)} ms   ${r.answered} / ${fmt(r.exact)} (${r.off >= 0 ? '+' : ''}${fmt(r.off, 1)} %)`,
  );
}
