/**
 * SQL of the task scheduler (jobs/scheduler.ts): due tasks turned into runs, runs handed back or
 * pruned, the idle pass's look, and the ends of runs written many per statement (jobs/runEnds.ts).
 * The claim of runs waiting to start is repo.ts claimRuns.
 */
import type { Queryable } from '../../../store/db.ts';
import { normaliseRun, type RunRow, type TaskRow } from '../repo.ts';

/**
 * What turning a due task into a run reads of it: its schedule and counts, not the whole row (the
 * parameters, the token) nor its owner; the executor gets the task as the claim reads it.
 */
const DUE_TASK_FIELDS = [
  'id',
  'org_id',
  'minute',
  'hour',
  'day_of_month',
  'month',
  'day_of_week',
  'start_date',
  'end_date',
  'max_occurrences',
  'run_count',
  'next_run_at',
] as const satisfies readonly (keyof TaskRow)[];
const DUE_TASK_COLUMNS = DUE_TASK_FIELDS.join(', ');
export type DueTask = Pick<TaskRow, (typeof DUE_TASK_FIELDS)[number]>;

/** Up to `limit` active tasks due at `now`, oldest due first, locked for the transaction (others skip them). */
export async function lockDueTasks(q: Queryable, now: number, limit: number): Promise<DueTask[]> {
  return (
    await q.query<DueTask>(`SELECT ${DUE_TASK_COLUMNS} FROM tasks WHERE active AND next_run_at <= $1 ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED`, [
      now,
      limit,
    ])
  ).map((t) => ({
    ...t,
    next_run_at: Number(t.next_run_at),
    start_date: t.start_date == null ? null : Number(t.start_date),
    end_date: t.end_date == null ? null : Number(t.end_date),
  }));
}

/** Missed occurrences recorded as skipped runs (an occurrence already recorded is left as it is). */
export async function insertSkippedRuns(
  q: Queryable,
  skipped: readonly { task: string; org: string; at: number }[],
  result: string,
  now: number,
): Promise<void> {
  await q.query(
    `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified)
         SELECT r.task || '-' || r.at, r.task, r.org, r.at, 'skipped', $4, $5, $5 FROM unnest($1::text[], $2::text[], $3::bigint[]) AS r(task, org, at)
         ON CONFLICT DO NOTHING`,
    [skipped.map((x) => x.task), skipped.map((x) => x.org), skipped.map((x) => x.at), result, now],
  );
}

/** Occurrences recorded as runs waiting to start; answers the tasks whose run is new (a repeated claim collapses on the unique key). */
export async function insertScheduledRuns(
  q: Queryable,
  fired: readonly { taskId: string; orgId: string; at: number; note: string }[],
  now: number,
): Promise<{ task_id: string }[]> {
  return q.query<{ task_id: string }>(
    `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified)
       SELECT r.task || '-' || r.at, r.task, r.org, r.at, 'scheduled', r.note, $5, $5 FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS r(task, org, at, note)
       ON CONFLICT DO NOTHING RETURNING task_id`,
    [fired.map((f) => f.taskId), fired.map((f) => f.orgId), fired.map((f) => f.at), fired.map((f) => f.note), now],
  );
}

/** A task with no run left: completed, with the reason. */
export async function completeTask(q: Queryable, taskId: string, runCount: number, reason: string, now: number): Promise<void> {
  await q.query(`UPDATE tasks SET next_run_at = NULL, run_count = $2, active = false, state = 'completed', state_reason = $3, modified = $4 WHERE id = $1`, [
    taskId,
    runCount,
    reason,
    now,
  ]);
}

/** Tasks' next due times and run counts moved on, in one statement. */
export async function moveTasksOn(q: Queryable, moved: readonly { id: string; next: number; count: number }[]): Promise<void> {
  await q.query(
    `UPDATE tasks t SET next_run_at = v.next, run_count = v.count FROM unnest($1::text[], $2::bigint[], $3::int[]) AS v(id, next, count) WHERE t.id = v.id`,
    [moved.map((m) => m.id), moved.map((m) => m.next), moved.map((m) => m.count)],
  );
}

/** Runs whose lease ran out with no attempt left, locked for the transaction. */
export async function lockInterruptedRuns(q: Queryable, now: number, maxAttempts: number, limit: number): Promise<RunRow[]> {
  return (
    await q.query<RunRow>(`SELECT * FROM task_runs WHERE status = 'executing' AND locked_until < $1 AND attempts >= $2 LIMIT $3 FOR UPDATE SKIP LOCKED`, [
      now,
      maxAttempts,
      limit,
    ])
  ).map(normaliseRun);
}

