/**
 * Every declared operation (the app's own registry, so a new operation is covered without touching
 * this file) against a corpus of hostile values in each of its parameters and path segments, as the
 * default administrator and anonymously: no answer is a 5xx or an internal error, characters that
 * cannot be stored and over-long values are refused with a 400 naming the parameter, the service
 * stays up, and no refused request changes the database.
 *
 * "Nothing changed" is checked by the database's transaction ids: a write of any row takes one, so
 * requests that leave the counter where it was wrote nothing, and ones whose transactions all rolled
 * back kept nothing. The requests the operation's own schema refuses (most of them) are checked
 * together, around all of them; the others one by one, after each. A refused request that still
 * moved the counter is sent again on its own between two fingerprints of every table, which must
 * then agree. (Before, every refused request of a batch that changed something was sent twice, and
 * every batch took two fingerprints: a fifth of the run.)
 *
 * The corpus is the suite's longest run, so it is cut into shards, each a test file of its own with
 * its own service (hostile-input.<n>.test.ts): Vitest runs them side by side. Every shard keeps the
 * destructive operations last; the first also holds the cases at the parameter boundary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/support/service.ts';
import { LIMITS } from '../shared/limits.ts';
import type { DeclaredOperation } from './http/operation.ts';
import { MemberLifecycleRunner } from './jobs/memberLifecycle.ts';

interface Hostile {
  label: string;
  value: unknown;
  /** Refused at the boundary: a 400 naming the parameter is required, whatever the operation. */
  boundary?: boolean;
  /** Sent as an application/json body (lone surrogates cannot travel in UTF-8 form bodies). */
  json?: boolean;
  /** The value is JSON text to put in that body as it is (too deep for JSON.stringify). */
  raw?: boolean;
}

