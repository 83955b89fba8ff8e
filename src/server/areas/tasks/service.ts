/**
 * Scheduled task rules (spec §2, §3, §4.2; facts §3.2, §7).
 *
 * - A member manages their own tasks under `community/users/<self>/tasks`; an administrator of the
 *   organization (org_admin) reads and manages every member's tasks there too, and lists them all
 *   with `portals/<orgId>/allScheduledTasks`. Other organizations get 403.
 * - Creating needs portal:user:createItem; notebook tasks premium:publisher:scheduleNotebooks;
 *   administrative reports and geoprocessing tasks an administrator, and a geoprocessing task the
 *   administrator's token in the form field `token` (it is sent with each job; never shown).
 * - Per type: which of itemId, parameters and taskURL are required, and the parameter shapes
 *   (contract/tasks.ts). The item must be in the organization and the caller's (or the caller an
 *   administrator).
 * - Limits: active tasks per member and per organization (settings.ts); over the limit → 400.
 * - The next run is stored with the task (`next_run_at`); the scheduler claims due tasks from it.
 */
import type { HistoryData, HistoryOperation } from '../../../shared/contract/history.ts';
import { recordEvent } from '../../store/events.ts';
import {
  reportParameters,
  TASK_PARAMETER_SHAPES,
  TASK_TYPE_RULES,
  type CreateTaskParams,
  type TaskType,
  type UpdateTaskParams,
} from '../../../shared/contract/tasks.ts';
import { CronScheduleError, nextRun, validateSchedule, type CronSchedule } from '../../../shared/cron.ts';
import { taskSettingsOf, type TaskSettings } from '../../config.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { assertMayScheduleReport, assertMayScheduleTaskType } from '../../http/policies.ts';
import type { Reach } from '../../http/reach.ts';
import { ApiError, badParam, forbidden } from '../../http/errors.ts';
import { checkOutboundUrl, OutboundRefused } from '../../http/outbound.ts';
import type { Queryable } from '../../store/db.ts';
import { hexId } from '../../store/ids.ts';
import {
  countActive,
  deleteTaskRow,
  findTask,
  insertRun,
  insertTask,
  lockOrgForTaskLimits,
  markRunQueued,
  runIdOf,
  saveTask,
  scheduleOf,
  type TaskRow,
} from './repo.ts';
import { itemOwnership } from './repo/members.ts';
import type { TaskOwner } from './target.ts';
import { raise } from '../../core/signals.ts';

export const taskNotFound = (id: string) =>
  new ApiError(400, `Task '${id}' does not exist or is inaccessible.`, [`Task '${id}' does not exist or is inaccessible.`]);

/** The task, owned by `owner` (authorized by TASK_OWNER), so a task id cannot be reached through another member's path. */
export async function ownedTask(q: Queryable, caller: Caller, owner: TaskOwner, taskId: string, lock = false): Promise<TaskRow> {
  const task = await findTask(q, caller.orgId, taskId, lock);
  if (!task || task.owner_id !== owner.id) throw taskNotFound(taskId);
  return task;
}

function scheduleErrors(s: CronSchedule): void {
  const check = validateSchedule(s);
  if (check.ok) return;
  const entries = Object.entries(check.errors);
  throw new ApiError(
    400,
    'Invalid or missing input parameters.',
    entries.map(([f, p]) => `'${f}' ${p}`),
    undefined,
    Object.fromEntries(entries),
  );
}

/** When the task runs next, after `after`: null once its window, or its maximum runs, are used up. */
export function computeNextRun(
  t: Pick<TaskRow, 'minute' | 'hour' | 'day_of_month' | 'month' | 'day_of_week' | 'start_date' | 'end_date' | 'max_occurrences' | 'run_count'>,
  after: number,
): number | null {
  if (t.max_occurrences != null && t.max_occurrences >= 0 && t.run_count >= t.max_occurrences) return null;
  try {
    return nextRun(scheduleOf(t), after, { startDate: t.start_date, endDate: t.end_date });
  } catch (err) {
    if (err instanceof CronScheduleError) return null;
    throw err;
  }
}

interface Fields {
  type: TaskType;
  title: string;
  taskUrl: string | null;
  itemId: string | null;
  parameters: Record<string, unknown>;
  schedule: CronSchedule;
  startDate: number | null;
  endDate: number | null;
  maxOccurrences: number | null;
}

/**
 * Every per-type rule; answers the task URL as checked by the outbound guard. `reach` (the
 * operation's declaration) admits a task on another member's item, asked after the task's own 400s.
 */
