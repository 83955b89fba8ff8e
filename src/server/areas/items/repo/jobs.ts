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

/** A claimed job of the runner (jobs/itemJobs.ts): the row as item_jobs holds it. */
export interface ItemJobRow {
  id: string;
  item_id: string;
  kind: string;
  state: string;
  payload: { url?: string; fileName?: string };
  attempts: number;
}

/** Whether a job is due (queued, or running with a lease run out by `now`): an idle poll's one read. */
export async function anyItemJobDue(q: Queryable, now: number): Promise<boolean> {
  const [due] = await q.query(`SELECT 1 FROM item_jobs WHERE (state = 'queued' OR state = 'running') AND locked_until <= $1 LIMIT 1`, [now]);
  return due !== undefined;
}

/** Drops the due unfinished jobs of items deleted meanwhile (jobs outlive their items: a failed one keeps its reason). */
export async function deleteDueJobsOfDeletedItems(q: Queryable, now: number): Promise<void> {
  await q.query(
    `DELETE FROM item_jobs j WHERE (j.state = 'queued' OR j.state = 'running') AND j.locked_until <= $1 AND NOT EXISTS (SELECT 1 FROM items i WHERE i.id = j.item_id)`,
    [now],
  );
}

/** The oldest due job, locked (FOR UPDATE SKIP LOCKED: another process's claim is skipped), or none. */
export async function lockDueItemJob(q: Queryable, now: number): Promise<ItemJobRow | undefined> {
  const [job] = await q.query<ItemJobRow>(
    `SELECT * FROM item_jobs
      WHERE (state = 'queued' OR state = 'running') AND locked_until <= $1
      ORDER BY created
      LIMIT 1
      FOR UPDATE SKIP LOCKED`,
    [now],
  );
  return job;
}

/** The job is running (one more attempt), its lease held until `lockedUntil`. */
export async function markItemJobRunning(q: Queryable, id: string, lockedUntil: number, now: number): Promise<void> {
  await q.query(`UPDATE item_jobs SET state = 'running', attempts = attempts + 1, locked_until = $2, updated = $3 WHERE id = $1`, [id, lockedUntil, now]);
}

/** Extends a running job's lease to `lockedUntil`. */
export async function renewItemJobLease(q: Queryable, id: string, lockedUntil: number, now: number): Promise<void> {
  await q.query(`UPDATE item_jobs SET locked_until = $2, updated = $3 WHERE id = $1 AND state = 'running'`, [id, lockedUntil, now]);
}

export async function markItemJobDone(q: Queryable, id: string, now: number): Promise<void> {
  await q.query(`UPDATE item_jobs SET state = 'done', message = NULL, locked_until = 0, updated = $2 WHERE id = $1`, [id, now]);
}

/** The job failed with `reason` (which the item's status answers from then). */
export async function markItemJobFailed(q: Queryable, id: string, reason: string, now: number): Promise<void> {
  await q.query(`UPDATE item_jobs SET state = 'failed', message = $2, locked_until = 0, updated = $3 WHERE id = $1`, [id, reason, now]);
}

/** The job's item's status, the item locked for the rest of the transaction; undefined when it is gone. */
export async function lockItemStatus(q: Queryable, itemId: string): Promise<string | undefined> {
  const [row] = await q.query<{ status: string }>('SELECT status FROM items WHERE id = $1 FOR UPDATE', [itemId]);
  return row?.status;
}

/** When the next job comes due (queued: now; running: its lease's end), or null when none is left. */
export async function nextItemJobDue(q: Queryable): Promise<number | null> {
  const [row] = await q.query<{ at: number | null }>(`SELECT min(locked_until) AS at FROM item_jobs WHERE state = 'queued' OR state = 'running'`);
  return row?.at ?? null;
}