const LONG = 'a'.repeat(70_000);
// Nested deeper than JSON.stringify's stack allows, yet under the per-value cap.
const DEEP_ARRAY = `${'['.repeat(32_000)}${']'.repeat(32_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;

const BOUNDARY: Hostile[] = [
  { label: 'NUL', value: '\u0000', boundary: true },
  { label: 'NUL inside', value: 'abc\u0000def', boundary: true },
  { label: 'lone high surrogate', value: '\uD800', boundary: true, json: true },
  { label: 'lone low surrogate inside', value: 'x\uDC00y', boundary: true, json: true },
  { label: '70,000 characters', value: LONG, boundary: true },
];

const CORPUS: Hostile[] = [
  ...BOUNDARY,
  { label: 'empty', value: '' },
  { label: 'blank', value: '   ' },
  { label: 'JSON __proto__', value: '{"__proto__":{"polluted":true}}' },
  { label: 'JSON constructor', value: '{"constructor":{"prototype":{"polluted":true}}}' },
  { label: 'JSON escaped NUL', value: '{"a":"\\u0000","\\u0000":"b"}' },
  { label: 'JSON escaped surrogate', value: '["\\ud800"]' },
  { label: 'JSON wrong shape (array)', value: '[1,{"a":[]}]' },
  { label: 'JSON wrong shape (object)', value: '{"privileges":"x","users":{"a":1}}' },
  { label: 'JSON null', value: 'null' },
  { label: 'JSON broken', value: '{"a":' },
  { label: 'JSON deeply nested array', value: DEEP_ARRAY },
  { label: 'JSON deeply nested object', value: DEEP_OBJECT },
  { label: 'negative', value: '-1' },
  { label: 'int32 overflow', value: '2147483648' },
  { label: 'int64 overflow', value: '99999999999999999999999' },
  { label: 'float overflow', value: '1e309' },
  { label: 'NaN', value: 'NaN' },
  { label: 'fraction', value: '1.5' },
  { label: 'SQL quote', value: "' OR '1'='1" },
  { label: 'SQL statement', value: '1; DROP TABLE users; --' },
  { label: 'LIKE wildcards', value: '%_\\' },
  { label: 'path traversal', value: '../../../../etc/passwd' },
  { label: 'windows path', value: '..\\..\\boot.ini' },
  { label: 'javascript URL', value: 'javascript:alert(1)' },
  { label: 'file URL', value: 'file:///etc/passwd' },
  { label: 'data URL', value: 'data:text/html,<script>alert(1)</script>' },
  { label: 'gopher URL', value: 'gopher://127.0.0.1:6379/_INFO' },
  { label: 'closed local port', value: 'http://127.0.0.1:9/x' },
  { label: 'many commas', value: ','.repeat(5000) },
  { label: 'JSON-body object', value: { $ne: 1, __proto__x: [1, 2] }, json: true },
  { label: 'JSON-body array', value: ['a', 'b'], json: true },
  { label: 'JSON-body number', value: 1e308, json: true },
  { label: 'JSON-body boolean', value: true, json: true },
  { label: 'JSON-body null', value: null, json: true },
  { label: 'JSON-body deeply nested', value: DEEP_OBJECT, json: true, raw: true },
];

/** Path segments: encoded as they travel in a URL. */
const HOSTILE_SEGMENTS = ['%00', 'a%00b', '%ED%A0%80', '%27%20OR%20%271%27%3D%271', '..%2F..%2Fetc%2Fpasswd', '__proto__', 'constructor', 'x'.repeat(90), '%'];

/** Parameter names to try where an operation's schema is not an object (addItem reads its own). */
const COMMON_PARAMS = [
  'title',
  'type',
  'text',
  'url',
  'tags',
  'description',
  'snippet',
  'properties',
  'extent',
  'dataUrl',
  'async',
  'multipart',
  'filename',
  'id',
  'q',
  'users',
  'items',
  'username',
];

/** Operations that remove what later operations use run last. */
const DESTRUCTIVE = /\/(delete|remove|removeParticipation|unregister|leave|cancel|reassign|reassignItems|removeUsers|updateUserRole)$/;

let svc: TestService;
let adminToken: string;
const fill: Record<string, string> = {};
const totals = { sent: 0, resent: 0, serverErrors: 0, internalErrors: 0, refused: 0, fingerprintMs: 0 };
const failures: string[] = [];

/** Parameter names from the schema: objects inside pipes, optionals, defaults, unions. */
function paramNames(schema: unknown, out = new Set<string>(), depth = 0): Set<string> {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } })?._zod?.def;
  if (!def || depth > 20) return out;
  switch (def.type) {
    case 'object':
      for (const k of Object.keys(def.shape as object)) out.add(k);
      break;
    case 'pipe':
      paramNames(def.in, out, depth + 1);
      paramNames(def.out, out, depth + 1);
      break;
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'catch':
    case 'readonly':
      paramNames(def.innerType, out, depth + 1);
      break;
    case 'union':
      for (const o of def.options as unknown[]) paramNames(o, out, depth + 1);
      break;
    case 'intersection':
      paramNames(def.left, out, depth + 1);
      paramNames(def.right, out, depth + 1);
      break;
    default:
      for (const n of COMMON_PARAMS) out.add(n);
  }
  return out;
}

/** The path with every `:name` (and `*`) filled from the fixtures, one segment optionally replaced. */
function urlOf(op: DeclaredOperation, replace?: { name: string; segment: string }): string {
  return op.path.replace(/:(\w+)|\*/g, (_m, name: string | undefined) => {
    const key = name ?? '*';
    if (replace?.name === key) return replace.segment;
    return encodeURIComponent(fixtureFor(op, key)).replaceAll('%2F', '/');
  });
}

function fixtureFor(op: DeclaredOperation, name: string): string {
  if (name === 'webhookId' && op.path.startsWith('/server/')) return fill.serviceWebhookId;
  return fill[name] ?? 'missing';
}

function pathParamNames(op: DeclaredOperation): string[] {
  return [...op.path.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
}

interface Sent {
  method: 'GET' | 'POST';
  url: string;
  contentType?: string;
  payload?: string;
  label: string;
}

function formRequest(op: DeclaredOperation, url: string, params: Record<string, unknown>, label: string, viaQuery: boolean): Sent {
  const body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  if (viaQuery && op.method === 'read') return { method: 'GET', url: `${url}?${body}`, label };
  return { method: 'POST', url, contentType: 'application/x-www-form-urlencoded', payload: body, label };
}

function jsonRequest(url: string, params: Record<string, unknown>, label: string): Sent {
  return { method: 'POST', url, contentType: 'application/json', payload: JSON.stringify(params), label };
}

async function send(r: Sent) {
  const res = await svc.app.inject({ method: r.method, url: r.url, payload: r.payload, headers: r.contentType ? { 'content-type': r.contentType } : {} });
  totals.sent++;
  let body: { error?: { code?: number; message?: string; fieldErrors?: Record<string, string> } } | undefined;
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  const code = body?.error?.code;
  const internal = res.body.includes('internal error');
  if (res.statusCode >= 500 || (code !== undefined && code >= 500) || internal) {
    totals.serverErrors += res.statusCode >= 500 || (code ?? 0) >= 500 ? 1 : 0;
    totals.internalErrors += internal ? 1 : 0;
    failures.push(`${r.label}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  const refused = res.statusCode !== 200 || body?.error !== undefined;
  if (refused) totals.refused++;
  return { refused, error: body?.error };
}