async function checkFields(ctx: PortalContext, q: Queryable, caller: Caller, reach: Reach, f: Fields, sentParameters: boolean): Promise<string | null> {
  const rules = TASK_TYPE_RULES[f.type];
  assertMayScheduleTaskType(caller, f.type);
  if (f.type === 'ExecuteReport') {
    const report = reportParameters.safeParse(f.parameters);
    assertMayScheduleReport(caller, report.success ? report.data.reportType : undefined);
  }
  if (rules.itemRequired && !f.itemId) throw badParam('itemId', `is required for ${f.type} tasks`);
  if (rules.parametersRequired && !sentParameters) throw badParam('parameters', `is required for ${f.type} tasks`);
  const shaped = TASK_PARAMETER_SHAPES[f.type].safeParse(f.parameters);
  if (!shaped.success && (sentParameters || rules.parametersRequired)) {
    const details = shaped.error.issues.map((i) => `'parameters${i.path.length ? '.' + i.path.join('.') : ''}' ${i.message}`);
    throw new ApiError(400, 'Invalid or missing input parameters.', details, undefined, { parameters: details.join('; ') });
  }
  scheduleErrors(f.schedule);
  if (f.startDate != null && f.endDate != null && f.endDate <= f.startDate) throw badParam('endDate', 'must be after startDate');
  if (f.itemId) {
    const item = await itemOwnership(q, f.itemId);
    if (!item || item.org_id !== caller.orgId) throw badParam('itemId', `names an item '${f.itemId}' that does not exist in this organization`);
    if (item.owner_id !== caller.userId && !reach.others(item.org_id)) throw forbidden('Tasks can be scheduled only on your own items.');
  }
  let url: string | null = null;
  if (rules.taskUrlRequired) {
    if (!f.taskUrl) throw badParam('taskURL', `is required for ${f.type} tasks`);
    try {
      url = (await checkOutboundUrl(f.taskUrl, ctx.config)).url.toString();
    } catch (err) {
      if (err instanceof OutboundRefused) throw badParam('taskURL', err.message);
      throw err;
    }
  } else if (f.taskUrl) url = f.taskUrl;
  return url;
}

async function checkLimits(q: Queryable, s: TaskSettings, orgId: string, ownerId: string, username: string): Promise<void> {
  // Serialise concurrent creates/enables of one organization so the counts cannot be overtaken.
  await lockOrgForTaskLimits(q, orgId);
  const n = await countActive(q, orgId, ownerId);
  if (n.user >= s.activePerUser)
    throw new ApiError(400, `${username} already has ${n.user} active tasks, the most allowed (${s.activePerUser}). Disable or delete one first.`, [
      `active tasks per user: ${s.activePerUser}`,
    ]);
  if (n.org >= s.activePerOrg)
    throw new ApiError(400, `The organization already has ${n.org} active tasks, the most allowed (${s.activePerOrg}). Disable or delete one first.`, [
      `active tasks per organization: ${s.activePerOrg}`,
    ]);
}

export async function activeTasksAvailable(ctx: PortalContext, orgId: string, ownerId: string): Promise<number> {
  const s = taskSettingsOf(ctx.config);
  const q = ctx.db;
  const n = await countActive(q, orgId, ownerId);
  return Math.max(0, Math.min(s.activePerUser - n.user, s.activePerOrg - n.org));
}

/** What history keeps of a task: its settings, without the run token or secret-looking parameters. */
function taskView(
  t: Pick<
    TaskRow,
    | 'type'
    | 'title'
    | 'task_url'
    | 'item_id'
    | 'parameters'
    | 'minute'
    | 'hour'
    | 'day_of_month'
    | 'month'
    | 'day_of_week'
    | 'start_date'
    | 'end_date'
    | 'max_occurrences'
    | 'active'
  >,
): Record<string, unknown> {
  const parameters = Object.fromEntries(Object.entries(t.parameters ?? {}).filter(([k]) => !/token|password|secret|key/i.test(k)));
  return {
    type: t.type,
    title: t.title,
    taskUrl: t.task_url,
    itemId: t.item_id,
    parameters,
    minute: t.minute,
    hour: t.hour,
    dayOfMonth: t.day_of_month,
    month: t.month,
    dayOfWeek: t.day_of_week,
    startDate: t.start_date,
    endDate: t.end_date,
    maxOccurrences: t.max_occurrences,
    active: t.active,
  };
}

function changed(was: Record<string, unknown>, now: Record<string, unknown>): HistoryData {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const k of Object.keys(now)) if (JSON.stringify(was[k]) !== JSON.stringify(now[k])) [before[k], after[k]] = [was[k], now[k]];
  return { before, after };
}

/** A task change in the organization's history (idType t). */
async function recordTaskEvent(
  q: Queryable,
  caller: Caller,
  t: Pick<TaskRow, 'id' | 'org_id' | 'owner_username' | 'title'>,
  op: HistoryOperation,
  data: HistoryData,
  now: number,
): Promise<void> {
  await recordEvent(q, {
    orgId: t.org_id,
    source: 'task',
    operation: op,
    subjectId: t.id,
    actor: actorOf(caller),
    when: now,
    history: { op, owner: t.owner_username, title: t.title, data },
  });
}

