/**
 * SQL of the retention sweeps over what webhooks leave behind (jobs/retention.ts runs them): finished
 * deliveries past their age or beyond a webhook's cap, and outbox events every webhook has had. Each
 * delete takes at most `batch` rows, locked with SKIP LOCKED so several processes can sweep at once,
 * and answers a row per row removed (RETURNING 1).
 */
import type { Queryable } from '../../../store/db.ts';

const FINISHED = `state IN ('delivered', 'failed')`;

/** Every webhook's id, the targets of the per-webhook sweeps. */
export async function allWebhookIds(q: Queryable): Promise<string[]> {
  return (await q.query<{ id: string }>('SELECT id FROM webhooks ORDER BY id')).map((r) => r.id);
}

/** Removes up to `batch` of a webhook's finished deliveries that finished before `before` (attempts cascade). */
export async function deleteDeliveriesFinishedBefore(q: Queryable, webhookId: string, before: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND ${FINISHED} AND finished < $2
        ORDER BY finished LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [webhookId, before, batch],
  );
}

/** Removes up to `batch` of a webhook's finished deliveries beyond its newest `keep`. */
export async function deleteDeliveriesBeyond(q: Queryable, webhookId: string, keep: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND ${FINISHED}
        ORDER BY finished DESC, id DESC OFFSET $2 LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [webhookId, keep, batch],
  );
}

/**
 * Removes, of the oldest `batch` outbox events already fanned out and below `holdSeq`, those created
 * before `before`.
 */
export async function deleteFannedOutEvents(q: Queryable, before: number, batch: number, holdSeq: number): Promise<unknown[]> {
  return q.query(
    `WITH head AS (
       SELECT seq, created FROM events
        WHERE seq <= (SELECT last_seq FROM webhook_cursor WHERE name = 'fanout') AND seq < $3
        ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
     DELETE FROM events WHERE seq IN (SELECT seq FROM head WHERE created < $1)
     RETURNING 1`,
    [before, batch, holdSeq],
  );
}

/** The lowest seq an active webhook has still to receive (or beyond every seq). */
export async function undeliveredFrom(q: Queryable): Promise<number> {
  const [row] = await q.query<{ seq: number | null }>(
    `SELECT min(e.seq) AS seq FROM webhook_deliveries d
       JOIN webhooks w ON w.id = d.webhook_id AND w.is_active
       JOIN events e ON e.id = d.event_id
      WHERE d.state IN ('pending', 'running')`,
  );
  return row?.seq === null || row?.seq === undefined ? Number.MAX_SAFE_INTEGER : Number(row.seq);
}
