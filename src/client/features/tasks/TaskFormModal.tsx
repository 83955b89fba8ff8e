/**
 * Create or edit a scheduled task: its type and what it runs on, the type's parameters, the
 * schedule (CronBuilder), start and end dates and maximum runs. The form checks the service's
 * rules first; what the service still refuses is shown beside the field it names.
 */
import { Alert, Button, Modal, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { TASK_LIMITS, TASK_TYPE_LABELS, type TaskRecord } from '../../../shared/contract/tasks.ts';
import { CountedTextInput } from '../../components/CountedField.tsx';
import { CronBuilder } from '../../components/CronBuilder.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { ItemPicker } from '../../components/ItemPicker.tsx';
import { useFormDialog, useReportDirty, type FormDialog } from '../../components/useDirtyGuard.tsx';
import { fieldsFromItem, TASK_ITEM_FIELDS } from './taskItems.ts';
import { TaskRunWindowFields } from './TaskRunWindowFields.tsx';
import { TaskTypeParameters } from './TaskTypeParameters.tsx';
import { useTaskForm } from './useTaskForm.ts';

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

function TaskForm({
  task,
  onClose,
  onCancel,
  onDirtyChange,
}: Omit<TaskFormModalProps, 'opened'> & Pick<FormDialog, 'onDirtyChange'> & { onCancel: () => void }) {
  const { form, isDirty, errors, msg, type, rules, window, scheduleErrors, unavailable, typeChoices, formError, saving, onSubmit } = useTaskForm({
    task,
    onClose,
  });
  useReportDirty(isDirty, onDirtyChange);

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogLayout>
        <DialogScroll gap="md">
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

          <TaskTypeParameters form={form} type={type} />

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

          <TaskRunWindowFields form={form} />

          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} role="alert" title="Not saved">
              {formError}
            </Alert>
          ) : null}
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {task ? 'Save task' : 'Create task'}
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
