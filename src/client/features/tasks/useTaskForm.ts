/**
 * The state of the task form: the types the member may schedule, the values and errors (the
 * schedule's server errors per cron field), and saving with the service's refusals shown beside
 * the fields they name.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { TASK_TYPE_LABELS, TASK_TYPES, TASK_TYPE_RULES, type TaskRecord } from '../../../shared/contract/tasks.ts';
import type { CronField } from '../../../shared/cron.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useCreateTask, useUpdateTask } from './mutations.ts';
import { schedulableTaskTypes } from './permissions.ts';
import { EMPTY_TASK, formToInput, SERVER_FIELD_MAP, taskFormSchema, taskToForm, type TaskFormInput, type TaskFormValues } from './schemas.ts';

export type TaskFormApi = ReturnType<typeof useForm<TaskFormInput, unknown, TaskFormValues>>;
type FieldName = Parameters<TaskFormApi['setError']>[0];

export function useTaskForm({ task, onClose }: { task?: TaskRecord; onClose: () => void }) {
  const user = useCurrentUser();
  const schedulable = useMemo(() => schedulableTaskTypes(user), [user]);
  const unavailable = TASK_TYPES.filter((t) => !schedulable.has(t));
  const create = useCreateTask(user.username);
  const update = useUpdateTask(task?.userId ?? user.username, task?.id ?? '');
  const saving = task ? update : create;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TaskFormInput, unknown, TaskFormValues>({
    resolver: zodResolver(taskFormSchema),
    // A new task starts on a type the member may schedule (reports and geoprocessing are for administrators).
    defaultValues: task ? taskToForm(task) : schedulable.has(EMPTY_TASK.type) ? EMPTY_TASK : { ...EMPTY_TASK, type: 'ExecuteWorkflowManager' },
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  const type = useWatch({ control: form.control, name: 'type' });
  const startDate = useWatch({ control: form.control, name: 'startDate' });
  const endDate = useWatch({ control: form.control, name: 'endDate' });
  const window = useMemo(() => ({ startDate: startDate ? Date.parse(startDate) : null, endDate: endDate ? Date.parse(endDate) : null }), [startDate, endDate]);
  const rules = TASK_TYPE_RULES[type];
  const msg = (e: { message?: string } | undefined) => (e?.message ? sentence(e.message) : undefined);
  const scheduleErrors = Object.fromEntries(
    Object.entries(errors.schedule ?? {}).flatMap(([f, e]) => ((e as { type?: string })?.type === 'server' ? [[f, (e as { message: string }).message]] : [])),
  ) as Partial<Record<CronField, string>>;

  const typeChoices = TASK_TYPES.map((t) => ({
    value: t,
    label: TASK_TYPE_LABELS[t],
    disabled: !schedulable.has(t),
  }));

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    const input = formToInput(values);
    const onError = (error: unknown) =>
      setFormError(
        applyServerErrors<FieldName>(error, Object.values(SERVER_FIELD_MAP) as FieldName[], form.setError, SERVER_FIELD_MAP as Record<string, FieldName>),
      );
    const done = (what: string) => {
      notifications.show({ color: 'green', title: what, message: `“${values.title || TASK_TYPE_LABELS[values.type]}” is scheduled.` });
      onClose();
    };
    if (task) update.mutate(input, { onSuccess: () => done('Task saved'), onError });
    else create.mutate(input, { onSuccess: () => done('Task created'), onError });
  });

  return { form, isDirty, errors, msg, type, rules, window, scheduleErrors, unavailable, typeChoices, formError, saving: saving.isPending, onSubmit };
}