/** A task of the caller's own (the path's member is the caller: createTask's declaration, decided before this runs). */
export async function createTask(ctx: PortalContext, caller: Caller, reach: Reach, p: CreateTaskParams, formToken: string | undefined) {
  const f: Fields = {
    type: p.type,
    title: p.title ?? '',
    taskUrl: p.taskURL ?? p.taskUrl ?? null,
    itemId: p.itemId || null,
    parameters: p.parameters ?? {},
    schedule: { minute: p.minute, hour: p.hour, dayOfMonth: p.dayOfMonth, month: p.month, dayOfWeek: p.dayOfWeek },
    startDate: p.startDate ?? null,
    endDate: p.endDate ?? null,
    maxOccurrences: p.maxOccurrences == null || p.maxOccurrences < 0 ? null : p.maxOccurrences,
  };
  if (f.type === 'GPService' && !formToken) throw badParam('token', 'is required for GPService tasks: send the administrator token in the form field token');
  if (f.maxOccurrences === 0) throw badParam('maxOccurrences', 'must be at least 1 (or -1 for no limit)');
  const now = ctx.clock.now();
  const id = hexId();
  await ctx.db.tx(async (q) => {
    const url = await checkFields(ctx, q, caller, reach, f, p.parameters !== undefined);
    const row = rowFrom(id, caller, f, url, f.type === 'GPService' ? formToken! : null, now);
    row.next_run_at = computeNextRun({ ...row, run_count: 0 }, now);
    if (row.next_run_at === null) throw badParam('endDate', 'leaves no run: the schedule has no time between now (or startDate) and endDate');
    await checkLimits(q, taskSettingsOf(ctx.config), caller.orgId, caller.userId, caller.username);
    await insertTask(q, row);
    await recordTaskEvent(q, caller, { ...row, owner_username: caller.username }, 'createTask', { after: taskView(row) }, now);
  });
  raise('taskSchedulesChanged');
  return { success: true, taskId: id };
}

/** The task's columns that its fields set (create and update write the same ones). */
function fieldColumns(f: Fields, url: string | null, token: string | null) {
  return {
    type: f.type,
    title: f.title,
    task_url: url,
    item_id: f.itemId,
    parameters: f.parameters,
    run_token: token,
    minute: f.schedule.minute,
    hour: f.schedule.hour,
    day_of_month: f.schedule.dayOfMonth,
    month: f.schedule.month,
    day_of_week: f.schedule.dayOfWeek,
    start_date: f.startDate,
    end_date: f.endDate,
    max_occurrences: f.maxOccurrences,
  };
}

function rowFrom(id: string, caller: Caller, f: Fields, url: string | null, token: string | null, now: number) {
  return {
    id,
    org_id: caller.orgId,
    owner_id: caller.userId,
    ...fieldColumns(f, url, token),
    active: true,
    state: 'active' as const,
    state_reason: null,
    next_run_at: null as number | null,
    created: now,
    modified: now,
  };
}

/** Update: the fields sent replace the stored ones; `isActive` enables or disables in the same call. */
export async function updateTask(
  ctx: PortalContext,
  caller: Caller,
  reach: Reach,
  owner: TaskOwner,
  taskId: string,
  p: UpdateTaskParams,
  formToken: string | undefined,
) {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const t = await ownedTask(q, caller, owner, taskId, true);
    const f: Fields = {
      type: p.type ?? t.type,
      title: p.title ?? t.title,
      taskUrl: p.taskURL ?? p.taskUrl ?? t.task_url,
      itemId: p.itemId === undefined ? t.item_id : p.itemId || null,
      parameters: p.parameters ?? t.parameters,
      schedule: {
        minute: p.minute ?? t.minute,
        hour: p.hour ?? t.hour,
        dayOfMonth: p.dayOfMonth ?? t.day_of_month,
        month: p.month ?? t.month,
        dayOfWeek: p.dayOfWeek ?? t.day_of_week,
      },
      startDate: p.startDate === undefined ? t.start_date : p.startDate,
      endDate: p.endDate === undefined ? t.end_date : p.endDate,
      maxOccurrences: p.maxOccurrences === undefined ? t.max_occurrences : p.maxOccurrences < 0 ? null : p.maxOccurrences,
    };
    if (f.maxOccurrences === 0) throw badParam('maxOccurrences', 'must be at least 1 (or -1 for no limit)');
    // The rules are checked as the owner would be (an administrator editing keeps the owner's item rules lenient).
    const url = await checkFields(ctx, q, caller, reach, f, p.parameters !== undefined || Object.keys(t.parameters).length > 0);
    // A stored token goes only where it was given for: a change of where the task sends (its URL or
    // its type) drops it, so the caller must send a token for the new destination themselves.
    const sameDestination = f.type === t.type && url === t.task_url;
    if (f.type === 'GPService' && !formToken && !sameDestination) {
      throw badParam('token', 'is required again when the task URL changes: the stored token was given for the previous URL');
    }
    const token = f.type === 'GPService' ? (formToken ?? (sameDestination ? t.run_token : null)) : null;
    const updated: TaskRow = { ...t, ...fieldColumns(f, url, token), modified: now };
    const wantActive = p.isActive ?? t.active;
    const before = taskView(t);
    await applyActive(q, taskSettingsOf(ctx.config), updated, wantActive, now, wantActive === t.active ? t.state_reason : `Paused by ${caller.username}.`);
    await recordTaskEvent(q, caller, updated, 'updateTask', changed(before, taskView(updated)), now);
  });
  raise('taskSchedulesChanged');
  return { success: true };
}

