/** SQL of scheduled tasks and their runs. */
import type { RunRecord, RunStatus, TaskRecord, TaskState, TaskType } from '../../../shared/contract/tasks.ts';
import type { CronSchedule } from '../../../shared/cron.ts';
import type { Queryable } from '../../store/db.ts';

export interface TaskRow {
  id: string;
  org_id: string;
  owner_id: string;
  owner_username: string;
  type: TaskType;
  title: string;
  task_url: string | null;
  item_id: string | null;
  parameters: Record<string, unknown>;
  run_token: string | null;
  minute: string;
  hour: string;
  day_of_month: string;
  month: string;
  day_of_week: string;
  start_date: number | null;
  end_date: number | null;
  max_occurrences: number | null;
  active: boolean;
  state: TaskState;
  state_reason: string | null;
  next_run_at: number | null;
  last_start: number | null;
  last_status: RunStatus | null;
  last_result: string | null;
  run_count: number;
  consecutive_failures: number;
  created: number;
  modified: number;
}

export interface RunRow {
  id: string;
  task_id: string;
  org_id: string;
  scheduled_at: number;
  status: RunStatus;
  result: string;
  attempts: number;
  locked_until: number;
  started: number | null;
  finished: number | null;
  created: number;
  modified: number;
}

const SELECT_TASK = `SELECT t.*, u.username AS owner_username FROM tasks t JOIN users u ON u.id = t.owner_id`;

/** bigint columns come back as strings from node-postgres. */
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
function normaliseTask(r: TaskRow): TaskRow {
  return {
    ...r,
    start_date: num(r.start_date),
    end_date: num(r.end_date),
    next_run_at: num(r.next_run_at),
    last_start: num(r.last_start),
    created: Number(r.created),
    modified: Number(r.modified),
  };
}
export function normaliseRun(r: RunRow): RunRow {
  return {
    ...r,
    scheduled_at: Number(r.scheduled_at),
    locked_until: Number(r.locked_until),
    started: num(r.started),
    finished: num(r.finished),
    created: Number(r.created),
    modified: Number(r.modified),
  };
}

export function scheduleOf(t: Pick<TaskRow, 'minute' | 'hour' | 'day_of_month' | 'month' | 'day_of_week'>): CronSchedule {
  return { minute: t.minute, hour: t.hour, dayOfMonth: t.day_of_month, month: t.month, dayOfWeek: t.day_of_week };
}

export function toTaskRecord(t: TaskRow): TaskRecord {
  return {
    id: t.id,
    itemId: t.item_id,
    type: t.type,
    title: t.title,
    userId: t.owner_username,
    taskUrl: t.task_url,
    cronSchedule: scheduleOf(t),
    maxOccurrences: t.max_occurrences ?? -1,
    parameters: t.parameters,
    created: t.created,
    updated: t.modified,
    startDate: t.start_date,
    endDate: t.end_date,
    active: t.active,
    taskState: t.state,
    stateReason: t.state_reason,
    nextRun: t.next_run_at,
    lastStart: t.last_start,
    lastRunStatus: t.last_status,
    lastRunResult: t.last_result,
    runCount: t.run_count,
    consecutiveFailures: t.consecutive_failures,
  };
}

export function toRunRecord(r: RunRow): RunRecord {
  return {
    runId: r.id,
    taskId: r.task_id,
    status: r.status,
    result: r.result,
    scheduled: r.scheduled_at,
    started: r.started,
    finished: r.finished,
    created: r.created,
    modified: r.modified,
  };
}

export async function findTask(q: Queryable, orgId: string, id: string, lock = false): Promise<TaskRow | undefined> {
  const [row] = await q.query<TaskRow>(`${SELECT_TASK} WHERE t.org_id = $1 AND t.id = $2${lock ? ' FOR UPDATE OF t' : ''}`, [orgId, id]);
  return row ? normaliseTask(row) : undefined;
}

/** A run claimed by the scheduler, with its task as the claim left it (missing: deleted meanwhile). */
export interface ClaimedRunRow {
  id: string;
  taskId: string;
  scheduledAt: number;
  attempt: number;
  task?: TaskRow;
}

