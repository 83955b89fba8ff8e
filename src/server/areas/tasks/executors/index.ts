import type { TaskType } from '../../../../shared/contract/tasks.ts';
import { executeGp } from './gp.ts';
import { executeReport } from './report.ts';
import { executeWithRunner } from './runner.ts';
import type { Executor } from './types.ts';

export const EXECUTORS: Record<TaskType, Executor> = {
  ExecuteReport: executeReport,
  GPService: executeGp,
  ExecuteNotebook: executeWithRunner,
  UpdateInsightsWorkbook: executeWithRunner,
  ExecuteSceneCook: executeWithRunner,
  ExecuteWorkflowManager: executeWithRunner,
};
export type { Executor } from './types.ts';
export { RunFailed } from './types.ts';
