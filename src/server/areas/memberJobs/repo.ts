/** All of the member jobs' SQL (migration 036_member_jobs.sql). */
import type { MemberJob, MemberJobResult, MemberJobRunAction, MemberJobState, MemberResultState } from '../../../shared/contract/memberJobs.ts';
import type { Db, Queryable } from '../../store/db.ts';

export interface MemberJobRow {
  id: string;
  org_id: string;
  created_by: string;
  created_by_username: string;
  action: MemberJobRunAction;
  params: Record<string, unknown>;
  state: MemberJobState;
  total: number;
  succeeded: number;
  failed: number;
  locked_until: number;
  created: number;
  modified: number;
  finished: number | null;
  undoes: string | null;
  undone_by: string | null;
}

export interface PendingMember {
  seq: number;
  username: string;
  /** An undo job's parameters for this member (what puts them back). */
  params: Record<string, unknown> | null;
}

export function toMemberJob(row: MemberJobRow, cancelled = 0): MemberJob {
  return {
    id: row.id,
    action: row.action,
    params: row.params,
    state: row.state,
    total: row.total,
    done: row.succeeded + row.failed + cancelled,
    succeeded: row.succeeded,
    failed: row.failed,
    createdBy: row.created_by_username,
    created: Number(row.created),
    modified: Number(row.modified),
    finished: row.finished === null ? null : Number(row.finished),
    undoes: row.undoes ?? null,
    undoneBy: row.undone_by ?? null,
  };
}

export async function insertJob(
  q: Queryable,
  job: Omit<MemberJobRow, 'succeeded' | 'failed' | 'locked_until' | 'finished' | 'modified' | 'state' | 'undoes' | 'undone_by'> & { undoes?: string },
  usernames: readonly string[],
  /** Per member (same order), an undo job's parameters. */
  memberParams?: readonly Record<string, unknown>[],
): Promise<void> {
  await q.query(
    `INSERT INTO member_jobs (id, org_id, created_by, created_by_username, action, params, state, total, created, modified, undoes)
     VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $8, $8, $9)`,
    [job.id, job.org_id, job.created_by, job.created_by_username, job.action, JSON.stringify(job.params), usernames.length, job.created, job.undoes ?? null],
  );
  // One statement for the whole list: a 50,000-member job is one insert, not 50,000.
  await q.query(
    `INSERT INTO member_job_members (job_id, seq, username, params)
     SELECT $1, n::int, name, CASE WHEN $3::text[] IS NULL THEN NULL ELSE ($3::text[])[n::int]::jsonb END
       FROM unnest($2::text[]) WITH ORDINALITY AS t(name, n)`,
    [job.id, usernames, memberParams ? memberParams.map((p) => JSON.stringify(p)) : null],
  );
}

/** The members a job changed that can be put back, each with what puts them back, in job order. */
export async function undoableMembers(q: Queryable, jobId: string) {
  return q.query<{ username: string; undo: Record<string, unknown> }>(
    `SELECT username, undo FROM member_job_members WHERE job_id = $1 AND state = 'succeeded' AND undo IS NOT NULL ORDER BY seq`,
    [jobId],
  );
}

/** Marks `jobId` undone by `undoJobId` unless it already was; answers whether it did. */
export async function markUndone(q: Queryable, jobId: string, undoJobId: string): Promise<boolean> {
  const rows = await q.query(`UPDATE member_jobs SET undone_by = $2 WHERE id = $1 AND undone_by IS NULL RETURNING id`, [jobId, undoJobId]);
  return rows.length > 0;
}

/** Of `groupIds`, the groups `userId` is in (any member type). */
export async function groupsOfMember(q: Queryable, userId: string, groupIds: readonly string[]): Promise<Set<string>> {
  const rows = await q.query<{ group_id: string }>(`SELECT group_id FROM group_members WHERE user_id = $1 AND group_id = ANY($2::text[])`, [userId, groupIds]);
  return new Set(rows.map((r) => r.group_id));
}

export async function findJob(q: Queryable, id: string): Promise<MemberJobRow | undefined> {
  const [row] = await q.query<MemberJobRow>('SELECT * FROM member_jobs WHERE id = $1', [id]);
  return row;
}

export async function countCancelled(q: Queryable, id: string): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM member_job_members WHERE job_id = $1 AND state = 'cancelled'`, [id]);
  return n;
}

export async function listJobs(q: Queryable, orgId: string, page: { offset: number; limit: number }) {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM member_jobs WHERE org_id = $1', [orgId]);
  const rows = await q.query<MemberJobRow>(`SELECT * FROM member_jobs WHERE org_id = $1 ORDER BY created DESC, id LIMIT $2 OFFSET $3`, [
    orgId,
    page.limit,
    page.offset,
  ]);
  return { total: n, rows };
}

export async function listResults(q: Queryable, jobId: string, state: MemberResultState | undefined, page: { offset: number; limit: number }) {
  const filter = state ? 'AND state = $2' : 'AND $2::text IS NULL';
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM member_job_members WHERE job_id = $1 ${filter}`, [jobId, state ?? null]);
  const rows = await q.query<{ username: string; state: MemberResultState; reason: string | null; done_at: number | null }>(
    `SELECT username, state, reason, done_at FROM member_job_members WHERE job_id = $1 ${filter} ORDER BY seq LIMIT $3 OFFSET $4`,
    [jobId, state ?? null, page.limit, page.offset],
  );
  const results: MemberJobResult[] = rows.map((r) => ({
    username: r.username,
    state: r.state,
    reason: r.reason,
    doneAt: r.done_at === null ? null : Number(r.done_at),
  }));
  return { total: n, results };
}

