/**
 * Organization webhook delivery. Events come only from the outbox (`events`, written in the same
 * transaction as the change they report):
 *
 * 1. Fan-out reads outbox rows after the cursor (`webhook_cursor`, locked FOR UPDATE), inserts one
 *    `webhook_deliveries` row for each active webhook of the event's organization whose events
 *    match, and advances the cursor in the same transaction — an event is fanned out once even
 *    with several processes. A gap in `seq` (a transaction still open, or rolled back) holds the
 *    cursor back until it fills or for GAP_GRACE_MS (PGlite: one writer, so a gap is a rollback).
 * 2. Due deliveries are claimed with FOR UPDATE SKIP LOCKED under a lease; a crash or restart
 *    mid-delivery leaves a lease that runs out, and the delivery is sent again with the same id
 *    (at least once; receivers dedupe on `webhook-id`).
 * 3. Each attempt POSTs `{info, events:[event]}` through the outbound guard (no redirects: a 3xx
 *    is a failure; only 2xx succeeds; the organization's timeout), signed with
 *    `x-esriHook-Signature: sha256=<base64 HMAC-SHA256(secret, body)>` when a secret is set, and
 *    Standard Webhooks headers `webhook-id` (the delivery id), `webhook-timestamp` (unix seconds of
 *    the attempt) and `webhook-signature: v1,<base64 HMAC-SHA256(secret, "<id>.<ts>.<body>")>`.
 *    Every attempt is logged in `webhook_attempts` (what notificationStatus lists).
 * 4. A failed attempt is retried `notificationAttempts` times, waiting
 *    `notificationElapsedTimeInSeconds` × 2^(retry-1). A 429 or 503 with `Retry-After` waits at
 *    least what the receiver asked, up to the settings' longest interval (100 s). After the last,
 *    the delivery has failed; once `numberOfFailures` failed deliveries fall within `daysInPast`
 *    days (and since the webhook was last activated) the webhook is deactivated (default policy 5
 *    in 5 days). A 410 Gone means the receiver is gone for good: no retry, and the webhook is
 *    deactivated at once (Standard Webhooks). The reason is kept for the console.
 *
 * At most PER_WEBHOOK deliveries of one webhook are in flight and MAX_IN_FLIGHT overall, so a
 * slow receiver does not hold up other webhooks.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { PortalContext } from '../context.ts';
import { outboundRequest, OutboundRefused } from '../http/outbound.ts';
import { EVENT_CATALOGUE, subscriptionMatches } from '../../shared/events.ts';
import type { Queryable } from '../store/db.ts';
import { WEBHOOK_SETTINGS_LIMITS, type WebhookConfig, type WebhookSettings } from '../../shared/contract/webhooks.ts';

export const WEBHOOK_LIMITS = {
  pollMs: 200,
  /** Outbox rows read per fan-out transaction. */
  fanOutBatch: 500,
  /** How long a seq gap may hold the cursor back on PostgreSQL (a transaction still committing). */
  gapGraceMs: 10_000,
  perWebhook: 8,
  maxInFlight: 32,
  /** The lease is the request's time limit plus this. */
  leaseMarginMs: 30_000,
  responseExcerptBytes: 2048,
  /** Attempts after which the drained queue's tables are vacuumed (embedded database only). */
  vacuumAfterAttempts: 5_000,
  defaultPolicy: { numberOfFailures: 5, daysInPast: 5 },
};

const DAY_MS = 86_400_000;
/** The longest Retry-After honoured: the settings' longest interval between attempts. */
const MAX_RETRY_AFTER_MS = WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.max * 1000;

/* In-process nudge: work was queued by this process (test event, redelivery, activation). */
const listeners = new Set<() => void>();
export function webhookWork(): void {
  for (const l of listeners) l();
}

interface OutboxRow {
  seq: string | number;
  id: string;
  org_id: string;
  uri: string;
  source: string;
  operation: string;
  subject_id: string;
  user_id: string | null;
  username: string | null;
  properties: Record<string, unknown>;
  created: string | number;
}