/**
 * Claim up to `limit` runs waiting to start, and runs whose lease ran out with attempts left, in
 * one statement (FOR UPDATE SKIP LOCKED: each run goes to one scheduler): the runs are marked
 * executing under a lease until `leaseUntil`, their tasks record the start, and the tasks are
 * returned with the runs, so that a burst costs one statement per batch rather than a claim, a
 * task update and a task read.
 */
export async function claimRuns(q: Queryable, at: { now: number; leaseUntil: number; limit: number; maxAttempts: number }): Promise<ClaimedRunRow[]> {
  const rows = await q.query<TaskRow & { run_id: string; run_task_id: string; run_scheduled_at: number; run_attempts: number }>(
    `WITH claimed AS (
       UPDATE task_runs SET status = 'executing', attempts = attempts + 1, locked_until = $2, started = $1, modified = $1
        WHERE id IN (SELECT id FROM task_runs
                      WHERE status = 'scheduled' OR (status = 'executing' AND locked_until < $1 AND attempts < $4)
                      ORDER BY scheduled_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING id, task_id, scheduled_at, attempts),
     started AS (
       UPDATE tasks SET last_start = $1, last_status = 'executing' WHERE id IN (SELECT task_id FROM claimed) RETURNING *)
     SELECT s.*, u.username AS owner_username,
            c.id AS run_id, c.task_id AS run_task_id, c.scheduled_at AS run_scheduled_at, c.attempts AS run_attempts
       FROM claimed c LEFT JOIN started s ON s.id = c.task_id LEFT JOIN users u ON u.id = s.owner_id
      ORDER BY c.scheduled_at`,
    [at.now, at.leaseUntil, at.limit, at.maxAttempts],
  );
  return rows.map(({ run_id, run_task_id, run_scheduled_at, run_attempts, ...task }) => ({
    id: run_id,
    taskId: run_task_id,
    scheduledAt: Number(run_scheduled_at),
    attempt: run_attempts,
    task: task.id == null ? undefined : normaliseTask(task),
  }));
}

export interface TaskFilter {
  orgId: string;
  ownerId?: string;
  itemId?: string;
  active?: boolean;
  types?: string[];
  state?: string;
}

const SORT_COLUMNS: Record<string, string> = {
  created: 't.created',
  modified: 't.modified',
  title: 'lower(t.title)',
  type: 't.type',
  nextRun: 't.next_run_at',
};

