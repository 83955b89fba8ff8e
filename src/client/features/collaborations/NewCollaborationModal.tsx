/**
 * A new collaboration hosted by the organization, with its first workspace: the name and
 * description, the workspace's name, the host's group that exchanges through it (picked from the
 * organization's groups), how the host takes part (send, receive, both) and the host contact.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, Select, SimpleGrid, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { COLLABORATION_LIMITS, WORKSPACE_ACCESS } from '../../../shared/contract/collaborations.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { announce } from '../../lib/announce.ts';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useCreateCollaboration, WorkspaceStepError } from './mutations.ts';
import { ACCESS_LABELS, NEW_COLLABORATION_FIELDS, newCollaborationSchema, type NewCollaborationInput, type NewCollaborationValues } from './schemas.ts';
import { orgGroupsQuery } from '../../api/queries/groups.ts';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';

export function NewCollaborationModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated?: (id: string) => void }) {
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(opened, onClose);
  return (
    <Modal opened={opened} onClose={cancel} title="New collaboration" size="lg" centered>
      {opened ? <NewCollaborationForm onClose={close} onCancel={cancel} onDirtyChange={onDirtyChange} onCreated={onCreated} /> : null}
    </Modal>
  );
}

function NewCollaborationForm({
  onClose,
  onCancel,
  onDirtyChange,
  onCreated,
}: {
  onClose: () => void;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
  onCreated?: (id: string) => void;
}) {
  const user = useCurrentUser();
  const create = useCreateCollaboration(user.orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const groups = useQuery(orgGroupsQuery(user.orgId));
  const form = useForm<NewCollaborationInput, unknown, NewCollaborationValues>({
    resolver: zodResolver(newCollaborationSchema),
    defaultValues: {
      name: '',
      description: '',
      workspaceName: '',
      groupId: '',
      accessMode: 'sendAndReceive',
      contactFirstname: user.firstName ?? '',
      contactLastname: user.lastName ?? '',
      contactEmail: user.email ?? '',
    },
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  useReportDirty(isDirty, onDirtyChange);
  const err = (field: keyof NewCollaborationInput) => {
    const message = errors[field]?.message;
    return message ? sentence(message) : undefined;
  };

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(values, {
      onSuccess: (c) => {
        const message = `“${c.name}” was created with the workspace “${values.workspaceName}”. Invite participants from its panel.`;
        notifications.show({ color: 'green', title: 'Collaboration created', message });
        announce(`Collaboration created. ${message}`);
        onClose();
        onCreated?.(c.id);
      },
      onError: (error) => {
        const message =
          error instanceof WorkspaceStepError
            ? (applyServerErrors(error.cause, NEW_COLLABORATION_FIELDS, form.setError, { name: 'workspaceName', access: 'accessMode' }) ?? error.message)
            : applyServerErrors(error, NEW_COLLABORATION_FIELDS, form.setError);
        const said = error instanceof WorkspaceStepError ? error.message : message;
        setFormError(said);
        announce(`The collaboration was not created. ${said ?? 'Check the fields marked.'}`, 'assertive');
      },
    });
  });

  const groupOptions = (groups.data?.results ?? []).map((g) => ({ value: g.id, label: g.title }));
  return (
    <form onSubmit={onSubmit} noValidate aria-label="New collaboration">
      <DialogLayout>
        <DialogScroll gap="md">
          {formError ? (
            <Alert color="red" variant="light" title="The collaboration was not created" role="alert">
              {formError}
            </Alert>
          ) : null}
          <TextInput label="Name" required maxLength={COLLABORATION_LIMITS.nameChars} error={err('name')} data-autofocus {...form.register('name')} />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxLength={COLLABORATION_LIMITS.descriptionChars}
            error={err('description')}
            {...form.register('description')}
          />
          <Text fw={600} size="sm" mt="xs">
            First workspace
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Workspace name"
              required
              maxLength={COLLABORATION_LIMITS.nameChars}
              error={err('workspaceName')}
              {...form.register('workspaceName')}
            />
            <Controller
              control={form.control}
              name="groupId"
              render={({ field }) => (
                <Select
                  label="Your group in the workspace"
                  description="Content shared to this group goes to the participants."
                  required
                  searchable
                  data={groupOptions}
                  value={field.value || null}
                  onChange={(v) => field.onChange(v ?? '')}
                  onBlur={field.onBlur}
                  placeholder={groups.isPending ? 'Loading groups…' : 'Choose a group'}
                  nothingFoundMessage={
                    groups.isError
                      ? 'The groups could not be loaded'
                      : groupOptions.length
                        ? 'No group of your organization has this name'
                        : 'Your organization has no group yet: create one on the Groups page first'
                  }
                  error={err('groupId')}
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="accessMode"
            render={({ field }) => (
              <Select
                label="Your organization"
                description="Whether your organization sends content to the workspace, receives it, or both."
                required
                allowDeselect={false}
                data={WORKSPACE_ACCESS.map((a) => ({ value: a, label: ACCESS_LABELS[a] }))}
                value={field.value}
                onChange={(v) => field.onChange(v ?? 'sendAndReceive')}
                onBlur={field.onBlur}
                error={err('accessMode')}
              />
            )}
          />
          <Text fw={600} size="sm" mt="xs">
            Host contact
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Contact first name" required autoComplete="given-name" error={err('contactFirstname')} {...form.register('contactFirstname')} />
            <TextInput label="Contact last name" required autoComplete="family-name" error={err('contactLastname')} {...form.register('contactLastname')} />
          </SimpleGrid>
          <TextInput label="Contact e-mail" type="email" required autoComplete="email" error={err('contactEmail')} {...form.register('contactEmail')} />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create collaboration
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