/** One fan-out transaction; answers how many outbox rows it consumed. */
export async function fanOut(ctx: PortalContext): Promise<number> {
  const wallNow = Date.now();
  // An idle pass only reads: no transaction (and no write) unless the outbox has something new.
  const [pending] = await ctx.db.query(`SELECT 1 FROM events WHERE seq > (SELECT last_seq FROM webhook_cursor WHERE name = 'fanout') LIMIT 1`);
  if (!pending) return 0;
  return ctx.db.tx(async (q) => {
    const [cursor] = await q.query<{ last_seq: string | number; gap_since: string | number | null }>(`SELECT last_seq, gap_since FROM webhook_cursor WHERE name = 'fanout' FOR UPDATE`);
    let last = Number(cursor.last_seq);
    const rows = await q.query<OutboxRow>('SELECT * FROM events WHERE seq > $1 ORDER BY seq LIMIT $2', [last, WEBHOOK_LIMITS.fanOutBatch]);
    if (!rows.length) return 0;
    const taken: OutboxRow[] = [];
    let gapSince: number | null = null;
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== last + 1) {
        const since = cursor.gap_since === null ? wallNow : Number(cursor.gap_since);
        if (ctx.db.kind !== 'pglite' && wallNow - since < WEBHOOK_LIMITS.gapGraceMs) {
          gapSince = since;
          break;
        }
      }
      taken.push(row);
      last = seq;
    }
    const orgs = [...new Set(taken.map((r) => r.org_id))];
    const hooks = orgs.length
      ? await q.query<{ id: string; org_id: string; events: string[]; created: string | number }>('SELECT id, org_id, events, created FROM webhooks WHERE is_active AND org_id = ANY($1)', [orgs])
      : [];
    const now = ctx.clock.now();
    // Column arrays for one multi-row insert (a statement per delivery costs more than the rows).
    const cols = { id: [] as string[], hook: [] as string[], org: [] as string[], event: [] as string[], uri: [] as string[], body: [] as string[] };
    for (const e of taken) {
      // History-only events (webhooks, tasks, collaborations, settings, sign-ins) share the outbox but
      // are not webhook events: only the catalogue's sources are delivered, even to a `/` subscription.
      if (!Object.hasOwn(EVENT_CATALOGUE, e.source)) continue;
      for (const h of hooks) {
        if (h.org_id !== e.org_id || Number(e.created) < Number(h.created) || !subscriptionMatches(h.events, e.uri)) continue;
        const event = { userId: e.user_id, username: e.username, when: Number(e.created), operation: e.operation, source: e.source, id: e.subject_id, properties: e.properties };
        cols.id.push(randomUUID());
        cols.hook.push(h.id);
        cols.org.push(e.org_id);
        cols.event.push(e.id);
        cols.uri.push(e.uri);
        cols.body.push(JSON.stringify(event));
      }
    }
    if (cols.id.length) {
      await q.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, org_id, event_id, event_uri, event, state, next_at, created)
         SELECT id, hook, org, ev, uri, body::jsonb, 'pending', $7, $7
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(id, hook, org, ev, uri, body)
         ON CONFLICT (webhook_id, event_id) DO NOTHING`,
        [cols.id, cols.hook, cols.org, cols.event, cols.uri, cols.body, now],
      );
    }
    await q.query(`UPDATE webhook_cursor SET last_seq = $1, gap_since = $2 WHERE name = 'fanout'`, [last, gapSince]);
    return taken.length;
  });
}

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  org_id: string;
  event_id: string;
  event_uri: string;
  event: Record<string, unknown>;
  attempts: number;
  name: string;
  payload_url: string;
  secret: string;
  /** The organization's delivery settings as they were at the claim. */
  settings: WebhookSettings;
}

/**
 * Claims due deliveries up to `max`, at most PER_WEBHOOK per webhook in flight (this process's own
 * `inFlight`, and on PostgreSQL also the running rows under a live lease, which other processes
 * claimed). A running delivery whose lease ran out (its process stopped mid-attempt) becomes pending again first. Candidates are
 * taken per active webhook (its oldest due deliveries, through a per-webhook index), so one
 * webhook's backlog never hides another webhook's deliveries.
 *
 * The claim is one statement — count what is running, pick with FOR UPDATE SKIP LOCKED, mark
 * running under a lease of the organization's time limit — because on the embedded database every
 * statement and every BEGIN/COMMIT is a round trip through the one thread that also sends.
 * `checkDue: false` skips the read-only check for due or expired work (the caller's last claim
 * came back full, so there is more): the check is what keeps an idle pass from writing.
 */
export async function claimDeliveries(
  ctx: PortalContext,
  max: number,
  inFlight: ReadonlyMap<string, number> = new Map(),
  opts: { checkDue?: boolean } = {},
): Promise<ClaimedDelivery[]> {
  if (max <= 0) return [];
  const now = ctx.clock.now();
  if (opts.checkDue !== false) {
    const due = await ctx.db.query<{ kind: string }>(
      `(SELECT 'pending' AS kind FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $1 LIMIT 1)
       UNION ALL (SELECT 'expired' AS kind FROM webhook_deliveries WHERE state = 'running' AND locked_until <= $1 LIMIT 1)`,
      [now],
    );
    if (!due.length) return [];
    if (due.some((d) => d.kind === 'expired')) {
      await ctx.db.query(`UPDATE webhook_deliveries SET state = 'pending', next_at = locked_until, locked_until = 0 WHERE state = 'running' AND locked_until <= $1`, [now]);
    }
  }
  // Other processes' deliveries in flight are the running rows under a live lease. The embedded
  // database belongs to this one process, whose deliveries in flight are `inFlight`; counting the
  // rows there would also step over every dead row version a burst left behind (no autovacuum).
  const countRunning = ctx.db.kind !== 'pglite';
  type Claimed = Omit<ClaimedDelivery, 'settings'> & { next_at: number | string; created: string | number; notification_attempts: number | null; timeout_seconds: number | null; interval_seconds: number | null };
  const rows = await ctx.db.query<Claimed>(
    `WITH busy AS (
       SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries WHERE $8::boolean AND state = 'running' AND locked_until > $1 GROUP BY webhook_id
     ), here AS (
       SELECT * FROM unnest($2::text[], $3::int[]) AS h(webhook_id, n)
     ), room AS (
       SELECT w.id, w.org_id, w.name, w.payload_url, w.secret, $4::int - greatest(coalesce(b.n, 0), coalesce(h.n, 0)) AS free
         FROM webhooks w LEFT JOIN busy b ON b.webhook_id = w.id LEFT JOIN here h ON h.webhook_id = w.id
        WHERE w.is_active
     ), picked AS (
       SELECT d.id, d.next_at, d.created, r.name, r.payload_url, r.secret,
              s.notification_attempts, s.timeout_seconds, s.interval_seconds
         FROM room r
        CROSS JOIN LATERAL (
          SELECT x.id, x.next_at, x.created FROM webhook_deliveries x
           WHERE x.webhook_id = r.id AND x.state = 'pending' AND x.next_at <= $1
           ORDER BY x.next_at, x.created
           LIMIT greatest(r.free, 0)
           FOR UPDATE SKIP LOCKED) d
         LEFT JOIN webhook_settings s ON s.org_id = r.org_id
        WHERE r.free > 0
        ORDER BY d.next_at, d.created
        LIMIT $5
     )
     UPDATE webhook_deliveries d
        SET state = 'running', attempts = d.attempts + 1,
            locked_until = $1 + coalesce(p.timeout_seconds, $6) * 1000 + $7
       FROM picked p
      WHERE d.id = p.id
     RETURNING d.id, d.webhook_id, d.org_id, d.event_id, d.event_uri, d.event, d.attempts, p.next_at, p.created, p.name, p.payload_url, p.secret,
               p.notification_attempts, p.timeout_seconds, p.interval_seconds`,
    [now, [...inFlight.keys()], [...inFlight.values()], WEBHOOK_LIMITS.perWebhook, max, WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.default, WEBHOOK_LIMITS.leaseMarginMs, countRunning],
  );
  rows.sort((a, b) => Number(a.next_at) - Number(b.next_at) || Number(a.created) - Number(b.created));
  return rows.map(({ notification_attempts, timeout_seconds, interval_seconds, next_at: _n, created: _c, ...rest }) => ({
    ...rest,
    settings: {
      notificationAttempts: notification_attempts ?? WEBHOOK_SETTINGS_LIMITS.notificationAttempts.default,
      notificationTimeOutInSeconds: timeout_seconds ?? WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.default,
      notificationElapsedTimeInSeconds: interval_seconds ?? WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.default,
    },
  }));
}

const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64');

/** The signed request of one attempt. */
export function buildRequest(d: Pick<ClaimedDelivery, 'id' | 'webhook_id' | 'name' | 'secret' | 'event'>, portalURL: string, now: number) {
  const body = JSON.stringify({ info: { webhookId: d.webhook_id, webhookName: d.name, portalURL, when: now }, events: [d.event] });
  const timestamp = String(Math.floor(now / 1000));
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'webhook-id': d.id,
    'webhook-timestamp': timestamp,
  };
  if (d.secret) {
    headers['x-esriHook-Signature'] = `sha256=${hmac(d.secret, body)}`;
    headers['webhook-signature'] = `v1,${hmac(d.secret, `${d.id}.${timestamp}.${body}`)}`;
  }
  return { body, headers };
}

interface AttemptResult {
  status: number | null;
  error: string | null;
  excerpt: string;
  success: boolean;
  /** What a 429 or 503 asked for in Retry-After, in ms. */
  retryAfterMs?: number;
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function send(ctx: PortalContext, url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<AttemptResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await outboundRequest(url, ctx.config, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, body, timeoutMs, signal, keepAlive: true });
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (size < WEBHOOK_LIMITS.responseExcerptBytes) chunks.push(chunk);
        size += chunk.length;
        if (size >= WEBHOOK_LIMITS.responseExcerptBytes) break;
      }
    } catch {
      /* the status decides; a body cut short is kept as far as it came */
    } finally {
      res.body.destroy();
    }
    const excerpt = Buffer.concat(chunks).subarray(0, WEBHOOK_LIMITS.responseExcerptBytes).toString('utf8');
    const success = res.status >= 200 && res.status < 300;
    const error = success ? null : res.status >= 300 && res.status < 400 ? `The receiver answered a redirect (HTTP ${res.status}); redirects are not followed.` : `The receiver answered HTTP ${res.status}.`;
    const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers['retry-after'], Date.now()) : undefined;
    return { status: res.status, error, excerpt, success, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  } catch (err) {
    const message = err instanceof OutboundRefused ? err.message : signal.aborted ? `No answer within ${timeoutMs} ms.` : `The request failed: ${(err as Error).message}`;
    return { status: null, error: message, excerpt: '', success: false };
  }
}

/** One attempt of a claimed delivery, and its outcome recorded. */
export async function attemptDelivery(ctx: PortalContext, d: ClaimedDelivery): Promise<boolean> {
  const { settings } = d;
  const now = ctx.clock.now();
  const portalURL = `http://${ctx.config.host}:${ctx.config.port}/`;
  const { body, headers } = buildRequest(d, portalURL, now);
  const started = performance.now();
  const result = await send(ctx, d.payload_url, headers, body, settings.notificationTimeOutInSeconds * 1000);
  const duration = Math.round(performance.now() - started);
  const done = ctx.clock.now();
  const attempt = [d.id, d.webhook_id, d.attempts, now, JSON.stringify(headers), body, result.status, result.error, result.excerpt, duration, result.success];
  const logAttempt = `INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, at, request_headers, request_body, status, error, response_excerpt, duration_ms, success)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;
  if (result.success) {
    await successWriter(ctx).write({ id: d.id, webhookId: d.webhook_id, attempt: d.attempts, at: now, headers: JSON.stringify(headers), body, status: result.status!, excerpt: result.excerpt, duration, done });
    return true;
  }
  await ctx.db.tx(async (q) => {
    await q.query(logAttempt, attempt);
    if (result.status === 410) {
      await q.query(`UPDATE webhook_deliveries SET state = 'failed', locked_until = 0, finished = $2 WHERE id = $1`, [d.id, done]);
      await deactivate(q, d.webhook_id, done, 'The receiver answered 410 Gone: the payload URL no longer accepts deliveries.');
    } else if (d.attempts <= settings.notificationAttempts) {
      const backoff = settings.notificationElapsedTimeInSeconds * 1000 * 2 ** (d.attempts - 1);
      const asked = Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS);
      const wait = Math.max(backoff, asked);
      await q.query(`UPDATE webhook_deliveries SET state = 'pending', locked_until = 0, next_at = $2 WHERE id = $1`, [d.id, done + wait]);
    } else {
      await q.query(`UPDATE webhook_deliveries SET state = 'failed', locked_until = 0, finished = $2 WHERE id = $1`, [d.id, done]);
      await applyDeactivationPolicy(q, d.webhook_id, done);
    }
  });
  return false;
}

interface Success {
  id: string;
  webhookId: string;
  attempt: number;
  at: number;
  headers: string;
  body: string;
  status: number;
  excerpt: string;
  duration: number;
  done: number;
}

/**
 * Successful attempts are written together: every success that ends while the previous write is
 * running goes into the next one, a single statement that logs the attempts and marks their
 * deliveries delivered (the embedded database runs one statement at a time, so one statement for
 * many rows is what keeps up with the receivers). A crash before the write leaves the deliveries
 * running; they are sent again with the same id when their lease runs out (at least once).
 */
class SuccessWriter {
  private queue: { s: Success; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private writing = false;
  constructor(private readonly ctx: PortalContext) {}

  write(s: Success): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ s, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    // The database holds the thread while it works, so nothing queues up during a write: wait a
    // moment for the answers already on their way before writing.
    await new Promise((r) => setTimeout(r, WRITE_GATHER_MS));
    while (this.queue.length) {
      const batch = this.queue.splice(0, 500);
      const col = <K extends keyof Success>(k: K) => batch.map((b) => b.s[k]);
      try {
        await this.ctx.db.query(
          `WITH logged AS (
             INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, at, request_headers, request_body, status, error, response_excerpt, duration_ms, success)
             SELECT id, hook, attempt, at, headers::jsonb, body, status, NULL, excerpt, duration, true
               FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[])
                 AS t(id, hook, attempt, at, headers, body, status, excerpt, duration))
           UPDATE webhook_deliveries d SET state = 'delivered', locked_until = 0, finished = f.done
             FROM unnest($1::text[], $10::bigint[]) AS f(id, done)
            WHERE d.id = f.id`,
          [col('id'), col('webhookId'), col('attempt'), col('at'), col('headers'), col('body'), col('status'), col('excerpt'), col('duration'), col('done')],
        );
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.writing = false;
  }
}

/** How long successes gather before they are written: a few ms on each delivery's time, for many rows per statement. */
const WRITE_GATHER_MS = 3;
const writers = new WeakMap<PortalContext, SuccessWriter>();
function successWriter(ctx: PortalContext): SuccessWriter {
  let w = writers.get(ctx);
  if (!w) writers.set(ctx, (w = new SuccessWriter(ctx)));
  return w;
}

/** Deactivates the webhook once its policy's number of failed deliveries fall within its window. */
async function applyDeactivationPolicy(q: Queryable, webhookId: string, now: number): Promise<void> {
  const [hook] = await q.query<{ config: WebhookConfig; activated: string | number; is_active: boolean }>('SELECT config, activated, is_active FROM webhooks WHERE id = $1 FOR UPDATE', [webhookId]);
  if (!hook?.is_active) return;
  const policy = hook.config.deactivationPolicy ?? WEBHOOK_LIMITS.defaultPolicy;
  const [{ n }] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'failed' AND finished >= $2 AND finished > $3`,
    [webhookId, now - policy.daysInPast * DAY_MS, Number(hook.activated)],
  );
  if (n >= policy.numberOfFailures) {
    await deactivate(q, webhookId, now, `Deactivated by its policy: ${n} failed deliveries within ${policy.daysInPast} day${policy.daysInPast === 1 ? '' : 's'} (limit ${policy.numberOfFailures}).`);
  }
}

