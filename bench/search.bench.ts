/**
 * Item search benchmark. The real service on a fresh embedded database in a temporary DATA_DIR,
 * over HTTP on loopback, with 20,000 items (bulk-inserted with SQL: a quarter public, a quarter
 * the organization's, the rest private to five owners; some shared to a group, some
 * authoritative). Prints p50/p95 of `search` at pages spread over the whole result set and with a
 * few typical q's, next to `content/users/<owner>/items/<id>` — a plain primary-key read through
 * the same HTTP stack (`content/items/<id>` also counts a view, a write) — measured in the same
 * run, and what each search answered as its total against the exact count (num=0).
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

const results = [
  await measure('content/users/<owner>/items/<id> (baseline: by primary key)', RUNS, (i) =>
    call(`content/users/${owners[(i * 7919) % ids.length]}/items/${ids[(i * 7919) % ids.length]}`, {}),
  ),
  await measure(`search, all ${fmt(total)} visible, 100 per page, pages spread`, RUNS, (i) =>
    call('search', { q: '', num: '100', start: String(1 + ((i * 37) % pages) * 100), sortField: 'modified', sortOrder: 'desc' }),
  ),
  await measure('search, no sortField (authoritative first), pages spread', RUNS, (i) =>
    call('search', { q: '', num: '100', start: String(1 + ((i * 37) % pages) * 100) }),
  ),
  await measure('search, tags:water AND type:"Web Map"', RUNS, () => call('search', { q: 'tags:water AND type:"Web Map"', num: '10' })),
  await measure('search, free text "parks" (title/tags/snippet/description)', RUNS, () => call('search', { q: 'parks', num: '10' })),
  // Selective free terms (the trigram index's case: a few dozen matches among all the items).
  await measure('search, free text "4242" (a few dozen matches)', RUNS, () => call('search', { q: '4242', num: '10' })),
  // The same matches, but "item" is in every title: its trigrams' index entries list every item.
  await measure('search, free text "item 4242" (phrase, common word)', RUNS, () => call('search', { q: '"item 4242"', num: '10' })),
  await measure('search, owner:user1 OR (access:org AND title:roads)', RUNS, () =>
    call('search', { q: 'owner:user1 OR (access:org AND title:roads)', num: '10' }),
  ),
  await measure(`search, created range (${fmt(ITEMS / 2)} items), sort by title`, RUNS, () =>
    call('search', { q: `created:[${T0 - ITEMS} TO ${T0 - ITEMS / 2}]`, num: '10', sortField: 'title' }),
  ),
  await measure(`search as a member (group visibility), group:<id>`, RUNS, () => call('search', { q: `group:${group.id}`, num: '10' }, userToken)),
];

// What each search answered as its total against the exact count (num=0): estimates above 1,000 matches.
const totals: string[] = [];
for (const [q, tok] of [
  ['', token],
  ['parks', token],
  ['4242', token],
  ['tags:water AND type:"Web Map"', token],
  ['owner:user1 OR (access:org AND title:roads)', token],
  [`group:${group.id}`, userToken],
] as const) {
  const page = await call('search', { q, num: '10' }, tok);
  const exact = (await call('search', { q, num: '0' }, tok)).total as number;
  const answered = `${fmt(page.total as number)}${page.totalEstimated ? ' (estimated)' : ''}`;
  totals.push(`  ${(q || "q=''").padEnd(48)} total ${answered.padEnd(20)} exact ${fmt(exact)}`);
}
await svc.close();

const base = results[0];
console.log(`${fmt(ITEMS)} items; ${RUNS} runs each, over HTTP on loopback, ${svc.db.kind === 'pglite' ? 'embedded database on disk' : 'PostgreSQL'}`);
for (const r of results) {
  console.log(`${r.name.padEnd(64)} p50 ${fmt(r.p50, 2).padStart(7)} ms  p95 ${fmt(r.p95, 2).padStart(7)} ms  (p95 ${fmt(r.p95 / base.p95, 1)}× baseline)`);
}
console.log('Totals answered (num=10) and the exact count (num=0):');
for (const t of totals) console.log(t);
