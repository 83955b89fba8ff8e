/**
 * Create or edit a scheduled task: its type and what it runs on, the type's parameters, the
 * schedule (CronBuilder), start and end dates and maximum runs. The form checks the service's
 * rules first; what the service still refuses is shown beside the field it names.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { TASK_LIMITS, TASK_TYPE_LABELS, TASK_TYPE_RULES, TASK_TYPES, type TaskRecord } from '../../../shared/contract/tasks.ts';
import type { CronField } from '../../../shared/cron.ts';
import { CountedTextInput } from '../../components/CountedField.tsx';
import { CronBuilder } from '../../components/CronBuilder.tsx';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useCreateTask, useUpdateTask } from './mutations.ts';
import { schedulableTaskTypes } from './permissions.ts';
import { fieldsFromItem, TASK_ITEM_FIELDS } from './taskItems.ts';
import { EMPTY_TASK, formToInput, SERVER_FIELD_MAP, taskFormSchema, taskToForm, usesJson, type TaskFormInput, type TaskFormValues } from './schemas.ts';
import { useFormDialog, useReportDirty, type FormDialog } from '../../components/useDirtyGuard.tsx';

export interface TaskFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The task to edit; absent to create one. */
  task?: TaskRecord;
}

export function TaskFormModal({ opened, onClose, task }: TaskFormModalProps) {
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(opened, onClose);
  return (
    <Modal opened={opened} onClose={cancel} title={task ? `Edit ${task.title || 'task'}` : 'New scheduled task'} size="xl" centered>
      {opened ? <TaskForm task={task} onClose={close} onCancel={cancel} onDirtyChange={onDirtyChange} /> : null}
    </Modal>
  );
}

type FieldName = Parameters<ReturnType<typeof useForm<TaskFormInput, unknown, TaskFormValues>>['setError']>[0];

function TaskForm({
  task,
  onClose,
  onCancel,
  onDirtyChange,
}: Omit<TaskFormModalProps, 'opened'> & Pick<FormDialog, 'onDirtyChange'> & { onCancel: () => void }) {
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
  useReportDirty(isDirty, onDirtyChange);
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

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Controller
            control={form.control}
            name="type"
            render={({ field }) => (
              <Select
                label="Type"
                data={typeChoices}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                allowDeselect={false}
                disabled={!!task}
                description={unavailable.length ? `Not open to your role: ${unavailable.map((t) => TASK_TYPE_LABELS[t]).join(', ')}.` : undefined}
              />
            )}
          />
          <CountedTextInput label="Title" {...form.register('title')} error={msg(errors.title)} max={TASK_LIMITS.titleChars} />
        </SimpleGrid>

        {type !== 'ExecuteReport' ? (
          <Controller
            control={form.control}
            name="itemId"
            render={({ field }) => (
              <ItemPicker
                label={`${TASK_ITEM_FIELDS[type].label} (${rules.itemRequired ? 'required' : 'optional'})`}
                description={TASK_ITEM_FIELDS[type].description}
                types={TASK_ITEM_FIELDS[type].types}
                value={field.value}
                onChange={(id, item) => {
                  field.onChange(id);
                  // What follows from the item (a scene service's URL) is filled in; the member may still change it.
                  for (const [name, v] of Object.entries(fieldsFromItem(type, item)))
                    form.setValue(name as 'serviceUrl', v, { shouldDirty: true, shouldValidate: true });
                }}
                inputRef={field.ref}
                error={msg(errors.itemId)}
              />
            )}
          />
        ) : null}

        <TypeParameters form={form} type={type} />

        <Stack gap={4}>
          <Title order={3} size="h4">
            Schedule
          </Title>
          <Controller
            control={form.control}
            name="schedule"
            render={({ field }) => <CronBuilder value={field.value} onChange={field.onChange} window={window} serverErrors={scheduleErrors} />}
          />
        </Stack>

        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            type="datetime-local"
            label="Start (your time)"
            description="Optional: no run before this."
            {...form.register('startDate')}
            error={msg(errors.startDate)}
          />
          <TextInput
            type="datetime-local"
            label="End (your time)"
            description="Optional: no run after this."
            {...form.register('endDate')}
            error={msg(errors.endDate)}
          />
          <Controller
            control={form.control}
            name="maxOccurrences"
            render={({ field }) => (
              <NumberInput
                label="Maximum runs"
                description="Blank: no limit."
                min={1}
                allowDecimal={false}
                value={field.value}
                onChange={(v) => field.onChange(v === '' ? '' : Number(v))}
                ref={field.ref}
                error={msg(errors.maxOccurrences)}
              />
            )}
          />
        </SimpleGrid>

        {formError ? (
          <Alert color="red" variant="light" icon={<IconAlert />} role="alert" title="Not saved">
            {formError}
          </Alert>
        ) : null}
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving.isPending}>
            {task ? 'Save task' : 'Create task'}
          </Button>
        </DialogFooter>
      </Stack>
    </form>
  );
}

