/**
 * Soak benchmark (bounded, loopback only): the real service as a child process (its own DATA_DIR in
 * a temporary folder, or its own schema when DATABASE_URL is set) under mixed traffic for a fixed
 * time — reads, item adds, updates and deletes, file uploads, multipart uploads (some committed,
 * some abandoned), group adds and deletes, webhook deliveries to a receiver on 127.0.0.1, and a
 * scheduled task running every minute — with the retention limits shortened so the sweeps run.
 *
 * Every minute: the service's resident memory (VmRSS of its process), the database size (the
 * pgdata folder on disk; on PostgreSQL the relations of the service's schema) and the item files
 * (blobs and temporary files). At the end: the slope of each over the last 10 minutes (MB/min;
 * a plateau is close to 0), the request count, error answers (must be 0) and deliveries: every
 * event the traffic caused must have reached the receiver (after a drain; duplicates — at least
 * once — are counted once).
 *
 * The user data is kept at a steady size on purpose (the oldest items and groups are deleted as
 * new ones are added), so any growth left is what retention is meant to bound.
 *
 * Usage: npm run bench:soak   (SOAK_MINUTES=30, SOAK_RATE=8 operations/s, SOAK_PORT=3497, SOAK_TRACE=1 prints each request;
 *        DATABASE_URL=postgres://… runs it on PostgreSQL in a fresh schema)
 */
import { readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freshPostgresSchema } from '../test/support/postgres.ts';
import { fmt, freshDataDir, startProcess } from './lib.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const RATE = Number(process.env.SOAK_RATE ?? 8);
const PORT = Number(process.env.SOAK_PORT ?? 3497);
const PASSWORD = 'Portal.Demo.2026';
/** User data held steady: the newest items and groups the traffic made. */
const KEEP_ITEMS = 150;
const KEEP_GROUPS = 30;
/** Shortened retention (minutes) so that every sweep has work within the run. */
const RETAIN_MIN = { deliveries: 3, events: 4, uploads: 2, itemJobs: 3 };
/** When the traffic started (error lines say how far in). */
let runStart = performance.now();
const minutesAs = (m: number, unit: 'days' | 'hours') => String(m / (unit === 'days' ? 1440 : 60));

// ---- the receiver ----
/** Deliveries received, by `webhook-id` (at least once: a repeat counts once). */
const deliveries = new Map<string, string>();
let deliveryPosts = 0;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    deliveryPosts++;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const e = body.events[0];
      deliveries.set(String(req.headers['webhook-id']), `${e.source}|${e.id}|${e.operation}`);
    } catch {
      /* counted as a post; an unreadable body shows as a missing delivery */
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":"true"}');
  });
});
receiver.keepAliveTimeout = 5000;
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// ---- the service ----
const dataDir = freshDataDir();
const pgSchema = process.env.DATABASE_URL ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
const env: Record<string, string> = {
  DATA_DIR: dataDir,
  DEMO_DATA: 'on',
  ALLOW_PRIVATE_OUTBOUND: 'on',
  RETENTION_DELIVERIES_DAYS: minutesAs(RETAIN_MIN.deliveries, 'days'),
  RETENTION_DELIVERIES_PER_WEBHOOK: '500',
  RETENTION_EVENTS_DAYS: minutesAs(RETAIN_MIN.events, 'days'),
  RETENTION_UPLOADS_HOURS: minutesAs(RETAIN_MIN.uploads, 'hours'),
  RETENTION_ITEM_JOBS_DAYS: minutesAs(RETAIN_MIN.itemJobs, 'days'),
  RETENTION_SWEEP_INTERVAL_SECONDS: '30',
};
if (pgSchema) env.DATABASE_URL = pgSchema.url;
else delete process.env.DATABASE_URL;
const svc = await startProcess('src/server/main.ts', env, PORT, '/sharing/rest/info?f=json');
const rest = `${svc.baseUrl}/sharing/rest`;
const pgClient = pgSchema ? new pg.Client({ connectionString: pgSchema.url }) : undefined;
await pgClient?.connect();

// ---- requests ----
let requests = 0;
let errors = 0;
const errorSamples: string[] = [];
/** Events the traffic caused, as source|subject|operation (a multiset). */
const expected = new Map<string, number>();
const expect = (source: string, id: string, op: string) => {
  const k = `${source}|${id}|${op}`;
  expected.set(k, (expected.get(k) ?? 0) + 1);
};

