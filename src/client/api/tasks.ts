/** Scheduled tasks: a member's tasks, the organization's (administrators), their runs. */
import type { RunRecord, TaskListAnswer, TaskRecord, TaskType } from '../../shared/contract/tasks.ts';
import type { CronSchedule } from '../../shared/cron.ts';
import { request, type RequestOptions } from './request.ts';

export type { RunRecord, TaskListAnswer, TaskRecord, TaskType };

type ReadOptions = Pick<RequestOptions, 'signal'>;
const seg = encodeURIComponent;
const userTasks = (username: string) => `community/users/${seg(username)}/tasks`;
const taskPath = (username: string, id: string) => `${userTasks(username)}/${seg(id)}`;

export interface TaskListQuery {
  start?: number;
  num?: number;
  active?: boolean;
  types?: TaskType[];
  sortField?: 'created' | 'modified' | 'title' | 'type' | 'nextRun';
  sortOrder?: 'asc' | 'desc';
}

export interface TaskInput extends CronSchedule {
  type: TaskType;
  title?: string;
  itemId?: string;
  taskURL?: string;
  parameters?: Record<string, unknown>;
  /** Epoch ms; null clears it on update. */
  startDate?: number | null;
  endDate?: number | null;
  /** -1 for no limit. */
  maxOccurrences?: number;
}

function listParams(q: TaskListQuery) {
  return {
    start: q.start ?? 1,
    num: q.num ?? 25,
    active: q.active,
    types: q.types?.length ? q.types.join(',') : undefined,
    sortField: q.sortField,
    sortOrder: q.sortOrder,
  };
}

/** `GET community/users/<u>/tasks` (paged, with activeTasksAvailable). */
export function listTasks(username: string, q: TaskListQuery = {}, options: ReadOptions = {}): Promise<TaskListAnswer> {
  return request<TaskListAnswer>(userTasks(username), listParams(q), { ...options, method: 'GET' });
}

/** `GET portals/<orgId>/allScheduledTasks` (administrators). */
export function listOrgTasks(
  orgId: string,
  q: TaskListQuery & { userFilter?: string } = {},
  options: ReadOptions = {},
): Promise<Omit<TaskListAnswer, 'activeTasksAvailable'>> {
  return request(`portals/${seg(orgId)}/allScheduledTasks`, { ...listParams(q), userFilter: q.userFilter }, { ...options, method: 'GET' });
}

export function getTask(username: string, id: string, options: ReadOptions = {}): Promise<TaskRecord> {
  return request<TaskRecord>(taskPath(username, id), {}, { ...options, method: 'GET' });
}

function inputParams(input: TaskInput) {
  return {
    ...input,
    startDate: input.startDate === null ? '' : input.startDate,
    endDate: input.endDate === null ? '' : input.endDate,
  };
}

/** `POST community/users/<u>/tasks/createTask`; the session token travels in the form (geoprocessing tasks keep it). */
export function createTask(username: string, input: TaskInput): Promise<{ success: boolean; taskId: string }> {
  return request(`${userTasks(username)}/createTask`, inputParams(input), { method: 'POST' });
}

export function updateTask(username: string, id: string, input: Partial<TaskInput> & { isActive?: boolean }): Promise<{ success: boolean }> {
  return request(`${taskPath(username, id)}/update`, inputParams(input as TaskInput), { method: 'POST' });
}

export function setTaskEnabled(username: string, id: string, enabled: boolean): Promise<{ success: boolean }> {
  return request(`${taskPath(username, id)}/${enabled ? 'enable' : 'disable'}`, {}, { method: 'POST' });
}

export function deleteTask(username: string, id: string): Promise<{ success: boolean }> {
  return request(`${taskPath(username, id)}/delete`, {}, { method: 'POST' });
}

/** A local operation of this portal: start a run now. */
export function runTaskNow(username: string, id: string): Promise<{ success: boolean; runId: string }> {
  return request(`${taskPath(username, id)}/run`, {}, { method: 'POST' });
}

export function listTaskRuns(username: string, id: string, options: ReadOptions = {}): Promise<{ runs: RunRecord[] }> {
  return request(`${taskPath(username, id)}/runs`, {}, { ...options, method: 'GET' });
}
