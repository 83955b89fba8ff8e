/** SQL of organization webhooks, their settings, deliveries and attempts. */
import type { WebhookConfig } from '../../../shared/contract/webhooks.ts';
import type { EventSource } from '../../../shared/events.ts';
import type { Queryable } from '../../store/db.ts';

export interface WebhookRow {
  id: string;
  org_id: string;
  name: string;
  payload_url: string;
  secret: string;
  is_active: boolean;
  config: WebhookConfig;
  events: string[];
  owner_id: string;
  activated: number;
  created: number;
  modified: number;
  deactivated_reason?: string | null;
  deactivated_at?: number | null;
}

export interface SettingsRow {
  notification_attempts: number;
  timeout_seconds: number;
  interval_seconds: number;
}

export interface AttemptRow {
  delivery_id: string;
  event_id: string;
  event_uri: string;
  attempt: number;
  at: number;
  request_headers: Record<string, string>;
  request_body: string;
  status: number | null;
  error: string | null;
  response_excerpt: string;
  duration_ms: number;
  success: boolean;
  state: string;
  /** When the delivery's next attempt is due, for the delivery's latest attempt while a retry waits; else null. */
  next_attempt_at: number | null;
}

export async function findWebhook(q: Queryable, orgId: string, id: string): Promise<WebhookRow | undefined> {
  const [row] = await q.query<WebhookRow>('SELECT * FROM webhooks WHERE org_id = $1 AND id = $2', [orgId, id]);
  return row ? normalise(row) : undefined;
}

export async function lockWebhook(q: Queryable, orgId: string, id: string): Promise<WebhookRow | undefined> {
  const [row] = await q.query<WebhookRow>('SELECT * FROM webhooks WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id]);
  return row ? normalise(row) : undefined;
}

export async function listWebhooks(q: Queryable, orgId: string, offset: number, limit: number): Promise<{ total: number; rows: WebhookRow[] }> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE org_id = $1', [orgId]);
  const rows =
    limit > 0 ? await q.query<WebhookRow>('SELECT * FROM webhooks WHERE org_id = $1 ORDER BY created, id OFFSET $2 LIMIT $3', [orgId, offset, limit]) : [];
  return { total: n, rows: rows.map(normalise) };
}

