/**
 * Create or edit a group. Who may see it, and whether members may leave, need privileges: choices
 * the member may not make are disabled with the reason. Editing sends only what changed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Modal, Radio, Select, SimpleGrid, Stack, TagsInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { LIMITS } from '../../../shared/limits.ts';
import type { GroupFieldsInput, GroupRecord } from '../../api/index.ts';
import { CountedTextarea, CountedTextInput } from '../../components/CountedField.tsx';
import { DialogFooter } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useCreateGroup, useUpdateGroup } from './mutations.ts';
import { accessPermission, leavingDisallowedPermission } from './permissions.ts';
import { EMPTY_GROUP, GROUP_FORM_FIELDS, groupFormSchema, groupToForm, type GroupFormInput, type GroupFormValues } from './schemas.ts';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';

const ACCESS_CHOICES = [
  { value: 'private', label: 'Private', description: 'Only its members can find and see it.' },
  { value: 'org', label: 'Organization', description: 'Members of your organization can find and see it.' },
  { value: 'public', label: 'Everyone (public)', description: 'Anyone can find and see it.' },
] as const;

const JOIN_CHOICES = [
  { value: 'none', label: 'Anyone', description: 'Members of your organization and of other organizations can be added.' },
  { value: 'org', label: 'Only members of your organization', description: 'Nobody from another organization can join or be added.' },
  {
    value: 'collaboration',
    label: 'Your organization and partnered organizations',
    description: 'Members of organizations in a partnered collaboration with yours can join too.',
  },
] as const;

const SORT_FIELDS = [
  { value: 'title', label: 'Title' },
  { value: 'owner', label: 'Owner' },
  { value: 'avgRating', label: 'Rating' },
  { value: 'numViews', label: 'Views' },
  { value: 'created', label: 'Date added' },
  { value: 'modified', label: 'Date changed' },
];

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
  const user = useCurrentUser();
  const create = useCreateGroup();
  const update = useUpdateGroup(group?.id ?? '');
  const saving = group ? update : create;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<GroupFormInput, unknown, GroupFormValues>({
    resolver: zodResolver(groupFormSchema),
    defaultValues: group ? groupToForm(group) : EMPTY_GROUP,
    mode: 'onTouched',
  });
  const { errors, dirtyFields, isDirty } = form.formState;
  useReportDirty(isDirty, onDirtyChange);
  const err = (field: keyof GroupFormInput) => {
    const message = (errors[field] as { message?: string } | undefined)?.message;
    return message ? sentence(message) : undefined;
  };
  const leaving = leavingDisallowedPermission(user);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    const onError = (error: unknown) => setFormError(applyServerErrors(error, GROUP_FORM_FIELDS, form.setError));
    if (!group) {
      create.mutate(values, {
        onSuccess: (result) => {
          notifications.show({ color: 'green', title: 'Group created', message: `“${result.group.title}” was created.` });
          onClose();
          onCreated?.(result.group);
        },
        onError,
      });
      return;
    }
    const changed = Object.fromEntries(Object.entries(values).filter(([key]) => dirtyFields[key as keyof GroupFormValues])) as GroupFieldsInput;
    if (!Object.keys(changed).length) return onClose();
    update.mutate(changed, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Group saved', message: `“${values.title}” was saved.` });
        onClose();
      },
      onError,
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={group ? 'Edit group' : 'Create group'}>
      <Stack gap="md">
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
            <TagsInput
              label="Tags"
              description="Press Enter or type a comma after each tag."
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              splitChars={[',']}
              clearable
              acceptValueOnBlur
              error={err('tags')}
            />
          )}
        />
        <Controller
          control={form.control}
          name="access"
          render={({ field }) => (
            <Radio.Group label="Who can see the group" value={field.value} onChange={field.onChange} error={err('access')}>
              <Stack gap="xs" mt={6}>
                {ACCESS_CHOICES.map((choice) => {
                  const permission = accessPermission(user, choice.value);
                  return (
                    <Radio
                      key={choice.value}
                      value={choice.value}
                      label={choice.label}
                      description={permission.allowed ? choice.description : `${choice.description} ${permission.reason}`}
                      disabled={!permission.allowed && field.value !== choice.value}
                    />
                  );
                })}
              </Stack>
            </Radio.Group>
          )}
        />
        <Stack gap="xs">
          <Text size="sm" fw="var(--mantine-font-weight-medium)">
            Membership
          </Text>
          <Checkbox label="Invitation only" description="People join only when a manager adds or invites them." {...form.register('isInvitationOnly')} />
          <Checkbox
            label="Only managers can share content"
            description="A view-only group: members see what managers share."
            {...form.register('isViewOnly')}
          />
          <Checkbox label="Hide the member list" description="Only managers see who is in the group." {...form.register('hiddenMembers')} />
          <Checkbox
            label="Members cannot leave"
            description={leaving.allowed ? 'Only managers can remove members.' : `Only managers can remove members. ${leaving.reason}`}
            disabled={!leaving.allowed && !form.getValues('leavingDisallowed')}
            error={err('leavingDisallowed')}
            {...form.register('leavingDisallowed')}
          />
        </Stack>
        <Controller
          control={form.control}
          name="membershipAccess"
          render={({ field }) => (
            <Radio.Group label="Who can be in the group" value={field.value} onChange={field.onChange} error={err('membershipAccess')}>
              <Stack gap="xs" mt={6}>
                {JOIN_CHOICES.map((choice) => (
                  <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Controller
            control={form.control}
            name="sortField"
            render={({ field }) => (
              <Select
                label="Sort the group's content by"
                data={SORT_FIELDS}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                allowDeselect={false}
                ref={field.ref}
              />
            )}
          />
          <Controller
            control={form.control}
            name="sortOrder"
            render={({ field }) => (
              <Select
                label="Order"
                data={[
                  { value: 'asc', label: 'Ascending' },
                  { value: 'desc', label: 'Descending' },
                ]}
                value={field.value}
                onChange={(v) => v && field.onChange(v)}
                allowDeselect={false}
                ref={field.ref}
              />
            )}
          />
        </SimpleGrid>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving.isPending}>
            {group ? 'Save group' : 'Create group'}
          </Button>
        </DialogFooter>
      </Stack>
    </form>
  );
}