async function deactivate(q: Queryable, webhookId: string, now: number, reason: string): Promise<void> {
  await q.query('UPDATE webhooks SET is_active = false, modified = $2, deactivated_at = $2, deactivated_reason = $3 WHERE id = $1 AND is_active', [webhookId, now, reason]);
}

/**
 * One pass (tests call this): fan out every new outbox row, then send every due delivery —
 * several at once — until none is due. Answers how many attempts were made.
 */
export async function runWebhookDispatch(ctx: PortalContext): Promise<number> {
  while ((await fanOut(ctx)) > 0);
  let attempts = 0;
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<unknown>>();
  for (;;) {
    if (worthClaiming(inFlight)) {
      const batch = await claimDeliveries(ctx, freeSlots(inFlight), inFlight);
      attempts += batch.length;
      for (const d of batch) launch(ctx, d, inFlight, running, () => {});
    }
    if (!running.size) return attempts;
    await Promise.race(running);
  }
}

const freeSlots = (inFlight: ReadonlyMap<string, number>) => WEBHOOK_LIMITS.maxInFlight - [...inFlight.values()].reduce((a, b) => a + b, 0);

/**
 * A claim costs the same for one delivery as for eight: claim when nothing is in flight or at
 * least half the slots are free, not after every single attempt. A webhook held at its own limit
 * (a slow receiver) does not count against the others.
 */