/** Set a task active or not, recomputing its next run; enabling checks the limits and resets the failure count. */
async function applyActive(q: Queryable, limits: TaskSettings, t: TaskRow, active: boolean, now: number, reason: string | null): Promise<void> {
  if (active) {
    const next = computeNextRun(t, now);
    if (next === null) throw new ApiError(400, 'The task has no run left: its end date has passed or it reached its maximum runs.', ['no future run']);
    if (!t.active) {
      await checkLimits(q, limits, t.org_id, t.owner_id, t.owner_username);
      t.consecutive_failures = 0;
    }
    Object.assign(t, { active: true, state: 'active', state_reason: null, next_run_at: next });
  } else {
    Object.assign(t, { active: false, state: t.state === 'active' ? 'paused' : t.state, state_reason: t.active ? reason : t.state_reason, next_run_at: null });
  }
  t.modified = now;
  await saveTask(q, t);
}

export async function setTaskEnabled(ctx: PortalContext, caller: Caller, owner: TaskOwner, taskId: string, enabled: boolean) {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const t = await ownedTask(q, caller, owner, taskId, true);
    if (enabled === t.active) return;
    const was = t.active;
    if (!enabled) t.state = 'paused';
    await applyActive(q, taskSettingsOf(ctx.config), t, enabled, now, `Paused by ${caller.username}.`);
    await recordTaskEvent(q, caller, t, enabled ? 'enableTask' : 'disableTask', { before: { active: was }, after: { active: enabled } }, now);
  });
  raise('taskSchedulesChanged');
  return { success: true };
}

export async function deleteTask(ctx: PortalContext, caller: Caller, owner: TaskOwner, taskId: string) {
  await ctx.db.tx(async (q) => {
    const t = await ownedTask(q, caller, owner, taskId, true);
    await deleteTaskRow(q, t.id);
    await recordTaskEvent(q, caller, t, 'deleteTask', { before: taskView(t) }, ctx.clock.now());
  });
  return { success: true };
}

/** Queue a run now (a local operation; the console's "Run now"). It counts like any run. */
export async function runTaskNow(ctx: PortalContext, caller: Caller, owner: TaskOwner, taskId: string) {
  const now = ctx.clock.now();
  const runId = await ctx.db.tx(async (q) => {
    const t = await ownedTask(q, caller, owner, taskId, true);
    if (!(await insertRun(q, t.id, t.org_id, now, 'scheduled', `Started by ${caller.username}.`, now)))
      throw new ApiError(409, 'A run for this moment already exists; try again.', []);
    // The task shows a run is on its way until the run reports.
    await markRunQueued(q, t.id, `Started by ${caller.username}.`);
    return runIdOf(t.id, now);
  });
  raise('taskSchedulesChanged');
  return { success: true, runId };
}

// What the scheduler (jobs/scheduler.ts, jobs/runEnds.ts) runs: the executors, and the statements
// that claim, start, end and prune runs.
export { EXECUTORS, RunFailed, type Executor } from './executors/index.ts';
export { claimRuns, scheduleOf, type ClaimedRunRow } from './repo.ts';
/** What the operations' list and read answers take from the repository as it is. */
export { findRun, listRuns, listTasks, toRunRecord, toTaskRecord } from './repo.ts';
export { memberIdInOrg } from './repo/members.ts';
export {
  completeTask,
  handBackRun,
  handBackRuns,
  insertScheduledRuns,
  insertSkippedRuns,
  lockDueTasks,
  lockInterruptedRuns,
  moveTasksOn,
  pruneRuns,
  schedulerState,
  writeRunEnds,
  type DueTask,
} from './repo/scheduler.ts';
// What deleting or reassigning an item does to the tasks scheduled on it (items, reassign).
export { deactivateItemTasks, deactivateTasksOfItems } from './itemTasks.ts';
