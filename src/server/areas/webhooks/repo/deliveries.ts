/**
 * SQL of the delivery queue the webhook dispatcher works (jobs/webhooks): claiming due deliveries
 * under a lease, recording each attempt's outcome, and the embedded database's upkeep of the queue.
 */
import type { Db, Queryable } from '../../../store/db.ts';

/** Whether a delivery is due ('pending') or a lease has run out ('expired'); empty when neither. */
export async function dueOrExpiredDeliveries(q: Queryable, now: number): Promise<{ kind: string }[]> {
  return q.query<{ kind: string }>(
    `(SELECT 'pending' AS kind FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $1 LIMIT 1)
       UNION ALL (SELECT 'expired' AS kind FROM webhook_deliveries WHERE state = 'running' AND locked_until <= $1 LIMIT 1)`,
    [now],
  );
}

/** Running deliveries whose lease ran out (their process stopped mid-attempt) become pending again. */
export async function releaseExpiredDeliveries(q: Queryable, now: number): Promise<void> {
  await q.query(`UPDATE webhook_deliveries SET state = 'pending', next_at = locked_until, locked_until = 0 WHERE state = 'running' AND locked_until <= $1`, [
    now,
  ]);
}

/** A delivery as the claim marks it running: its webhook's target and the organization's settings row (null when none). */
export interface ClaimedDeliveryRow {
  id: string;
  webhook_id: string;
  org_id: string;
  event_id: string;
  event_uri: string;
  event: Record<string, unknown>;
  attempts: number;
  locked_until: number | string;
  next_at: number | string;
  created: string | number;
  name: string;
  payload_url: string;
  secret: string;
  notification_attempts: number | null;
  timeout_seconds: number | null;
  interval_seconds: number | null;
}

export interface ClaimRequest {
  now: number;
  /** This process's deliveries in flight, per webhook. */
  inFlight: ReadonlyMap<string, number>;
  perWebhook: number;
  max: number;
  /** The time limit of an organization without settings, in seconds. */
  defaultTimeoutSeconds: number;
  /** The lease is the request's time limit plus this. */
  leaseMarginMs: number;
  /** Whether running rows under a live lease (other processes' claims) count against a webhook's limit. */
  countRunning: boolean;
}

/**
 * One statement: count what is running, pick each active webhook's oldest due deliveries with FOR
 * UPDATE SKIP LOCKED (at most `max`, and `perWebhook` a webhook in flight), mark them running
 * under a lease of the organization's time limit. Rows come back in no particular order.
 */
export async function claimDueDeliveries(q: Queryable, c: ClaimRequest): Promise<ClaimedDeliveryRow[]> {
  return q.query<ClaimedDeliveryRow>(
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
     RETURNING d.id, d.webhook_id, d.org_id, d.event_id, d.event_uri, d.event, d.attempts, d.locked_until, p.next_at, p.created, p.name, p.payload_url, p.secret,
               p.notification_attempts, p.timeout_seconds, p.interval_seconds`,
    [c.now, [...c.inFlight.keys()], [...c.inFlight.values()], c.perWebhook, c.max, c.defaultTimeoutSeconds, c.leaseMarginMs, c.countRunning],
  );
}

/** One attempt, as webhook_attempts logs it. */
export interface LoggedAttempt {
  deliveryId: string;
  webhookId: string;
  attempt: number;
  at: number;
  headers: string;
  body: string;
  status: number | null;
  error: string | null;
  excerpt: string;
  duration: number;
  success: boolean;
}

/** Logs an attempt, unless that attempt (its delivery, number and time) is already logged: a write tried again logs it once. */
export async function logAttempt(q: Queryable, a: LoggedAttempt): Promise<void> {
  await q.query(
    `INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, at, request_headers, request_body, status, error, response_excerpt, duration_ms, success)
       SELECT $1::text, $2::text, $3::int, $4::bigint, $5::jsonb, $6::text, $7::int, $8::text, $9::text, $10::int, $11::boolean
        WHERE NOT EXISTS (SELECT 1 FROM webhook_attempts WHERE delivery_id = $1::text AND attempt = $3::int AND at = $4::bigint)`,
    [a.deliveryId, a.webhookId, a.attempt, a.at, a.headers, a.body, a.status, a.error, a.excerpt, a.duration, a.success],
  );
}

/** The delivery has failed for good, at `done`. */
export async function failDelivery(q: Queryable, deliveryId: string, done: number): Promise<void> {
  await q.query(`UPDATE webhook_deliveries SET state = 'failed', locked_until = 0, finished = $2 WHERE id = $1`, [deliveryId, done]);
}

/** The delivery waits for its next attempt, due `at`. */
export async function retryDeliveryAt(q: Queryable, deliveryId: string, at: number): Promise<void> {
  await q.query(`UPDATE webhook_deliveries SET state = 'pending', locked_until = 0, next_at = $2 WHERE id = $1`, [deliveryId, at]);
}

/** A successful attempt, written with others in one statement. */
export interface SuccessfulAttempt {
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
 * One statement for many successes: logs each attempt (unless already logged: its delivery,
 * number and time) and marks its delivery delivered.
 */
export async function recordSuccesses(q: Queryable, batch: readonly SuccessfulAttempt[]): Promise<void> {
  const col = <K extends keyof SuccessfulAttempt>(k: K) => batch.map((s) => s[k]);
  await q.query(
    `WITH logged AS (
             INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, at, request_headers, request_body, status, error, response_excerpt, duration_ms, success)
             SELECT id, hook, attempt, at, headers::jsonb, body, status, NULL, excerpt, duration, true
               FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[])
                 AS t(id, hook, attempt, at, headers, body, status, excerpt, duration)
              WHERE NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = t.id AND a.attempt = t.attempt AND a.at = t.at))
           UPDATE webhook_deliveries d SET state = 'delivered', locked_until = 0, finished = f.done
             FROM unnest($1::text[], $10::bigint[]) AS f(id, done)
            WHERE d.id = f.id`,
    [col('id'), col('webhookId'), col('attempt'), col('at'), col('headers'), col('body'), col('status'), col('excerpt'), col('duration'), col('done')],
  );
}

/** When the next delivery comes due (a retry, or the lease of one in flight), or null when none will. */
export async function nextDeliveryDueAt(q: Queryable): Promise<number | null> {
  const [row] = await q.query<{ at: number | null }>(
    `SELECT least((SELECT min(next_at) FROM webhook_deliveries WHERE state = 'pending'), (SELECT min(locked_until) FROM webhook_deliveries WHERE state = 'running')) AS at`,
  );
  return row?.at ?? null;
}

/** Vacuums the queue's two tables and refreshes their statistics (the embedded database has no autovacuum). */
export async function vacuumDeliveryTables(db: Db): Promise<void> {
  await db.exec('VACUUM (ANALYZE) webhook_deliveries, webhook_attempts');
}