async function call(op: string, params: Record<string, string> | FormData, opts: { get?: boolean; token?: boolean } = {}): Promise<any> {
  requests++;
  const url = new URL(`${rest}/${op}`);
  let init: RequestInit;
  if (opts.get) {
    for (const [k, v] of Object.entries({ f: 'json', ...(params as Record<string, string>), ...(opts.token === false ? {} : { token }) }))
      url.searchParams.set(k, v);
    init = { method: 'GET' };
  } else if (params instanceof FormData) {
    params.set('f', 'json');
    params.set('token', token);
    init = { method: 'POST', body: params };
  } else {
    init = { method: 'POST', body: new URLSearchParams({ f: 'json', ...params, ...(opts.token === false ? {} : { token }) }) };
  }
  if (process.env.SOAK_TRACE) console.log(`→ ${op}`);
  try {
    // A request that never ends would stop the run: count it as an error answer instead.
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    const body = text ? JSON.parse(text) : {};
    if (res.status !== 200 || body.error) throw new Error(`${res.status} ${text.slice(0, 200)}`);
    return body;
  } catch (err) {
    errors++;
    if (errorSamples.length < 10) {
      errorSamples.push(`${op}: ${(err as Error).message}`);
      console.log(`  error at ${fmt((performance.now() - runStart) / 60_000, 2)} min: ${op}: ${(err as Error).message}`);
    }
    return undefined;
  }
}

let token = '';
async function signIn(): Promise<void> {
  // Short tokens: expired ones pile up unless swept.
  const r = await call('generateToken', { username: 'admin', password: PASSWORD, client: 'referer', referer: svc.baseUrl, expiration: '3' }, { token: false });
  if (r?.token) token = r.token;
}
await signIn();
const self = await call('portals/self', {}, { get: true });
const orgId: string = self.id;
await call(`portals/${orgId}/webhooks/settings/update`, {
  notificationAttempts: '3',
  notificationTimeOutInSeconds: '10',
  notificationElapsedTimeInSeconds: '5',
});
const hook = await call(`portals/${orgId}/webhooks/createWebhook`, { name: 'soak', url: hookUrl, changes: 'allChanges' });
if (!hook?.id) throw new Error(`createWebhook failed: ${errorSamples.join('; ')}`);
const task = await call('community/users/admin/tasks/createTask', {
  type: 'ExecuteReport',
  title: 'Soak report',
  parameters: JSON.stringify({ reportType: 'members' }),
  minute: '*',
  hour: '*',
  dayOfMonth: '*',
  month: '*',
  dayOfWeek: '?',
});
if (!task?.taskId) throw new Error(`createTask failed: ${errorSamples.join('; ')}`);

// ---- traffic ----
const items: string[] = [];
const groups: string[] = [];
let seq = 0;
const fileBody = Buffer.alloc(64 * 1024, 7);
const partBody = Buffer.alloc(256 * 1024, 9);
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
/** Reads and updates use the newest half of the kept items, so the other lane never deletes one under them. */
const recentItems = () => items.slice(-KEEP_ITEMS / 2);
const USER = 'content/users/admin';

