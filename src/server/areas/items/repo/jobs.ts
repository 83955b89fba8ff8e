/** SQL of an item's background jobs (item_jobs): a dataUrl download queued by addItem, and what a failed one left. */
import type { Queryable } from '../../../store/db.ts';

/** Queues the download of `url` into the new item; the owner goes with the job. */
export async function insertDataUrlJob(
  q: Queryable,
  job: { id: string; itemId: string; url: string | undefined; fileName: unknown; now: number; orgId: string; ownerId: string; ownerUsername: string },
): Promise<void> {
  await q.query(
    `INSERT INTO item_jobs (id, item_id, kind, payload, created, updated, org_id, owner_id, owner_username) VALUES ($1, $2, 'dataUrl', $3::jsonb, $4, $4, $5, $6, $7)`,
    [job.id, job.itemId, JSON.stringify({ url: job.url, fileName: job.fileName }), job.now, job.orgId, job.ownerId, job.ownerUsername],
  );
}

export interface FailedItemJobRow {
  message: string | null;
  org_id: string;
  owner_id: string;
  owner_username: string;
}

/** The latest failed background download of the item (which removed it), with its owner. */
export async function failedItemJob(q: Queryable, itemId: string): Promise<FailedItemJobRow | undefined> {
  const [job] = await q.query<FailedItemJobRow>(
    `SELECT message, org_id, owner_id, owner_username FROM item_jobs WHERE item_id = $1 AND state = 'failed' AND owner_id IS NOT NULL ORDER BY updated DESC LIMIT 1`,
    [itemId],
  );
  return job;
}

/** The retention sweep: at most `batch` jobs done or failed before `before` (a row each, RETURNING 1). */
export async function deleteFinishedItemJobs(q: Queryable, before: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM item_jobs WHERE id IN (
       SELECT id FROM item_jobs WHERE state IN ('done', 'failed') AND updated < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [before, batch],
  );
}