export async function listTasks(
  q: Queryable,
  f: TaskFilter,
  sort: { field: string; order: 'asc' | 'desc' },
  offset: number,
  limit: number,
): Promise<{ total: number; rows: TaskRow[] }> {
  const where = ['t.org_id = $1'];
  const params: unknown[] = [f.orgId];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (f.ownerId) add('t.owner_id = ?', f.ownerId);
  if (f.itemId) add('t.item_id = ?', f.itemId);
  if (f.active !== undefined) add('t.active = ?', f.active);
  if (f.types?.length) add('t.type = ANY(?)', f.types);
  if (f.state) add('t.state = ?', f.state);
  const w = where.join(' AND ');
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks t WHERE ${w}`, params);
  const order = `${SORT_COLUMNS[sort.field] ?? 't.created'} ${sort.order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, t.id`;
  const rows = limit > 0 ? await q.query<TaskRow>(`${SELECT_TASK} WHERE ${w} ORDER BY ${order} OFFSET ${Number(offset)} LIMIT ${Number(limit)}`, params) : [];
  return { total: n, rows: rows.map(normaliseTask) };
}

export async function countActive(q: Queryable, orgId: string, ownerId: string): Promise<{ user: number; org: number }> {
  const [r] = await q.query<{ user_n: number; org_n: number }>(
    `SELECT count(*) FILTER (WHERE owner_id = $2)::int AS user_n, count(*)::int AS org_n FROM tasks WHERE org_id = $1 AND active`,
    [orgId, ownerId],
  );
  return { user: r.user_n, org: r.org_n };
}

/** A task as inserted: the columns that runs fill in later are not written. */
type NewTaskRow = Omit<TaskRow, 'owner_username' | 'last_start' | 'last_status' | 'last_result' | 'run_count' | 'consecutive_failures'>;

/** The values of the columns an insert and a save both write, in the order both statements list them (type … next_run_at). */
function editableValues(t: NewTaskRow): unknown[] {
  return [
    t.type,
    t.title,
    t.task_url,
    t.item_id,
    JSON.stringify(t.parameters),
    t.run_token,
    t.minute,
    t.hour,
    t.day_of_month,
    t.month,
    t.day_of_week,
    t.start_date,
    t.end_date,
    t.max_occurrences,
    t.active,
    t.state,
    t.state_reason,
    t.next_run_at,
  ];
}

export async function insertTask(q: Queryable, t: NewTaskRow): Promise<void> {
  await q.query(
    `INSERT INTO tasks (id, org_id, owner_id, type, title, task_url, item_id, parameters, run_token, minute, hour, day_of_month, month, day_of_week,
                        start_date, end_date, max_occurrences, active, state, state_reason, next_run_at, created, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
    [t.id, t.org_id, t.owner_id, ...editableValues(t), t.created, t.modified],
  );
}

/** Write back the editable columns and the state of a task read (and locked) before. */
export async function saveTask(q: Queryable, t: TaskRow): Promise<void> {
  await q.query(
    `UPDATE tasks SET type = $2, title = $3, task_url = $4, item_id = $5, parameters = $6::jsonb, run_token = $7, minute = $8, hour = $9, day_of_month = $10,
            month = $11, day_of_week = $12, start_date = $13, end_date = $14, max_occurrences = $15, active = $16, state = $17, state_reason = $18,
            next_run_at = $19, consecutive_failures = $20, modified = $21
      WHERE id = $1`,
    [t.id, ...editableValues(t), t.consecutive_failures, t.modified],
  );
}

export async function deleteTaskRow(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM tasks WHERE id = $1', [id]);
}

export async function listRuns(q: Queryable, taskId: string, limit: number): Promise<RunRow[]> {
  const rows = await q.query<RunRow>('SELECT * FROM task_runs WHERE task_id = $1 ORDER BY scheduled_at DESC LIMIT $2', [taskId, limit]);
  return rows.map(normaliseRun);
}

export async function findRun(q: Queryable, taskId: string, runId: string): Promise<RunRow | undefined> {
  const [row] = await q.query<RunRow>('SELECT * FROM task_runs WHERE task_id = $1 AND id = $2', [taskId, runId]);
  return row ? normaliseRun(row) : undefined;
}

/** A run's id: derived from its task and scheduled time, so one occurrence has one id everywhere. */
export const runIdOf = (taskId: string, scheduledAt: number) => `${taskId}-${scheduledAt}`;

/** Insert a run unless that occurrence already has one; answers whether it was inserted. */
export async function insertRun(
  q: Queryable,
  taskId: string,
  orgId: string,
  scheduledAt: number,
  status: RunStatus,
  result: string,
  now: number,
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT DO NOTHING RETURNING id`,
    [runIdOf(taskId, scheduledAt), taskId, orgId, scheduledAt, status, result, now],
  );
  return rows.length > 0;
}

/** Lock the organization's row, so concurrent creates/enables of its tasks take turns at the active-task limits. */
export async function lockOrgForTaskLimits(q: Queryable, orgId: string): Promise<void> {
  await q.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
}

/** Show on the task that a run is on its way (until the run reports). */
export async function markRunQueued(q: Queryable, taskId: string, result: string): Promise<void> {
  await q.query(`UPDATE tasks SET last_status = 'scheduled', last_result = $2 WHERE id = $1`, [taskId, result]);
}

/** Deactivate the active tasks of the items, keeping `reason` with each; answers one item id per task deactivated. */
export async function pauseActiveTasksOfItems(q: Queryable, orgId: string, itemIds: readonly string[], reason: string, now: number): Promise<string[]> {
  const rows = await q.query<{ item_id: string }>(
    `UPDATE tasks SET active = false, state = 'paused', state_reason = $3, next_run_at = NULL, modified = $4
      WHERE org_id = $1 AND item_id = ANY ($2::text[]) AND active
      RETURNING item_id`,
    [orgId, itemIds, reason, now],
  );
  return rows.map((r) => r.item_id);
}