export async function insertWebhook(q: Queryable, row: WebhookRow): Promise<void> {
  await q.query(
    `INSERT INTO webhooks (id, org_id, name, payload_url, secret, is_active, config, events, owner_id, activated, created, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      row.id,
      row.org_id,
      row.name,
      row.payload_url,
      row.secret,
      row.is_active,
      JSON.stringify(row.config),
      row.events,
      row.owner_id,
      row.activated,
      row.created,
      row.modified,
    ],
  );
}

export async function updateWebhookRow(
  q: Queryable,
  id: string,
  f: Pick<WebhookRow, 'name' | 'payload_url' | 'secret' | 'config' | 'events' | 'modified'>,
): Promise<void> {
  await q.query('UPDATE webhooks SET name = $2, payload_url = $3, secret = $4, config = $5, events = $6, modified = $7 WHERE id = $1', [
    id,
    f.name,
    f.payload_url,
    f.secret,
    JSON.stringify(f.config),
    f.events,
    f.modified,
  ]);
}

/** Activation clears the reason of the last deactivation; a deactivation records `reason`. */
export async function setActive(q: Queryable, id: string, active: boolean, now: number, reason = ''): Promise<void> {
  if (active)
    await q.query(
      'UPDATE webhooks SET is_active = true, activated = $2, modified = $2, deactivated_reason = NULL, deactivated_at = NULL WHERE id = $1 AND NOT is_active',
      [id, now],
    );
  else
    await q.query('UPDATE webhooks SET is_active = false, modified = $2, deactivated_reason = $3, deactivated_at = $2 WHERE id = $1 AND is_active', [
      id,
      now,
      reason,
    ]);
}

export interface DeliveryStats {
  webhook_id: string;
  last_at: number | null;
  last_success: boolean | null;
  last_status: number | null;
  failed: number;
}

/**
 * Per webhook: the latest attempt and the failed deliveries the deactivation policy counts (finished
 * at or after `windowStart` and after `activated`), for the console's list.
 */
export async function deliveryStats(q: Queryable, ids: string[], windowStart: number, activated: number): Promise<Map<string, DeliveryStats>> {
  if (!ids.length) return new Map();
  const last = await q.query<{ webhook_id: string; at: string | number; success: boolean; status: number | null }>(
    `SELECT DISTINCT ON (webhook_id) webhook_id, at, success, status FROM webhook_attempts WHERE webhook_id = ANY($1) ORDER BY webhook_id, seq DESC`,
    [ids],
  );
  const failed = await q.query<{ webhook_id: string; n: number }>(
    `SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ANY($1) AND state = 'failed' AND finished >= $2 AND finished > $3 GROUP BY webhook_id`,
    [ids, windowStart, activated],
  );
  const out = new Map<string, DeliveryStats>(ids.map((id) => [id, { webhook_id: id, last_at: null, last_success: null, last_status: null, failed: 0 }]));
  for (const r of last) Object.assign(out.get(r.webhook_id)!, { last_at: Number(r.at), last_success: r.success, last_status: r.status });
  for (const r of failed) out.get(r.webhook_id)!.failed = r.n;
  return out;
}

export async function deleteWebhookRow(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM webhooks WHERE id = $1', [id]);
}

export async function readSettings(q: Queryable, orgId: string): Promise<SettingsRow | undefined> {
  const [row] = await q.query<SettingsRow>('SELECT notification_attempts, timeout_seconds, interval_seconds FROM webhook_settings WHERE org_id = $1', [orgId]);
  return row;
}

export async function writeSettings(q: Queryable, orgId: string, s: SettingsRow): Promise<void> {
  await q.query(
    `INSERT INTO webhook_settings (org_id, notification_attempts, timeout_seconds, interval_seconds) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id) DO UPDATE SET notification_attempts = $2, timeout_seconds = $3, interval_seconds = $4`,
    [orgId, s.notification_attempts, s.timeout_seconds, s.interval_seconds],
  );
}

export async function listAttempts(q: Queryable, webhookId: string, offset: number, limit: number): Promise<{ total: number; rows: AttemptRow[] }> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_attempts WHERE webhook_id = $1', [webhookId]);
  const rows =
    limit > 0
      ? await q.query<AttemptRow>(
          `SELECT a.delivery_id, d.event_id, d.event_uri, a.attempt, a.at, a.request_headers, a.request_body, a.status, a.error,
                  a.response_excerpt, a.duration_ms, a.success, d.state,
                  CASE WHEN d.state = 'pending' AND a.attempt = d.attempts THEN d.next_at END AS next_attempt_at
             FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
            WHERE a.webhook_id = $1 ORDER BY a.seq DESC OFFSET $2 LIMIT $3`,
          [webhookId, offset, limit],
        )
      : [];
  return { total: n, rows: rows.map((r) => ({ ...r, at: Number(r.at), next_attempt_at: r.next_attempt_at == null ? null : Number(r.next_attempt_at) })) };
}

/** Bigint columns come back as strings from node-postgres. */
function normalise(row: WebhookRow): WebhookRow {
  return {
    ...row,
    activated: Number(row.activated),
    created: Number(row.created),
    modified: Number(row.modified),
    deactivated_at: row.deactivated_at == null ? null : Number(row.deactivated_at),
  };
}

/**
 * Whether the subject an event URI names exists in the organization: an item or group by id, a
 * user by username (case aside).
 */
export async function eventSubjectExists(q: Queryable, orgId: string, source: EventSource, subject: string): Promise<boolean> {
  const sql =
    source === 'item'
      ? 'SELECT 1 FROM items WHERE org_id = $1 AND id = $2'
      : source === 'group'
        ? 'SELECT 1 FROM groups WHERE org_id = $1 AND id = $2'
        : 'SELECT 1 FROM users WHERE org_id = $1 AND lower(username) = lower($2)';
  const found = await q.query(sql, [orgId, subject]);
  return found.length > 0;
}

/** A synthetic test event's delivery to the webhook, due `now`. */
export async function insertTestDelivery(
  q: Queryable,
  d: { id: string; webhookId: string; orgId: string; eventId: string; eventUri: string; event: Record<string, unknown>; now: number },
): Promise<void> {
  await q.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, org_id, event_id, event_uri, event, state, next_at, created) VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7)`,
    [d.id, d.webhookId, d.orgId, d.eventId, d.eventUri, JSON.stringify(d.event), d.now],
  );
}

/** One of the webhook's deliveries, locked (a redelivery changes it); its state only. */
export async function lockDeliveryState(q: Queryable, webhookId: string, deliveryId: string): Promise<{ state: string } | undefined> {
  const [d] = await q.query<{ state: string }>('SELECT state FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2 FOR UPDATE', [deliveryId, webhookId]);
  return d;
}

/** The delivery is due `now` again with a fresh round of attempts, keeping its id. */
export async function requeueDelivery(q: Queryable, deliveryId: string, now: number): Promise<void> {
  await q.query(`UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_at = $2, locked_until = 0, finished = NULL WHERE id = $1`, [
    deliveryId,
    now,
  ]);
}

/** What the deactivation policy reads of a webhook, locked (the policy may deactivate it). */
export async function lockPolicyState(
  q: Queryable,
  webhookId: string,
): Promise<{ config: WebhookConfig; activated: string | number; is_active: boolean } | undefined> {
  const [hook] = await q.query<{ config: WebhookConfig; activated: string | number; is_active: boolean }>(
    'SELECT config, activated, is_active FROM webhooks WHERE id = $1 FOR UPDATE',
    [webhookId],
  );
  return hook;
}

/** The webhook's failed deliveries finished at or after `windowStart` and after `activated`. */
export async function countFailedDeliveries(q: Queryable, webhookId: string, windowStart: number, activated: number): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'failed' AND finished >= $2 AND finished > $3`,
    [webhookId, windowStart, activated],
  );
  return n;
}