function worthClaiming(inFlight: ReadonlyMap<string, number>): boolean {
  const free = freeSlots(inFlight);
  if (free <= 0) return false;
  let others = 0;
  for (const n of inFlight.values()) if (n < WEBHOOK_LIMITS.perWebhook) others += n;
  return others === 0 || free >= WEBHOOK_LIMITS.maxInFlight / 2;
}

/** Starts one attempt, counted in `inFlight` per webhook until it ends. */
function launch(ctx: PortalContext, d: ClaimedDelivery, inFlight: Map<string, number>, running: Set<Promise<unknown>>, ended: () => void): void {
  inFlight.set(d.webhook_id, (inFlight.get(d.webhook_id) ?? 0) + 1);
  const p: Promise<unknown> = attemptDelivery(ctx, d)
    .catch((err) => ctx.log.error({ err }, 'webhook delivery failed'))
    .finally(() => {
      const n = (inFlight.get(d.webhook_id) ?? 1) - 1;
      if (n > 0) inFlight.set(d.webhook_id, n);
      else inFlight.delete(d.webhook_id);
      running.delete(p);
      ended();
    });
  running.add(p);
}

/**
 * The embedded database has no autovacuum. Every delivery leaves two dead row versions (pending,
 * running) and index entries that claims must step over, so a burst would slow every later
 * claim; once the queue has drained after many attempts, the two tables are vacuumed (and their
 * statistics refreshed for the planner). PostgreSQL's autovacuum does this by itself.
 */
