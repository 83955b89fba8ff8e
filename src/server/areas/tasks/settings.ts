/**
 * Scheduled-task settings from the environment, validated when the scheduler starts (each bad
 * value named): active-task limits and the external runner URL of each hand-off type.
 */
import { z } from 'zod';
import { TASK_LIMITS, type TaskType } from '../../../shared/contract/tasks.ts';

export interface TaskSettings {
  activePerUser: number;
  activePerOrg: number;
  /** External runner per type; a type without one fails its runs with a reason saying so. */
  runnerUrls: Partial<Record<TaskType, string>>;
  /** Geoprocessing: how often a submitted job is polled, and how long it may take in all. */
  gpPollMs: number;
  gpTimeoutMs: number;
}

/** The environment variable naming each hand-off type's runner. */
export const RUNNER_ENV: Partial<Record<TaskType, string>> = {
  ExecuteNotebook: 'TASK_RUNNER_NOTEBOOK_URL',
  UpdateInsightsWorkbook: 'TASK_RUNNER_INSIGHTS_URL',
  ExecuteSceneCook: 'TASK_RUNNER_SCENE_URL',
  ExecuteWorkflowManager: 'TASK_RUNNER_WORKFLOW_URL',
};

const count = (fallback: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1).max(1_000_000)).default(fallback);
const ms = (fallback: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number of milliseconds').transform(Number).pipe(z.number().int().min(10)).default(fallback);
const url = z
  .string()
  .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
  .optional();

const envSchema = z.object({
  TASKS_MAX_ACTIVE_PER_USER: count(TASK_LIMITS.activePerUser),
  TASKS_MAX_ACTIVE_PER_ORG: count(TASK_LIMITS.activePerOrg),
  TASK_GP_POLL_MS: ms(2000),
  TASK_GP_TIMEOUT_MS: ms(30 * 60_000),
  TASK_RUNNER_NOTEBOOK_URL: url,
  TASK_RUNNER_INSIGHTS_URL: url,
  TASK_RUNNER_SCENE_URL: url,
  TASK_RUNNER_WORKFLOW_URL: url,
});

export function loadTaskSettings(env: NodeJS.ProcessEnv = process.env): TaskSettings {
  const picked = Object.fromEntries(Object.keys(envSchema.shape).flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const r = envSchema.safeParse(picked);
  if (!r.success) {
    throw new Error(
      `Invalid configuration:\n${r.error.issues.map((i) => `  ${String(i.path[0])}=${JSON.stringify(picked[String(i.path[0])])}: ${i.message}`).join('\n')}`,
    );
  }
  const e = r.data;
  const runnerUrls: Partial<Record<TaskType, string>> = {};
  for (const [type, name] of Object.entries(RUNNER_ENV) as [TaskType, string][]) {
    const v = e[name as keyof typeof e];
    if (typeof v === 'string') runnerUrls[type] = v;
  }
  return {
    activePerUser: e.TASKS_MAX_ACTIVE_PER_USER,
    activePerOrg: e.TASKS_MAX_ACTIVE_PER_ORG,
    runnerUrls,
    gpPollMs: e.TASK_GP_POLL_MS,
    gpTimeoutMs: e.TASK_GP_TIMEOUT_MS,
  };
}

let current: TaskSettings | undefined;

/** The settings in force (read from the environment on first use). */
export function taskSettings(): TaskSettings {
  return (current ??= loadTaskSettings());
}

/** Replace some settings (tests; or a start-up that validated them). Answers the previous ones. */
export function setTaskSettings(patch: Partial<TaskSettings>): TaskSettings {
  const before = taskSettings();
  current = { ...before, ...patch };
  return before;
}
