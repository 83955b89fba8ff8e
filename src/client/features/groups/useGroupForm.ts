/** The state of the group form: its values and errors, and saving (a new group whole, an edited one only what changed). */
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { GroupFieldsInput, GroupRecord } from '../../api/index.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCreateGroup, useUpdateGroup } from './mutations.ts';
import { EMPTY_GROUP, GROUP_FORM_FIELDS, groupFormSchema, groupToForm, type GroupFormInput, type GroupFormValues } from './schemas.ts';

export function useGroupForm({ group, onClose, onCreated }: { group?: GroupRecord; onClose: () => void; onCreated?: (group: GroupRecord) => void }) {
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
  const err = (field: keyof GroupFormInput) => {
    const message = (errors[field] as { message?: string } | undefined)?.message;
    return message ? sentence(message) : undefined;
  };

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

  return { form, err, isDirty, formError, saving: saving.isPending, onSubmit };
}

export type GroupFormState = ReturnType<typeof useGroupForm>;