async function addText(): Promise<void> {
  const r = await call(`${USER}/addItem`, { title: `soak item ${++seq}`, type: 'Web Mapping Application', text: JSON.stringify({ n: seq }), tags: 'soak' });
  if (r?.id) {
    expect('item', r.id, 'add');
    items.push(r.id);
  }
}
async function update(): Promise<void> {
  const id = pick(recentItems());
  if (!id) return addText();
  const r = await call(`${USER}/items/${id}/update`, { title: `soak item updated ${++seq}`, snippet: `revision ${seq}` });
  if (r?.success) expect('item', id, 'update');
}
async function uploadFile(): Promise<void> {
  const form = new FormData();
  form.set('title', `soak file ${++seq}`);
  form.set('type', 'CSV');
  form.set('file', new Blob([fileBody]), `soak-${seq}.csv`);
  const r = await call(`${USER}/addItem`, form);
  if (r?.id) {
    expect('item', r.id, 'add');
    items.push(r.id);
  }
}
/** A multipart upload of two parts, committed unless `abandon`. */
async function multipart(abandon: boolean): Promise<void> {
  const r = await call(`${USER}/addItem`, { multipart: 'true', filename: `soak-${++seq}.bin` });
  if (!r?.id) return;
  expect('item', r.id, 'add');
  for (const partNum of abandon ? [1] : [1, 2]) {
    const form = new FormData();
    form.set('partNum', String(partNum));
    form.set('file', new Blob([partBody]), `part${partNum}`);
    await call(`${USER}/items/${r.id}/addPart`, form);
  }
  if (abandon) return; // the retention sweep cancels it (a delete event without an actor)
  const c = await call(`${USER}/items/${r.id}/commit`, { title: `soak upload ${seq}`, type: 'CSV' });
  if (c?.success) {
    expect('item', r.id, 'update');
    items.push(r.id);
  }
}
async function addGroup(): Promise<void> {
  const r = await call('community/createGroup', { title: `soak group ${++seq}`, access: 'org', tags: 'soak' });
  const id = r?.group?.id;
  if (!id) return;
  expect('group', id, 'add');
  groups.push(id);
  while (groups.length > KEEP_GROUPS) {
    const old = groups.shift()!;
    const d = await call(`community/groups/${old}/delete`, {});
    if (d?.success) expect('group', old, 'delete');
  }
}
async function read(): Promise<void> {
  const which = Math.random();
  if (which < 0.4) await call('search', { q: 'owner:admin tags:soak', num: '20', sortField: 'modified', sortOrder: 'desc' }, { get: true });
  else if (which < 0.7 && items.length) await call(`content/items/${pick(recentItems())}`, {}, { get: true });
  else if (which < 0.85) await call('community/self', {}, { get: true });
  else await call(`portals/${orgId}/webhooks/${hook.id}/notificationStatus`, { num: '10' }, { get: true });
}
/** Deletes the oldest items beyond KEEP_ITEMS (the report items of the scheduled task too). */
let trimming = false;
async function trimItems(): Promise<void> {
  // One lane at a time: two would race to delete the same report item.
  if (trimming) return read();
  trimming = true;
  try {
    await trim();
  } finally {
    trimming = false;
  }
}
async function trim(): Promise<void> {
  while (items.length > KEEP_ITEMS) {
    const id = items.shift()!;
    const d = await call(`${USER}/items/${id}/delete`, {});
    if (d?.success) expect('item', id, 'delete');
  }
  const reports = await call('search', { q: 'owner:admin type:CSV title:"Soak report"', num: '50', sortField: 'created', sortOrder: 'asc' }, { get: true });
  for (const r of (reports?.results ?? []).slice(0, -2)) {
    const d = await call(`${USER}/items/${r.id}/delete`, {});
    if (d?.success) expect('item', r.id, 'delete');
  }
}

const MIX: [number, () => Promise<void>][] = [
  [45, read],
  [16, addText],
  [16, update],
  [6, uploadFile],
  [4, () => multipart(false)],
  [2, () => multipart(true)],
  [8, addGroup],
  [3, trimItems],
];
const totalWeight = MIX.reduce((a, [w]) => a + w, 0);
function nextOp(): () => Promise<void> {
  let r = Math.random() * totalWeight;
  for (const [w, op] of MIX) if ((r -= w) < 0) return op;
  return read;
}