async function vacuumDeliveries(ctx: PortalContext): Promise<void> {
  const started = performance.now();
  await ctx.db.exec('VACUUM (ANALYZE) webhook_deliveries, webhook_attempts');
  ctx.log.info({ ms: Math.round(performance.now() - started) }, 'webhook deliveries vacuumed');
}

export interface WebhookDispatcher {
  stop(): Promise<void>;
}

/** The background loop main.ts starts: polls every pollMs, and at once when this process queues work. */
export function startWebhookDispatcher(ctx: PortalContext, pollMs = WEBHOOK_LIMITS.pollMs): WebhookDispatcher {
  let stopped = false;
  let busy = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<unknown> = Promise.resolve();
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<unknown>>();
  // A delivery ending wakes the loop to claim more, not to read the outbox again: the outbox is
  // read when this process wrote an event (a nudge) or a poll interval has passed (events written
  // by other processes). Likewise the due check is skipped while claims come back full.
  let outboxWanted = true;
  let outboxReadAt = 0;
  let lastClaimFull = false;
  let dueCheckedAt = 0;
  let attemptsSinceVacuum = 0;
  const ended = () => {
    attemptsSinceVacuum++;
    tick();
  };
  const pass = async () => {
    if (outboxWanted || performance.now() - outboxReadAt >= pollMs) {
      outboxWanted = false;
      outboxReadAt = performance.now();
      while (!stopped && (await fanOut(ctx)) > 0);
    }
    if (stopped) return;
    if (!worthClaiming(inFlight)) return;
    const want = freeSlots(inFlight);
    const checkDue = !lastClaimFull || performance.now() - dueCheckedAt >= pollMs;
    if (checkDue) dueCheckedAt = performance.now();
    const batch = await claimDeliveries(ctx, want, inFlight, { checkDue });
    lastClaimFull = batch.length >= want;
    for (const d of batch) launch(ctx, d, inFlight, running, ended);
    if (!batch.length && !inFlight.size && attemptsSinceVacuum >= WEBHOOK_LIMITS.vacuumAfterAttempts && ctx.db.kind === 'pglite') {
      attemptsSinceVacuum = 0;
      await vacuumDeliveries(ctx);
    }
  };
  const nudge = () => {
    outboxWanted = true;
    tick();
  };
  const tick = () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    clearTimeout(timer);
    busy = true;
    ticking = pass()
      .catch((err) => ctx.log.error({ err }, 'webhook dispatch failed'))
      .finally(() => {
        busy = false;
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(tick);
        } else timer = setTimeout(nudge, pollMs);
      });
  };
  listeners.add(nudge);
  timer = setTimeout(nudge, 0);
  return {
    async stop() {
      stopped = true;
      listeners.delete(nudge);
      clearTimeout(timer);
      await ticking;
      await Promise.all([...running]);
    },
  };
}