function TypeParameters({ form, type }: { form: ReturnType<typeof useForm<TaskFormInput, unknown, TaskFormValues>>; type: TaskFormInput['type'] }) {
  const { errors } = form.formState;
  const msg = (e: { message?: string } | undefined) => (e?.message ? sentence(e.message) : undefined);
  if (type === 'ExecuteReport') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={form.control}
          name="reportType"
          render={({ field }) => (
            <Select
              label="Report of"
              allowDeselect={false}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              data={[
                { value: 'members', label: 'Members' },
                { value: 'items', label: 'Items' },
                { value: 'groups', label: 'Groups' },
              ]}
              description="Each run saves a CSV item in your content."
            />
          )}
        />
        <TextInput label="Report item title" description="The run's date is added." {...form.register('reportTitle')} error={msg(errors.reportTitle)} />
      </SimpleGrid>
    );
  }
  if (type === 'ExecuteSceneCook') {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Scene service URL" required {...form.register('serviceUrl')} error={msg(errors.serviceUrl)} />
        <Controller
          control={form.control}
          name="instances"
          render={({ field }) => (
            <NumberInput
              label="Caching service instances"
              min={1}
              max={64}
              value={field.value}
              onChange={(v) => field.onChange(Number(v) || 1)}
              error={msg(errors.instances)}
            />
          )}
        />
        <TextInput label="Layer" description="Blank: all layers." {...form.register('layer')} />
        <Controller
          control={form.control}
          name="updateMode"
          render={({ field }) => (
            <Select
              label="Update mode"
              allowDeselect={false}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              data={['RECREATE_ALL_NODES', 'PARTIAL_UPDATE_NODES', 'PARTIAL_UPDATE_ATTRIBUTES']}
            />
          )}
        />
      </SimpleGrid>
    );
  }
  return (
    <Stack gap="sm">
      {type === 'GPService' ? (
        <TextInput
          label="Geoprocessing task URL"
          required
          placeholder="https://server/arcgis/rest/services/Tool/GPServer/Task"
          description="Jobs are submitted with your administrator token."
          {...form.register('taskURL')}
          error={msg(errors.taskURL)}
        />
      ) : null}
      {usesJson(type) ? (
        <Textarea
          label={type === 'GPService' ? 'Job inputs (JSON)' : 'Parameters (JSON, optional)'}
          autosize
          minRows={3}
          ff="monospace"
          placeholder={type === 'GPService' ? '{"Input_Features": {"url": "https://…/FeatureServer/0"}}' : '{}'}
          {...form.register('parametersJson')}
          error={msg(errors.parametersJson)}
        />
      ) : null}
      {type !== 'GPService' ? (
        <Text size="xs" c="dimmed">
          Runs of this type are handed to the runner the portal is configured with; without one they fail, saying so.
        </Text>
      ) : null}
    </Stack>
  );
}