// ---- measurements ----
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += ((await stat(p).catch(() => null))?.blocks ?? 0) * 512;
  }
  return total;
}
function rssBytes(): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${svc.proc.pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}
async function dbBytes(): Promise<number> {
  if (!pgClient) return folderBytes(path.join(dataDir, 'pgdata'));
  const [row] = (
    await pgClient.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS n FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'm')`,
    )
  ).rows;
  return Number(row.n);
}
const MB = 1024 * 1024;
interface Sample {
  minute: number;
  rss: number;
  db: number;
  files: number;
}
const samples: Sample[] = [];
async function sample(minute: number): Promise<void> {
  const s = {
    minute,
    rss: rssBytes() / MB,
    db: (await dbBytes()) / MB,
    files: (await folderBytes(path.join(dataDir, 'blobs'))) / MB + (await folderBytes(path.join(dataDir, 'tmp'))) / MB,
  };
  samples.push(s);
  console.log(
    `${String(minute).padStart(3)} min  rss ${fmt(s.rss, 1).padStart(7)} MB  db ${fmt(s.db, 1).padStart(7)} MB  files ${fmt(s.files, 1).padStart(6)} MB  requests ${String(requests).padStart(7)}  errors ${errors}  deliveries ${deliveries.size}`,
  );
}
/** Least-squares slope (per minute) of `key` over the samples from `fromMinute` on. */
function slope(key: 'rss' | 'db' | 'files', fromMinute: number): number {
  const xs = samples.filter((s) => s.minute >= fromMinute);
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, s) => a + s.minute, 0) / n;
  const my = xs.reduce((a, s) => a + s[key], 0) / n;
  const num = xs.reduce((a, s) => a + (s.minute - mx) * (s[key] - my), 0);
  const den = xs.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  return num / den;
}

// ---- the run ----
console.log(`Soak: ${MINUTES} min at ~${RATE} operations/s on ${pgClient ? 'PostgreSQL' : 'the embedded database'}; service pid ${svc.proc.pid}, port ${PORT}`);
console.log(
  `Retention: deliveries ${RETAIN_MIN.deliveries} min (at most 500 per webhook), events ${RETAIN_MIN.events} min, abandoned uploads and temporary files ${RETAIN_MIN.uploads} min, item jobs ${RETAIN_MIN.itemJobs} min; a sweep every 30 s`,
);
await sample(0);
const started = performance.now();
runStart = started;
const endAt = started + MINUTES * 60_000;
let nextSampleAt = started + 60_000;
let nextSignInAt = started + 60_000;
const CONCURRENCY = 2;
const spacing = (1000 / RATE) * CONCURRENCY;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async (_, lane) => {
    await new Promise((r) => setTimeout(r, (spacing / CONCURRENCY) * lane));
    while (performance.now() < endAt) {
      const t0 = performance.now();
      if (lane === 0 && t0 >= nextSignInAt) {
        nextSignInAt += 60_000;
        await signIn();
      }
      if (lane === 0 && t0 >= nextSampleAt) {
        const minute = Math.round((nextSampleAt - started) / 60_000);
        nextSampleAt += 60_000;
        await sample(minute);
      }
      await nextOp()();
      const wait = spacing - (performance.now() - t0);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }),
);
if (samples.at(-1)!.minute < MINUTES) await sample(MINUTES);

// ---- drain and count ----
const want = () => {
  const got = new Map<string, number>();
  for (const k of deliveries.values()) got.set(k, (got.get(k) ?? 0) + 1);
  let missing = 0;
  for (const [k, n] of expected) missing += Math.max(0, n - (got.get(k) ?? 0));
  return { missing, got };
};
const drainStart = performance.now();
let lastSize = -1;
let stillAt = performance.now();
while (want().missing > 0 && performance.now() - stillAt < 60_000) {
  if (deliveries.size !== lastSize) {
    lastSize = deliveries.size;
    stillAt = performance.now();
  }
  await new Promise((r) => setTimeout(r, 500));
}
const { missing, got } = want();
const expectedTotal = [...expected.values()].reduce((a, b) => a + b, 0);
let extra = 0;
for (const [k, n] of got) extra += Math.max(0, n - (expected.get(k) ?? 0));
const from = Math.max(0, MINUTES - 10);
console.log('');
console.log(
  `Slope over minutes ${from}–${MINUTES}: rss ${fmt(slope('rss', from), 2)} MB/min, db ${fmt(slope('db', from), 2)} MB/min, files ${fmt(slope('files', from), 2)} MB/min`,
);
const first = samples.find((s) => s.minute >= from)!;
const last = samples.at(-1)!;
console.log(
  `Over the same minutes: rss ${fmt(first.rss, 1)} → ${fmt(last.rss, 1)} MB, db ${fmt(first.db, 1)} → ${fmt(last.db, 1)} MB, files ${fmt(first.files, 1)} → ${fmt(last.files, 1)} MB`,
);
console.log(`Requests: ${requests} (${fmt(requests / (MINUTES * 60), 1)}/s); error answers: ${errors}`);
console.log(
  `Deliveries: ${expectedTotal} events caused by the traffic, ${expectedTotal - missing} delivered, ${missing} missing (drained in ${fmt((performance.now() - drainStart) / 1000, 1)} s); ` +
    `${deliveries.size} distinct deliveries in ${deliveryPosts} posts; ${extra} deliveries of other events (sign-ins, the scheduled task's reports, swept uploads)`,
);
for (const e of errorSamples) console.log(`  error: ${e}`);

await svc.stop();
await pgClient?.end();
await pgSchema?.drop();
await rm(dataDir, { recursive: true, force: true });
receiver.close();
console.log(errors === 0 && missing === 0 ? 'OK' : 'FAILED');
process.exit(errors === 0 && missing === 0 ? 0 : 1);