/** A run this scheduler still holds (same attempt) goes back to waiting, the attempt not counted. */
export async function handBackRun(q: Queryable, runId: string, attempt: number): Promise<void> {
  await q.query(
    `UPDATE task_runs SET status = 'scheduled', attempts = attempts - 1, locked_until = 0 WHERE id = $1 AND status = 'executing' AND attempts = $2`,
    [runId, attempt],
  );
}

/** handBackRun for many runs in one statement. */
export async function handBackRuns(q: Queryable, runs: readonly { id: string; attempt: number }[]): Promise<void> {
  await q.query(
    `UPDATE task_runs r SET status = 'scheduled', attempts = r.attempts - 1, locked_until = 0
           FROM unnest($1::text[], $2::int[]) AS q(id, attempt) WHERE r.id = q.id AND r.status = 'executing' AND r.attempts = q.attempt`,
    [runs.map((r) => r.id), runs.map((r) => r.attempt)],
  );
}

/** Deletes finished runs beyond the newest `kept` of each task; answers how many went. */
export async function pruneRuns(q: Queryable, kept: number): Promise<number> {
  const gone = await q.query(
    `DELETE FROM task_runs WHERE id IN (
         SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY task_id ORDER BY scheduled_at DESC) AS n
                           FROM task_runs WHERE status IN ('succeeded', 'failed', 'skipped')) ranked
          WHERE n > $1)
       RETURNING id`,
    [kept],
  );
  return gone.length;
}

/** What an idle pass reads: the next due time of an active task, and whether a run waits to start (or its lease ran out). */
export async function schedulerState(q: Queryable, now: number): Promise<{ nextDue: number | null; waiting: boolean }> {
  const [state] = await q.query<{ next_due: string | number | null; waiting: boolean }>(
    `SELECT (SELECT min(next_run_at) FROM tasks WHERE active) AS next_due,
              EXISTS (SELECT 1 FROM task_runs WHERE status = 'scheduled' OR (status = 'executing' AND locked_until < $1)) AS waiting`,
    [now],
  );
  return { nextDue: state.next_due === null ? null : Number(state.next_due), waiting: state.waiting };
}

/** A run's end as written by writeRunEnds. */
export interface RunEndRow {
  runId: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  result: string;
  /** When the executor was called; null keeps the start the claim recorded. */
  startedAt: number | null;
  finished: number;
}

const WRITE_ENDS = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
      AS i(run_id, attempt, status, result, started, finished)),
  ended AS (
    UPDATE task_runs r SET status = i.status, result = i.result, finished = i.finished, modified = i.finished,
           locked_until = 0, started = coalesce(i.started, r.started)
      FROM input i WHERE r.id = i.run_id AND r.status = 'executing' AND r.attempts = i.attempt
    RETURNING r.task_id, i.status, i.result, i.finished),
  counted AS (
    SELECT t.id, e.status, e.result, e.finished,
           CASE WHEN e.status = 'succeeded' THEN 0 ELSE t.consecutive_failures + 1 END AS failures
      FROM tasks t JOIN ended e ON e.task_id = t.id)
  UPDATE tasks t SET last_status = c.status, last_result = c.result, consecutive_failures = c.failures,
         active = CASE WHEN c.failures >= $7 THEN false ELSE t.active END,
         state = CASE WHEN c.failures >= $7 AND t.active THEN 'failed' ELSE t.state END,
         next_run_at = CASE WHEN c.failures >= $7 THEN NULL ELSE t.next_run_at END,
         state_reason = CASE WHEN c.failures >= $7 AND t.active
                             THEN 'Disabled after ' || c.failures || ' consecutive failed runs. The last: ' || left(c.result, 1000)
                             ELSE t.state_reason END,
         modified = CASE WHEN c.failures >= $7 AND t.active THEN c.finished ELSE t.modified END
    FROM counted c WHERE t.id = c.id`;

/**
 * Ends of runs (at most one per task), in one statement: only if the scheduler still holds the run
 * (same attempt) is its end recorded; the task's failure count moves, and at `failuresToDisable`
 * consecutive failures the task is deactivated with the reason.
 */
export async function writeRunEnds(q: Queryable, ends: readonly RunEndRow[], failuresToDisable: number): Promise<void> {
  await q.query(WRITE_ENDS, [
    ends.map((e) => e.runId),
    ends.map((e) => e.attempt),
    ends.map((e) => e.status),
    ends.map((e) => e.result),
    ends.map((e) => e.startedAt),
    ends.map((e) => e.finished),
    failuresToDisable,
  ]);
}
