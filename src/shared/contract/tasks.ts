/** Scheduled tasks (spec §2 Task, §3, §4.2; facts §3.2, §7). Shared by the service and the console. */
import type { Privilege } from '../privileges.ts';
import { z } from 'zod';
import { authorityGrants, defaultAdmin, ownerOrDefaultAdmin, ownReaching, type Authority, type AuthorityHolder } from '../authority.ts';
import { CRON_FIELD_MAX_LENGTH, type CronSchedule } from '../cron.ts';
import { commaList, jsonObject, pagingParams, wireBool, wireInt } from './wire.ts';

export const TASK_TYPES = ['ExecuteNotebook', 'UpdateInsightsWorkbook', 'ExecuteSceneCook', 'ExecuteWorkflowManager', 'ExecuteReport', 'GPService'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** Types whose runs are handed to an external runner (configured per type). */
export const RUNNER_TASK_TYPES = ['ExecuteNotebook', 'UpdateInsightsWorkbook', 'ExecuteSceneCook', 'ExecuteWorkflowManager'] as const;

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  ExecuteNotebook: 'Notebook',
  UpdateInsightsWorkbook: 'Insights workbook',
  ExecuteSceneCook: 'Scene layer cache',
  ExecuteWorkflowManager: 'Workflow',
  ExecuteReport: 'Administrative report',
  GPService: 'Geoprocessing service',
};

/** Per type: whether `itemId` and `parameters` are required, and whether `taskURL` is (spec §4.2). */
export const TASK_TYPE_RULES: Record<TaskType, { itemRequired: boolean; parametersRequired: boolean; taskUrlRequired: boolean }> = {
  ExecuteNotebook: { itemRequired: true, parametersRequired: false, taskUrlRequired: false },
  UpdateInsightsWorkbook: { itemRequired: true, parametersRequired: false, taskUrlRequired: false },
  ExecuteSceneCook: { itemRequired: true, parametersRequired: true, taskUrlRequired: false },
  ExecuteWorkflowManager: { itemRequired: true, parametersRequired: false, taskUrlRequired: false },
  ExecuteReport: { itemRequired: false, parametersRequired: true, taskUrlRequired: false },
  GPService: { itemRequired: false, parametersRequired: true, taskUrlRequired: true },
};

/**
 * Who may do what with tasks — the service decides with these, the console shows the same answer.
 * Another member's tasks (reading, changing, running, creating under their name) and the list of all
 * the organization's tasks: default administrators only. ArcGIS documents "All Scheduled Tasks" as an
 * administrator's operation and names no privilege for it; a stored task runs with its owner's
 * authority (a report, a geoprocessing job with the owner's token), so acting on it is acting as them.
 */
export const TASKS_OF_OTHERS = ownerOrDefaultAdmin();
export const ALL_TASKS_AUTHORITY = defaultAdmin();
/** Geoprocessing tasks carry an administrator's token to a federated server: default administrators only. */
/**
 * Who may call each task operation (community/users/<u>/tasks/…, portals/<orgId>/allScheduledTasks):
 * the member themself or a default administrator of their organization (TASKS_OF_OTHERS); the
 * organization's list, default administrators only. The service declares its routes with these
 * entries; the console asks the same (lib/can.ts).
 */
export const TASK_OPERATIONS = {
  // Under the member's own name only (the path's member must be the caller); what the task runs on
  // (another member's item, for a default administrator) as TASKS_OF_OTHERS allows.
  createTask: ownReaching(TASKS_OF_OTHERS),
  listTasks: ownerOrDefaultAdmin(),
  task: ownerOrDefaultAdmin(),
  updateTask: ownerOrDefaultAdmin(),
  enableTask: ownerOrDefaultAdmin(),
  deleteTask: ownerOrDefaultAdmin(),
  runTask: ownerOrDefaultAdmin(),
  taskRuns: ownerOrDefaultAdmin(),
  allScheduledTasks: defaultAdmin(),
} as const satisfies Record<string, Authority>;
export const GP_TASK_AUTHORITY = defaultAdmin();
/** The privileges scheduling a task of each type needs (a report also needs its report type's view privilege: REPORT_PRIVILEGES). */
export const TASK_TYPE_PRIVILEGES: Record<TaskType, readonly Privilege[]> = {
  ExecuteNotebook: ['portal:user:createItem', 'premium:publisher:scheduleNotebooks'],
  UpdateInsightsWorkbook: ['portal:user:createItem'],
  ExecuteSceneCook: ['portal:user:createItem'],
  ExecuteWorkflowManager: ['portal:user:createItem'],
  ExecuteReport: ['portal:user:createItem', 'portal:admin:createReports'],
  GPService: ['portal:user:createItem'],
};

