/**
 * What a scheduled task's item field accepts, per task type: the item types its runner works on
 * (ArcGIS item types), the field's words, and what the chosen item fills in (a scene service's
 * URL is the scene cook's `service_url`).
 */
import type { TaskType } from '../../../shared/contract/tasks.ts';

export interface TaskItemField {
  /** The field's name on screen. */
  label: string;
  description?: string;
  /** The item types the task runs on; absent: any item. */
  types?: readonly string[];
}

export const TASK_ITEM_FIELDS: Record<Exclude<TaskType, 'ExecuteReport'>, TaskItemField> = {
  ExecuteNotebook: { label: 'Notebook', description: 'The notebook to run.', types: ['Notebook'] },
  UpdateInsightsWorkbook: { label: 'Insights workbook', description: 'The Insights workbook to update.', types: ['Insights Workbook'] },
  ExecuteSceneCook: { label: 'Scene service', description: 'The scene service whose cache is rebuilt; its URL is filled in below.', types: ['Scene Service'] },
  ExecuteWorkflowManager: { label: 'Workflow', description: 'The Workflow Manager item to run.', types: ['Workflow'] },
  GPService: { label: 'Item', description: 'The geoprocessing service item, if it has one.', types: ['Geoprocessing Service'] },
};

/** The form fields a chosen item fills: a scene service's URL for a scene cook (when it has one). */
export function fieldsFromItem(type: TaskType, item: { url?: string | null } | undefined): { serviceUrl?: string } {
  if (type === 'ExecuteSceneCook' && item?.url) return { serviceUrl: item.url };
  return {};
}