export async function setJobState(q: Queryable, id: string, state: MemberJobState, now: number): Promise<void> {
  // Resuming makes the job claimable at once (no lease); pausing leaves the running batch to end.
  await q.query(
    `UPDATE member_jobs SET state = $2, modified = $3, locked_until = CASE WHEN $2 = 'running' THEN 0 ELSE locked_until END,
            finished = CASE WHEN $2 IN ('cancelled', 'done') THEN $3 ELSE finished END WHERE id = $1`,
    [id, state, now],
  );
}

export async function cancelPending(q: Queryable, id: string, now: number): Promise<void> {
  await q.query(
    `UPDATE member_job_members SET state = 'cancelled', reason = 'The job was cancelled before this member was reached.', done_at = $2
      WHERE job_id = $1 AND state = 'pending'`,
    [id, now],
  );
}

/** A due job (running, its lease run out) is leased to the caller until `until`, or none is due. */
export async function claimDueJob(q: Queryable, now: number, until: number): Promise<MemberJobRow | undefined> {
  const [job] = await q.query<MemberJobRow>(
    `SELECT * FROM member_jobs WHERE state = 'running' AND locked_until <= $1 ORDER BY created LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [now],
  );
  if (!job) return undefined;
  await q.query('UPDATE member_jobs SET locked_until = $2 WHERE id = $1', [job.id, until]);
  return job;
}

export async function anyDueJob(q: Queryable, now: number): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM member_jobs WHERE state = 'running' AND locked_until <= $1 LIMIT 1`, [now]);
  return rows.length > 0;
}

export async function renewLease(q: Queryable, id: string, until: number): Promise<void> {
  await q.query(`UPDATE member_jobs SET locked_until = $2 WHERE id = $1 AND state = 'running'`, [id, until]);
}

/** When a running job's lease runs out (its runner stopped), or null when no job is running. */
export async function nextLeaseEnd(q: Queryable): Promise<number | null> {
  const [row] = await q.query<{ at: number | null }>(`SELECT min(locked_until) AS at FROM member_jobs WHERE state = 'running'`);
  return row?.at ?? null;
}

/** The next members still to do, locked for this transaction (another runner skips them). */
export async function claimPending(q: Queryable, jobId: string, limit: number): Promise<PendingMember[]> {
  return q.query<PendingMember>(
    `SELECT seq, username, params FROM member_job_members WHERE job_id = $1 AND state = 'pending' ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [jobId, limit],
  );
}

/** `undo`: what puts a changed member back (null when nothing changed or it cannot be put back). */
export async function recordOutcome(
  q: Queryable,
  jobId: string,
  seq: number,
  ok: boolean,
  reason: string | null,
  now: number,
  undo: Record<string, unknown> | null = null,
): Promise<void> {
  await q.query(`UPDATE member_job_members SET state = $3, reason = $4, done_at = $5, undo = $6::jsonb WHERE job_id = $1 AND seq = $2 AND state = 'pending'`, [
    jobId,
    seq,
    ok ? 'succeeded' : 'failed',
    reason,
    now,
    undo === null ? null : JSON.stringify(undo),
  ]);
}

export async function addCounts(q: Queryable, jobId: string, succeeded: number, failed: number, now: number): Promise<void> {
  await q.query('UPDATE member_jobs SET succeeded = succeeded + $2, failed = failed + $3, modified = $4 WHERE id = $1', [jobId, succeeded, failed, now]);
}

/** Marks the job done when no member is left pending; answers whether it did. */
export async function finishIfComplete(q: Queryable, jobId: string, now: number): Promise<boolean> {
  const rows = await q.query(
    `UPDATE member_jobs SET state = 'done', finished = $2, modified = $2, locked_until = 0
      WHERE id = $1 AND state = 'running' AND NOT EXISTS (SELECT 1 FROM member_job_members WHERE job_id = $1 AND state = 'pending')
      RETURNING id`,
    [jobId, now],
  );
  return rows.length > 0;
}

/** The job's row, locked for the transaction (pause, resume and cancel decide on its state). */
export async function lockJob(q: Queryable, id: string): Promise<MemberJobRow> {
  const [row] = await q.query<MemberJobRow>('SELECT * FROM member_jobs WHERE id = $1 FOR UPDATE', [id]);
  return row;
}

/** One member's part of a batch: kept, or undone alone when the operation refuses. */
export const memberSavepoint = {
  open: (q: Queryable) => q.query('SAVEPOINT member_job_member'),
  keep: (q: Queryable) => q.query('RELEASE SAVEPOINT member_job_member'),
  undo: (q: Queryable) => q.query('ROLLBACK TO SAVEPOINT member_job_member'),
};

/** The open transaction `q` as a database whose own transactions join it (a member's change commits with the record that the member is done). */
export function transactionAsDb(kind: Db['kind'], q: Queryable): Db {
  return {
    kind,
    query: (sql, params) => q.query(sql, params),
    queryPrepared: (_name, sql, params) => q.query(sql, params),
    tx: (fn) => fn(q),
    exec: () => Promise.reject(new Error('exec inside a member job')),
    close: () => Promise.resolve(),
  };
}