/** Whether `holder` may schedule tasks of `type` at all (a report's type is chosen later in its form). */
export function mayScheduleTaskType(holder: AuthorityHolder, type: TaskType): boolean {
  if (!TASK_TYPE_PRIVILEGES[type].every((p) => holder.privileges.has(p))) return false;
  return type !== 'GPService' || authorityGrants(GP_TASK_AUTHORITY, holder);
}

export const TASK_LIMITS = {
  /** Active tasks one member may have (facts §3.8: 20 per user), unless configured otherwise. */
  activePerUser: 20,
  /** Active tasks in one organization (200), unless configured otherwise. */
  activePerOrg: 200,
  /** Consecutive failed runs after which a task is disabled (FailedRunsToDisableTask). */
  failuresToDisable: 5,
  titleChars: 256,
  urlChars: 2048,
  /** Runs kept and listed per task (the Python client notes at most 30 are returned). */
  runsListed: 30,
  maxOccurrences: 1_000_000,
} as const;

export const RUN_STATUSES = ['scheduled', 'executing', 'succeeded', 'failed', 'skipped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type TaskState = 'active' | 'paused' | 'completed' | 'failed';

// ---- parameter shapes per type (spec §4.2) ----

export const sceneCookParameters = z
  .object({
    service_url: z.string().trim().min(1, 'is required').max(TASK_LIMITS.urlChars),
    num_of_caching_service_instances: z.number().int().min(1).max(64),
    layer: z.union([z.string(), z.array(z.string())]).optional(),
    update_mode: z.enum(['RECREATE_ALL_NODES', 'PARTIAL_UPDATE_NODES', 'PARTIAL_UPDATE_ATTRIBUTES']),
  })
  .passthrough();

/** One input of a geoprocessing service: a plain value, or one of the object forms of §4.2. */
const gpInput = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.object({ url: z.string().min(1) }).passthrough(),
  z.object({ distance: z.number(), units: z.string().min(1) }).passthrough(),
  z
    .object({
      serviceProperties: z.object({ serviceUrl: z.string().min(1) }).passthrough(),
      itemProperties: z.object({ overwrite: z.boolean(), newFeatureServiceOnOverwriteFail: z.boolean() }).partial().passthrough().optional(),
    })
    .passthrough(),
  z.record(z.string(), z.unknown()),
]);
export const gpParameters = z.record(z.string(), gpInput).refine((v) => Object.keys(v).length > 0, 'must name at least one input of the service');