/** Row count and newest row version of every table in the service's schema. */
async function fingerprint(): Promise<Record<string, string>> {
  const t0 = Date.now();
  try {
    return await fingerprintNow();
  } finally {
    totals.fingerprintMs += Date.now() - t0;
  }
}

let fingerprintSql: string | undefined;

async function fingerprintNow(): Promise<Record<string, string>> {
  if (!fingerprintSql) {
    const tables = await svc.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    // Each table's row count and newest row version (xmin, the inserting or updating transaction): a
    // committed insert or update raises the newest, a delete lowers the count or the newest. Stricter
    // than a hash of the rows (an update to the same values counts) and no row is turned into text,
    // which was most of a fingerprint's cost.
    fingerprintSql = tables
      .map((t) => `SELECT '${t.table_name}' AS t, count(*)::int AS n, coalesce(max(xmin::text::bigint), 0)::text AS h FROM "${t.table_name}"`)
      .join(' UNION ALL ');
  }
  const rows = await svc.db.query<{ t: string; n: number; h: string }>(fingerprintSql);
  return Object.fromEntries(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
}

function changedTables(a: Record<string, string>, b: Record<string, string>): string[] {
  return Object.keys({ ...a, ...b }).filter((t) => a[t] !== b[t]);
}

interface Planned {
  sent: Sent;
  expectParam?: string;
  /** The operation's own schema refuses the parameters: the service answers before any handler runs. */
  schemaRefused?: boolean;
}

type Parsed = { success: true; data: unknown } | { success: false } | undefined;

/** The operation's schema on the parameters as they travel (form values are text); undefined when it cannot say. */
function schemaParse(op: DeclaredOperation, wire: Record<string, unknown>): Parsed {
  try {
    return (op.params as { safeParse?: (v: unknown) => Parsed }).safeParse?.(wire);
  } catch {
    return undefined;
  }
}

/** The requests for one operation and one caller. */
function requestsFor(op: DeclaredOperation, token: string | null): Planned[] {
  const base = urlOf(op);
  const auth = token ? { token } : {};
  const out: Planned[] = [];
  const names = [...paramNames(op.params)];
  // Anonymous calls of member-only operations stop at the token check: the boundary values show it runs first.
  const valuesFor = (name: string) => (name === 'f' || name === 'token' || (!token && op.access !== 'public') ? BOUNDARY : CORPUS);
  for (const name of ['f', 'token', ...names]) {
    valuesFor(name).forEach((h, i) => {
      const label = `${op.method} ${op.path} [${token ? 'admin' : 'anonymous'}] ${name}=${h.label}`;
      const params = { f: 'json', ...auth, [name]: h.value };
      const sent = h.raw
        ? {
            ...jsonRequest(base, { f: 'json', ...auth }, label),
            payload: `${JSON.stringify({ f: 'json', ...auth }).slice(0, -1)},${JSON.stringify(name)}:${String(h.value)}}`,
          }
        : h.json
          ? jsonRequest(base, params, label)
          : formRequest(op, base, params, label, i % 2 === 0);
      const longOk = typeof h.value === 'string' && h.value.length <= (op.longParams?.[name] ?? LIMITS.paramChars);
      const expectParam = h.boundary && !(h.label.startsWith('70,000') && longOk) ? name : undefined;
      const parsed = h.raw ? undefined : schemaParse(op, h.json ? params : Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
      out.push({ sent, expectParam, schemaRefused: parsed?.success === false });
    });
  }
  for (const name of pathParamNames(op)) {
    for (const segment of HOSTILE_SEGMENTS) {
      const label = `${op.method} ${op.path} [${token ? 'admin' : 'anonymous'}] path ${name}=${segment.slice(0, 20)}`;
      const sent = formRequest(op, urlOf(op, { name, segment }), { f: 'json', ...auth }, label, segment.length % 2 === 0);
      out.push({ sent, expectParam: segment.includes('%00') ? (name === '*' ? 'path' : name) : undefined });
    }
  }
  const proto = `__proto__%5Bpolluted%5D=1&constructor%5Bprototype%5D%5Bpolluted%5D=1&__proto__=x&f=json${token ? `&token=${token}` : ''}`;
  out.push({ sent: { method: 'POST', url: base, contentType: 'application/x-www-form-urlencoded', payload: proto, label: `${op.path} __proto__ form keys` } });
  out.push({
    sent: {
      method: 'POST',
      url: base,
      contentType: 'application/json',
      payload: `{"f":"json","__proto__":{"polluted":true}}`,
      label: `${op.path} __proto__ JSON body`,
    },
  });
  const many = Array.from({ length: LIMITS.paramsPerRequest + 1 }, (_, i) => `p${i}=1`).join('&');
  out.push({
    sent: { method: 'POST', url: base, contentType: 'application/x-www-form-urlencoded', payload: `${many}&f=json`, label: `${op.path} too many parameters` },
  });
  return out;
}

/** The first transaction id not yet completed: it moves when any transaction that wrote (or began to) ends. */
async function nextXid(): Promise<string> {
  return (await svc.db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x'))[0].x;
}

/** Whether every transaction id in [from, to) ended in a rollback (so changed nothing). */
async function allRolledBack(from: string, to: string): Promise<boolean> {
  const [{ n }] = await svc.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM generate_series($1::bigint, $2::bigint - 1) AS x WHERE pg_xact_status(x::text::xid8) IS DISTINCT FROM 'aborted'`,
    [from, to],
  );
  return n === 0;
}

/**
 * Sends the requests, checking after each one that a refused request left no transaction behind
 * (`perRequest`), or only around the whole list: a list whose sending moved the counter without
 * rolling back is sent again request by request. What still needs the fingerprints goes to `moved`.
 */
async function sendChecked(list: Planned[], perRequest: boolean, moved: Sent[]): Promise<void> {
  const refusedOnes: Planned[] = [];
  const start = await nextXid();
  let xid = start;
  for (const planned of list) {
    const { sent, expectParam } = planned;
    const { refused, error } = await send(sent);
    if (expectParam && (error?.code !== 400 || !error.fieldErrors?.[expectParam])) {
      failures.push(`${sent.label}: expected a 400 naming '${expectParam}', got ${JSON.stringify(error ?? 'success').slice(0, 200)}`);
    }
    if (refused) refusedOnes.push({ ...planned, expectParam: undefined });
    if (!perRequest) continue;
    const after = await nextXid();
    if (refused && after !== xid && !(await allRolledBack(xid, after))) moved.push(sent);
    xid = after;
  }
  if (perRequest) return;
  const end = await nextXid();
  if (end !== start && !(await allRolledBack(start, end))) await sendChecked(refusedOnes, true, moved);
}

async function runOperation(op: DeclaredOperation, token: string | null): Promise<void> {
  const who = `${op.method} ${op.path} [${token ? 'admin' : 'anonymous'}]`;
  const planned = requestsFor(op, token);
  const moved: Sent[] = [];
  // Most requests fail the operation's schema: one check around all of them; the rest one by one.
  await sendChecked(
    planned.filter((p) => p.schemaRefused),
    false,
    moved,
  );
  await sendChecked(
    planned.filter((p) => !p.schemaRefused),
    true,
    moved,
  );
  // A refused request whose transaction committed (one that only locked a row, say), or, on
  // PostgreSQL, that shared the counter with another schema's: sent again between two fingerprints.
  if (!moved.length) return;
  totals.resent += moved.length;
  const before = await fingerprint();
  for (const sent of moved) {
    const { refused } = await send(sent);
    if (!refused) {
      failures.push(`${sent.label}: refused once, accepted when sent again`);
      return;
    }
  }
  const changed = changedTables(before, await fingerprint());
  if (changed.length) failures.push(`${who}: refused requests changed ${changed.join(', ')}`);
}

async function post(path: string, params: Record<string, string>) {
  const body = await svc.post(path, params, adminToken);
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

/** Registers shard `shard` (0-based) of `shards`: its service and fixtures, and its share of the declared operations. */
export function describeHostileInput(shard: number, shards: number): void {
  beforeAll(async () => {
    svc = await startService();
    adminToken = await svc.tokenFor('admin');
    const org = svc.orgId;
    fill.orgId = org;
    fill.username = 'admin';
    fill.folderId = (await post('content/users/admin/createFolder', { title: 'Hostile folder' })).folder.id;
    fill.itemId = (await post('content/users/admin/addItem', { title: 'Hostile item', type: 'Web Map', text: '{"operationalLayers":[]}' })).id;
    fill.groupId = (await post('community/createGroup', { title: 'Hostile group', access: 'org' })).group.id;
    fill.roleId = (await post(`portals/${org}/createRole`, { name: 'Hostile role', description: 'x' })).id;
    fill.webhookId = (await post(`portals/${org}/webhooks/createWebhook`, { name: 'Hostile hook', url: 'http://127.0.0.1:9/hook', events: '/items' })).id;
    const weekdays = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
    fill.taskId = (
      await post('community/users/admin/tasks/createTask', {
        type: 'ExecuteReport',
        title: 'Hostile task',
        parameters: '{"reportType":"members"}',
        ...weekdays,
      })
    ).taskId;
    fill.runId = (await post(`community/users/admin/tasks/${fill.taskId}/run`, {})).runId;
    // An inactivity policy that touches nobody (3,000 days), switched on and run once: its run is the undo's target.
    fill.policyId = (
      await post(`portals/${org}/memberLifecycle/policies/createPolicy`, {
        title: 'Hostile policy',
        warnAfterDays: '3000',
        actAfterDays: '3650',
        action: 'disable',
      })
    ).id;
    await post(`portals/${org}/memberLifecycle/policies/${fill.policyId}/enable`, {});
    await new MemberLifecycleRunner(svc.app.portal).runDue();
    fill.policyRunId = (await post(`portals/${org}/memberLifecycle/policies/${fill.policyId}/runs`, {})).runs[0].id;
    fill.deliveryId = (await post(`portals/${org}/webhooks/${fill.webhookId}/test`, {})).deliveryId;
    // A bulk member job (not run: no runner in tests), the target of its status, results, pause, resume and cancel.
    fill.jobId = (await post(`portals/${org}/memberJobs/disableUsers`, { usernames: 'viewer1' })).jobId;
    const appItem = (await post('content/users/admin/addItem', { title: 'Hostile app', type: 'Web Mapping Application', url: 'https://app.example/' })).id;
    fill.clientId = (await post('oauth2/registerApp', { itemId: appItem, appType: 'browser', redirect_uris: '["https://app.example/cb"]' })).client_id;
    const one = async (sql: string, params: unknown[] = []) => ((await svc.db.query<{ v: string }>(sql, params))[0]?.v as string | undefined) ?? 'missing';
    fill.collaborationId = await one('SELECT id AS v FROM collaborations LIMIT 1');
    fill.portalId = svc.partnerOrgId;
    const service = (
      await svc.db.query<{ server_id: string; folder_name: string; service_name: string }>(
        'SELECT server_id, folder_name, service_name FROM federated_services ORDER BY service_name LIMIT 1',
      )
    )[0];
    fill.serverId = service?.server_id ?? 'missing';
    fill.folder = service?.folder_name || 'Hosted';
    fill.service = service?.service_name ?? 'missing';
    fill.serviceWebhookId = await one('SELECT id AS v FROM service_webhooks LIMIT 1');
    fill['*'] = 'esriinfo/iteminfo.xml';
    // Every path parameter gets a real id: a fixture that failed would silently test only "not found".
    for (const [name, value] of Object.entries(fill)) expect(value, name).toMatch(/^[^\s]+$/);
    expect(Object.values(fill)).not.toContain('missing');
    expect(Object.values(fill)).not.toContain('undefined');
  }, 60_000);

  afterAll(async () => {
    await svc?.close();
  });

  describe(`hostile input at the parameter boundary (shard ${shard + 1} of ${shards})`, () => {
    it.runIf(shard === 0)('refuses multipart field names and filenames that cannot be stored or are over-long, naming the field', async () => {
      const boundary = '----hostile';
      const part = (disposition: string, value: string, type?: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${value}\r\n`;
      const addItem = async (extra: string) => {
        const payload =
          [part('name="f"', 'json'), part('name="token"', adminToken), part('name="title"', 'Multipart hostile'), part('name="type"', 'CSV'), extra].join('') +
          `--${boundary}--\r\n`;
        const res = await svc.app.inject({
          method: 'POST',
          url: '/sharing/rest/content/users/admin/addItem',
          payload,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        expect(res.statusCode).toBe(200);
        return res.json().error as { code: number; details: string[]; fieldErrors: Record<string, string> } | undefined;
      };
      const items = async () => (await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE title = 'Multipart hostile'`))[0].n;

      expect(await addItem(part('name="ti\u0000tle"', 'x'))).toMatchObject({
        code: 400,
        fieldErrors: { 'ti\uFFFDtle': 'is a field name that contains a character that cannot be stored (U+0000)' },
      });
      expect(await addItem(part('name="file"; filename="a\u0000.csv"', 'a,b', 'text/csv'))).toMatchObject({
        code: 400,
        fieldErrors: { file: 'has a filename that contains a character that cannot be stored (U+0000)' },
      });
      // RFC 5987 filenames are percent-decoded by the multipart parser: NUL arrives decoded.
      expect(await addItem(part(`name="file"; filename*=UTF-8''a%00b.csv`, 'a,b', 'text/csv'))).toMatchObject({
        code: 400,
        details: ["'file' has a filename that contains a character that cannot be stored (U+0000)"],
      });
      expect(await addItem(part(`name="file"; filename="${'x'.repeat(1100)}.csv"`, 'a,b', 'text/csv'))).toMatchObject({
        code: 400,
        fieldErrors: { file: 'has a filename longer than 1024 characters' },
      });
      expect((await addItem(part(`name="${'n'.repeat(300)}"`, 'x')))?.code).toBe(400);
      expect(await addItem(part('name="description"', 'a\u0000b'))).toMatchObject({
        code: 400,
        fieldErrors: { description: 'contains a character that cannot be stored (U+0000)' },
      });
      expect(await addItem(part('name="snippet"', 'x'.repeat(LIMITS.paramChars + 1)))).toMatchObject({
        code: 400,
        fieldErrors: { snippet: `is too long (at most ${LIMITS.paramChars} characters)` },
      });
      // A text field over the multipart field limit was cut short silently; now it is refused.
      expect((await addItem(part('name="text"', 'x'.repeat(LIMITS.fieldBytes + 1))))?.code).toBe(413);
      expect(await items()).toBe(0);
      // The same request with a plain filename is accepted.
      expect(await addItem(part('name="file"; filename="a.csv"', 'a,b', 'text/csv'))).toBeUndefined();
      expect(await items()).toBe(1);
    });

    it.runIf(shard === 0)('refuses JSON-valued parameters whose parsed strings or keys cannot be stored, naming the parameter', async () => {
      const res = await svc.post(`portals/${svc.orgId}/setUserDefaultSettings`, { apps: '[{"itemId":"a\\u0000b"}]' }, adminToken);
      expect(res.error).toMatchObject({ code: 400, fieldErrors: { apps: 'contains a character that cannot be stored (U+0000)' } });
      const key = await svc.post(`community/users/admin/tasks/${fill.taskId}/update`, { parameters: '{"\\ud800":1}' }, adminToken);
      expect(key.error).toMatchObject({ code: 400, fieldErrors: { parameters: 'holds a key that contains a lone surrogate that cannot be stored (U+D800)' } });
      // Deeper than LIMITS.jsonDepth: JSON.stringify in the schema would overflow the stack (it was a 500).
      const deep = await svc.post(`content/users/admin/items/${fill.itemId}/update`, { properties: DEEP_OBJECT }, adminToken);
      expect(deep.error).toMatchObject({ code: 400, fieldErrors: { properties: `must not be nested more than ${LIMITS.jsonDepth} levels deep` } });
      const nested = `${'{"a":'.repeat(LIMITS.jsonDepth)}1${'}'.repeat(LIMITS.jsonDepth)}`;
      expect((await svc.post(`content/users/admin/items/${fill.itemId}/update`, { properties: nested }, adminToken)).success).toBe(true);
      // Item text data is declared longer than the default cap; other parameters are not.
      const text = `{"x":"${'y'.repeat(LIMITS.paramChars)}"}`;
      expect((await svc.post(`content/users/admin/items/${fill.itemId}/update`, { text }, adminToken)).success).toBe(true);
      expect((await svc.post(`content/users/admin/items/${fill.itemId}/update`, { snippet: text }, adminToken)).error).toMatchObject({
        code: 400,
        fieldErrors: { snippet: `is too long (at most ${LIMITS.paramChars} characters)` },
      });
    });

    it.runIf(shard === 0)('checks the service proxy route (not a declared operation) the same way', async () => {
      for (const url of ['/sharing/rest/content/items/a%00b/proxy?f=json', '/sharing/rest/content/items/a%00b/proxy/MapServer/0?f=json']) {
        const res = await svc.app.inject({ method: 'GET', url: `${url}&token=${adminToken}` });
        expect(res.json().error).toMatchObject({ code: 400, fieldErrors: { itemId: 'contains a character that cannot be stored (U+0000)' } });
      }
      const token = await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${fill.itemId}/proxy?f=json&token=x%00` });
      expect(token.json().error).toMatchObject({ code: 400, fieldErrors: { token: 'contains a character that cannot be stored (U+0000)' } });
    });

    it.runIf(shard === 0)('reads the token from headers through the same check', async () => {
      const res = await svc.app.inject({
        method: 'GET',
        url: '/sharing/rest/community/self?f=json',
        headers: { 'x-esri-authorization': `Bearer ${adminToken}\u0000` },
      });
      expect(res.json().error).toMatchObject({ code: 400, fieldErrors: { token: 'contains a character that cannot be stored (U+0000)' } });
    });

    // Last: its destructive operations remove the fixtures the cases above use.
    it('every declared operation answers a corpus of hostile values without a 5xx, refusing without changes', async () => {
      const ops = [...svc.app.operations].sort((a, b) => Number(DESTRUCTIVE.test(a.path)) - Number(DESTRUCTIVE.test(b.path)));
      expect(ops.length).toBeGreaterThan(100);
      // The fingerprint sees a one-field change (else the "nothing changed" checks below prove nothing).
      const before = await fingerprint();
      expect((await svc.post(`content/users/admin/items/${fill.itemId}/update`, { snippet: 'fingerprint check' }, adminToken)).success).toBe(true);
      expect(changedTables(before, await fingerprint())).toContain('items');
      // The transaction ids show a committed write, and a refused one as rolled back or never begun.
      const xid = await nextXid();
      expect((await svc.post(`content/users/admin/items/${fill.itemId}/update`, { snippet: 'xid check' }, adminToken)).success).toBe(true);
      const written = await nextXid();
      expect(written).not.toBe(xid);
      expect(await allRolledBack(xid, written)).toBe(false);
      expect((await svc.post(`content/users/admin/items/${fill.itemId}/update`, { snippet: 'a\u0000b' }, adminToken)).error?.code).toBe(400);
      const refusedXid = await nextXid();
      expect(refusedXid === written || (await allRolledBack(written, refusedXid))).toBe(true);
      const started = Date.now();
      for (const op of ops.filter((_, i) => i % shards === shard)) {
        await runOperation(op, adminToken);
        await runOperation(op, null);
      }
      // The service is up and the administrator's token still works.
      const self = await svc.post('community/self', {}, adminToken);
      expect(self.username).toBe('admin');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      console.log(
        `hostile corpus, shard ${shard + 1} of ${shards}: ${ops.length} operations, ${totals.sent} requests (${totals.resent} sent again), ${totals.refused} refused, ${totals.serverErrors} 5xx, ${totals.internalErrors} internal errors, ${failures.length} failures, ${((Date.now() - started) / 1000).toFixed(1)} s (fingerprints ${(totals.fingerprintMs / 1000).toFixed(1)} s)`,
      );
      expect(failures).toEqual([]);
      expect(totals.serverErrors).toBe(0);
    }, 600_000);
  });
}
