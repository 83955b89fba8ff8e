/**
 * Create or edit a group. Who may see it, and whether members may leave, need privileges: choices
 * the member may not make are disabled with the reason. Editing sends only what changed.
 */
import { Alert, Button, Modal } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { LIMITS } from '../../../shared/limits.ts';
import type { GroupRecord } from '../../api/index.ts';
import { TagField } from '../../components/TagField.tsx';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';
import { GroupVisibilityFields } from './GroupVisibilityFields.tsx';
import { useGroupForm } from './useGroupForm.ts';

export interface GroupFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The group to edit; absent to create one. */
  group?: GroupRecord;
  onCreated?: (group: GroupRecord) => void;
}

export function GroupFormModal({ opened, onClose, group, onCreated }: GroupFormModalProps) {
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(opened, onClose);
  return (
    <Modal opened={opened} onClose={cancel} title={group ? `Edit ${group.title}` : 'Create group'} size="lg" centered>
      {opened ? <GroupForm group={group} onClose={close} onCancel={cancel} onDirtyChange={onDirtyChange} onCreated={onCreated} /> : null}
    </Modal>
  );
}

function GroupForm({
  group,
  onClose,
  onCancel,
  onDirtyChange,
  onCreated,
}: Omit<GroupFormModalProps, 'opened'> & { onCancel: () => void; onDirtyChange: (dirty: boolean) => void }) {
  const { form, err, isDirty, formError, saving, onSubmit } = useGroupForm({ group, onClose, onCreated });
  useReportDirty(isDirty, onDirtyChange);

  return (
    <form onSubmit={onSubmit} noValidate aria-label={group ? 'Edit group' : 'Create group'}>
      <DialogLayout>
        <DialogScroll gap="md">
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title={group ? 'The group was not saved' : 'The group was not created'} role="alert">
              {formError}
            </Alert>
          ) : null}
          <CountedTextInput label="Title" required error={err('title')} data-autofocus {...form.register('title')} max={LIMITS.groupTitleChars} />
          <CountedTextarea
            label="Summary"
            description="A line that says what the group is for."
            autosize
            minRows={2}
            maxRows={4}
            error={err('snippet')}
            {...form.register('snippet')}
            max={LIMITS.snippetChars}
          />
          <CountedTextarea
            label="Description"
            autosize
            minRows={3}
            maxRows={8}
            error={err('description')}
            {...form.register('description')}
            max={LIMITS.descriptionBytes - 1}
          />
          <Controller
            control={form.control}
            name="tags"
            render={({ field }) => (
              <TagField
                label="Tags"
                description="Press Enter or type a comma after each tag."
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                clearable
                error={err('tags')}
              />
            )}
          />
          <GroupVisibilityFields form={form} err={err} />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            {group ? 'Save group' : 'Create group'}
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
