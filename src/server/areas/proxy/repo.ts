/** SQL for the service proxy's rate-limit counters. */
import type { Queryable } from '../../store/db.ts';

/** Adds one hit to `itemId`'s counter for the window starting at `windowStart`; answers the new count. */
export async function incrementProxyHits(q: Queryable, itemId: string, windowStart: number): Promise<number> {
  const [row] = await q.query<{ hits: number }>(
    `INSERT INTO proxy_hits (item_id, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (item_id, window_start) DO UPDATE SET hits = proxy_hits.hits + 1
     RETURNING hits`,
    [itemId, windowStart],
  );
  return row.hits;
}

/** Drops `itemId`'s counters of windows before `windowStart`. */
export async function deleteEarlierProxyHits(q: Queryable, itemId: string, windowStart: number): Promise<void> {
  await q.query('DELETE FROM proxy_hits WHERE item_id = $1 AND window_start < $2', [itemId, windowStart]);
}

/** The retention sweep: at most `batch` windows whose interval ended by `now` (or whose item has no proxy), a row each. */
export async function deleteEndedProxyHitWindows(q: Queryable, now: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM proxy_hits WHERE (item_id, window_start) IN (
       SELECT h.item_id, h.window_start FROM proxy_hits h JOIN items i ON i.id = h.item_id
        WHERE h.window_start + coalesce((i.service_proxy->>'intervalSeconds')::bigint, 0) * 1000 <= $1
        LIMIT $2 FOR UPDATE OF h SKIP LOCKED)
     RETURNING 1`,
    [now, batch],
  );
}
