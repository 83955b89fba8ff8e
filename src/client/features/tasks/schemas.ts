/**
 * The task form: one schema for every type, with the per-type rules of the service (which of item,
 * task URL and parameters are required, and the parameter shapes) checked before sending.
 */
import { z } from 'zod';
import {
  REPORT_TYPES,
  TASK_LIMITS,
  TASK_PARAMETER_SHAPES,
  TASK_TYPE_RULES,
  TASK_TYPES,
  type TaskRecord,
  type TaskType,
} from '../../../shared/contract/tasks.ts';
import { CRON_FIELDS, validateSchedule, type CronSchedule } from '../../../shared/cron.ts';
import type { TaskInput } from '../../api/index.ts';
import { formatCount, tooLong } from '../../lib/forms.ts';

const UPDATE_MODES = ['RECREATE_ALL_NODES', 'PARTIAL_UPDATE_NODES', 'PARTIAL_UPDATE_ATTRIBUTES'] as const;

export const taskFormSchema = z
  .object({
    type: z.enum(TASK_TYPES),
    title: z.string().trim().max(TASK_LIMITS.titleChars, tooLong('the title', TASK_LIMITS.titleChars)),
    itemId: z.string().trim(),
    taskURL: z.string().trim().max(TASK_LIMITS.urlChars, tooLong('the URL', TASK_LIMITS.urlChars)),
    reportType: z.enum(REPORT_TYPES),
    reportTitle: z.string().trim().max(200, tooLong('the report title', 200)),
    serviceUrl: z.string().trim().max(TASK_LIMITS.urlChars, tooLong('the URL', TASK_LIMITS.urlChars)),
    instances: z.number().int().min(1).max(64),
    layer: z.string().trim(),
    updateMode: z.enum(UPDATE_MODES),
    /** Other types' parameters as JSON text. */
    parametersJson: z.string(),
    schedule: z.object({ minute: z.string(), hour: z.string(), dayOfMonth: z.string(), month: z.string(), dayOfWeek: z.string() }),
    /** `datetime-local` values (the member's time zone); "" for none. */
    startDate: z.string(),
    endDate: z.string(),
    /** Blank: no limit. */
    maxOccurrences: z.union([
      z
        .number()
        .int('Enter a whole number of runs')
        .min(1, 'Enter at least 1 run, or leave it blank for no limit')
        .max(TASK_LIMITS.maxOccurrences, `Enter at most ${formatCount(TASK_LIMITS.maxOccurrences)} runs`),
      z.literal(''),
    ]),
  })
  .superRefine((v, ctx) => {
    const rules = TASK_TYPE_RULES[v.type];
    if (rules.itemRequired && !v.itemId) ctx.addIssue({ code: 'custom', path: ['itemId'], message: 'Choose the item this task works on' });
    if (rules.taskUrlRequired && !/^https?:\/\/\S+$/.test(v.taskURL))
      ctx.addIssue({ code: 'custom', path: ['taskURL'], message: 'Enter the http:// or https:// URL of the geoprocessing task' });
    if (v.type === 'ExecuteSceneCook' && !/^https?:\/\/\S+$/.test(v.serviceUrl))
      ctx.addIssue({ code: 'custom', path: ['serviceUrl'], message: 'Enter the http:// or https:// URL of the scene service' });
    if (usesJson(v.type)) {
      const parsed = parseJson(v.parametersJson);
      if (parsed === undefined)
        ctx.addIssue({ code: 'custom', path: ['parametersJson'], message: 'Enter the parameters as a JSON object, e.g. {"name": "value"}' });
      else if (rules.parametersRequired && !Object.keys(parsed).length)
        ctx.addIssue({ code: 'custom', path: ['parametersJson'], message: 'Enter the parameters: this type of task needs them' });
      else if (Object.keys(parsed).length) {
        const r = TASK_PARAMETER_SHAPES[v.type].safeParse(parsed);
        if (!r.success)
          ctx.addIssue({
            code: 'custom',
            path: ['parametersJson'],
            message: r.error.issues.map((i) => `${i.path.join('.') || 'parameters'}: ${i.message}`).join('; '),
          });
      }
    }
    const check = validateSchedule(v.schedule);
    if (!check.ok) for (const [f, p] of Object.entries(check.errors)) ctx.addIssue({ code: 'custom', path: ['schedule', f], message: p });
    const start = v.startDate ? Date.parse(v.startDate) : null;
    const end = v.endDate ? Date.parse(v.endDate) : null;
    if (start !== null && end !== null && end <= start) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'Choose an end after the start' });
  });

