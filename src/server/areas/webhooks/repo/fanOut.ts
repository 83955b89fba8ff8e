/**
 * SQL of the fan-out (jobs/webhooks/fanOut.ts): outbox rows after the `fanout` cursor become
 * deliveries, and the cursor advances, in the caller's transaction.
 */
import type { Queryable } from '../../../store/db.ts';

export interface OutboxRow {
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

/** Whether the outbox holds a row past the cursor: a read only, no lock. */
export async function outboxHasNew(q: Queryable): Promise<boolean> {
  const [pending] = await q.query(`SELECT 1 FROM events WHERE seq > (SELECT last_seq FROM webhook_cursor WHERE name = 'fanout') LIMIT 1`);
  return !!pending;
}

/** The cursor, locked for the rest of the transaction (one fan-out at a time across processes). */
export async function lockFanOutCursor(q: Queryable): Promise<{ last_seq: string | number; gap_since: string | number | null }> {
  const [cursor] = await q.query<{ last_seq: string | number; gap_since: string | number | null }>(
    `SELECT last_seq, gap_since FROM webhook_cursor WHERE name = 'fanout' FOR UPDATE`,
  );
  return cursor;
}

/** Up to `limit` outbox rows after `seq`, in order. */
export async function outboxAfter(q: Queryable, seq: number, limit: number): Promise<OutboxRow[]> {
  return q.query<OutboxRow>('SELECT * FROM events WHERE seq > $1 ORDER BY seq LIMIT $2', [seq, limit]);
}

/** The active webhooks of these organizations, with what they subscribe to. */
export async function activeWebhooksOf(q: Queryable, orgIds: string[]): Promise<{ id: string; org_id: string; events: string[]; created: string | number }[]> {
  return q.query<{ id: string; org_id: string; events: string[]; created: string | number }>(
    'SELECT id, org_id, events, created FROM webhooks WHERE is_active AND org_id = ANY($1)',
    [orgIds],
  );
}

/** New deliveries as column arrays (one row per index), due `now`. */
export interface NewDeliveries {
  id: string[];
  hook: string[];
  org: string[];
  event: string[];
  uri: string[];
  body: string[];
}

/** One multi-row insert (a statement per delivery costs more than the rows); an event already delivered to a webhook is skipped. */
export async function insertDeliveries(q: Queryable, cols: NewDeliveries, now: number): Promise<void> {
  await q.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, org_id, event_id, event_uri, event, state, next_at, created)
         SELECT id, hook, org, ev, uri, body::jsonb, 'pending', $7, $7
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(id, hook, org, ev, uri, body)
         ON CONFLICT (webhook_id, event_id) DO NOTHING`,
    [cols.id, cols.hook, cols.org, cols.event, cols.uri, cols.body, now],
  );
}

/** Moves the cursor to `lastSeq`; `gapSince` is when a gap began holding it back (null: none). */
export async function moveFanOutCursor(q: Queryable, lastSeq: number, gapSince: number | null): Promise<void> {
  await q.query(`UPDATE webhook_cursor SET last_seq = $1, gap_since = $2 WHERE name = 'fanout'`, [lastSeq, gapSince]);
}