export const REPORT_TYPES = ['members', 'items', 'groups'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** Administrative report tasks: portal:admin:createReports, and the view privilege of what each report lists. */
export const REPORT_PRIVILEGES: Record<ReportType, readonly Privilege[]> = {
  members: ['portal:admin:createReports', 'portal:admin:viewUsers'],
  items: ['portal:admin:createReports', 'portal:admin:viewItems'],
  groups: ['portal:admin:createReports', 'portal:admin:viewGroups'],
};
/** An administrative report of the organization, stored as a CSV item of the task's owner (a local shape). */
export const reportParameters = z
  .object({
    reportType: z.enum(REPORT_TYPES),
    /** Title of the CSV item each run creates; the run's date is appended. */
    title: z.string().trim().min(1).max(200).optional(),
  })
  .passthrough();

export const notebookParameters = z
  .object({
    updatePortalItem: z.boolean().optional(),
    saveInjectedParameters: z.boolean().optional(),
    notebookParameters: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    timeout: z.number().int().min(1).optional(),
  })
  .passthrough();

export const anyParameters = z.record(z.string(), z.unknown());

export const TASK_PARAMETER_SHAPES: Record<TaskType, z.ZodType> = {
  ExecuteNotebook: notebookParameters,
  UpdateInsightsWorkbook: anyParameters,
  ExecuteSceneCook: sceneCookParameters,
  ExecuteWorkflowManager: anyParameters,
  ExecuteReport: reportParameters,
  GPService: gpParameters,
};

// ---- wire parameters ----

const cronField = z.string().trim().min(1, 'is required').max(CRON_FIELD_MAX_LENGTH, `must be at most ${CRON_FIELD_MAX_LENGTH} characters`);
const epochMs = wireInt(0, 8_640_000_000_000_000);
/** -1 means unlimited (as admin task records show it). */
const occurrences = wireInt(-1, TASK_LIMITS.maxOccurrences);

export const taskFields = z.object({
  title: z.string().trim().max(TASK_LIMITS.titleChars, `must be at most ${TASK_LIMITS.titleChars} characters`).optional(),
  taskURL: z.string().trim().max(TASK_LIMITS.urlChars, `must be at most ${TASK_LIMITS.urlChars} characters`).optional(),
  taskUrl: z.string().trim().max(TASK_LIMITS.urlChars, `must be at most ${TASK_LIMITS.urlChars} characters`).optional(),
  parameters: jsonObject(z.record(z.string(), z.unknown())).optional(),
  itemId: z.string().trim().max(64).optional(),
  // "" clears a date (on update) and means no limit for maxOccurrences.
  startDate: z.union([epochMs, z.literal('').transform(() => null)]).optional(),
  endDate: z.union([epochMs, z.literal('').transform(() => null)]).optional(),
  maxOccurrences: z.union([occurrences, z.literal('').transform(() => -1)]).optional(),
});

export const createTaskParams = taskFields.extend({
  type: z.enum(TASK_TYPES),
  minute: cronField,
  hour: cronField,
  dayOfMonth: cronField,
  month: cronField,
  dayOfWeek: cronField,
});
export type CreateTaskParams = z.output<typeof createTaskParams>;

/** Update: every field optional (the Python client resends all); `isActive` enables or disables. */
export const updateTaskParams = taskFields.extend({
  type: z.enum(TASK_TYPES).optional(),
  minute: cronField.optional(),
  hour: cronField.optional(),
  dayOfMonth: cronField.optional(),
  month: cronField.optional(),
  dayOfWeek: cronField.optional(),
  isActive: wireBool.optional(),
});
export type UpdateTaskParams = z.output<typeof updateTaskParams>;

const TASK_SORT_FIELDS: Record<string, string> = {
  created: 'created',
  updated: 'modified',
  modified: 'modified',
  title: 'title',
  type: 'type',
  nextrun: 'nextRun',
};

export const taskListParams = pagingParams.extend({
  itemId: z.string().trim().max(64).optional(),
  active: wireBool.optional(),
  types: commaList.pipe(z.array(z.enum(TASK_TYPES))).optional(),
  status: z.enum(['active', 'paused', 'completed', 'failed']).optional(),
  /**
   * "Sort field names are not case sensitive"; the documented names are type, title, created,
   * updated and nextRun ("All User Scheduled Tasks"). `modified` is this portal's earlier name for `updated`.
   */
  sortField: z
    .string()
    .transform((s) => TASK_SORT_FIELDS[s.toLowerCase()] ?? s)
    .pipe(z.enum(['created', 'modified', 'title', 'type', 'nextRun']))
    .default('created'),
  sortOrder: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(['asc', 'desc']))
    .default('desc'),
});
export type TaskListParams = z.output<typeof taskListParams>;

export const allTasksParams = taskListParams.extend({
  userFilter: z.string().trim().max(128).optional(),
});

// ---- records ----

export interface TaskRecord {
  id: string;
  itemId: string | null;
  type: TaskType;
  title: string;
  /** Owner username. */
  userId: string;
  taskUrl: string | null;
  cronSchedule: CronSchedule;
  maxOccurrences: number;
  parameters: Record<string, unknown>;
  created: number;
  updated: number;
  startDate: number | null;
  endDate: number | null;
  active: boolean;
  taskState: TaskState;
  /** Why the task stopped (disabled, item reassigned, repeated failures), or null. */
  stateReason: string | null;
  /** Next scheduled run (epoch ms UTC), null when none. A local extra. */
  nextRun: number | null;
  lastStart: number | null;
  lastRunStatus: RunStatus | null;
  lastRunResult: string | null;
  runCount: number;
  consecutiveFailures: number;
}

export interface RunRecord {
  runId: string;
  taskId: string;
  status: RunStatus;
  result: string;
  /** The time the run was scheduled for. */
  scheduled: number;
  started: number | null;
  finished: number | null;
  created: number;
  modified: number;
}

export interface TaskListAnswer {
  total: number;
  start: number;
  num: number;
  nextStart: number;
  activeTasksAvailable: number;
  tasks: TaskRecord[];
}