export type TaskFormInput = z.input<typeof taskFormSchema>;
export type TaskFormValues = z.output<typeof taskFormSchema>;

/** Types whose parameters are typed as JSON (the others have their own fields). */
export const usesJson = (type: TaskType) => type !== 'ExecuteReport' && type !== 'ExecuteSceneCook';

function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const EMPTY_TASK: TaskFormInput = {
  type: 'ExecuteReport',
  title: '',
  itemId: '',
  taskURL: '',
  reportType: 'members',
  reportTitle: '',
  serviceUrl: '',
  instances: 2,
  layer: '',
  updateMode: 'PARTIAL_UPDATE_NODES',
  parametersJson: '',
  schedule: { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' },
  startDate: '',
  endDate: '',
  maxOccurrences: '',
};

/** epoch ms → a `datetime-local` value in the member's time zone. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function taskToForm(t: TaskRecord): TaskFormInput {
  const p = t.parameters;
  return {
    ...EMPTY_TASK,
    type: t.type,
    title: t.title,
    itemId: t.itemId ?? '',
    taskURL: t.taskUrl ?? '',
    reportType: (REPORT_TYPES as readonly string[]).includes(String(p.reportType)) ? (p.reportType as TaskFormInput['reportType']) : 'members',
    reportTitle: typeof p.title === 'string' ? p.title : '',
    serviceUrl: typeof p.service_url === 'string' ? p.service_url : '',
    instances: typeof p.num_of_caching_service_instances === 'number' ? p.num_of_caching_service_instances : 2,
    layer: Array.isArray(p.layer) ? p.layer.join(',') : typeof p.layer === 'string' ? p.layer : '',
    updateMode: (UPDATE_MODES as readonly string[]).includes(String(p.update_mode)) ? (p.update_mode as TaskFormInput['updateMode']) : 'PARTIAL_UPDATE_NODES',
    parametersJson: usesJson(t.type) && Object.keys(p).length ? JSON.stringify(p, null, 2) : '',
    schedule: { ...t.cronSchedule },
    startDate: toLocalInput(t.startDate),
    endDate: toLocalInput(t.endDate),
    maxOccurrences: t.maxOccurrences > 0 ? t.maxOccurrences : '',
  };
}

export function formToInput(v: TaskFormValues): TaskInput {
  let parameters: Record<string, unknown> | undefined;
  if (v.type === 'ExecuteReport') parameters = { reportType: v.reportType, ...(v.reportTitle ? { title: v.reportTitle } : {}) };
  else if (v.type === 'ExecuteSceneCook')
    parameters = {
      service_url: v.serviceUrl,
      num_of_caching_service_instances: v.instances,
      ...(v.layer ? { layer: v.layer } : {}),
      update_mode: v.updateMode,
    };
  else parameters = parseJson(v.parametersJson) ?? {};
  const schedule = Object.fromEntries(CRON_FIELDS.map((f) => [f, v.schedule[f].trim()])) as unknown as CronSchedule;
  return {
    type: v.type,
    title: v.title,
    itemId: v.itemId || undefined,
    taskURL: TASK_TYPE_RULES[v.type].taskUrlRequired ? v.taskURL : undefined,
    parameters,
    ...schedule,
    startDate: v.startDate ? Date.parse(v.startDate) : null,
    endDate: v.endDate ? Date.parse(v.endDate) : null,
    maxOccurrences: v.maxOccurrences === '' ? -1 : v.maxOccurrences,
  };
}

/** Server parameters → form fields, for placing the service's field errors. */
export const SERVER_FIELD_MAP: Record<string, string> = {
  taskURL: 'taskURL',
  itemId: 'itemId',
  title: 'title',
  parameters: 'parametersJson',
  startDate: 'startDate',
  endDate: 'endDate',
  maxOccurrences: 'maxOccurrences',
  minute: 'schedule.minute',
  hour: 'schedule.hour',
  dayOfMonth: 'schedule.dayOfMonth',
  month: 'schedule.month',
  dayOfWeek: 'schedule.dayOfWeek',
};
