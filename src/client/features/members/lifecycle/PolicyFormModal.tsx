/**
 * Create or edit an inactivity policy: after how many quiet days members are warned, after how many
 * they are disabled or moved to a role and user type (the pair the user type allows, the same rule
 * the portal applies). A saved policy stays as it was (on or off); a new one starts off, so its
 * preview is seen before it is switched on.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { describeError, type RoleRecord } from '../../../api/index.ts';
import type { InactivityPolicy } from '../../../api/memberLifecycle.ts';
import { ControlledSelect } from '../../../components/ControlledSelect.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../../components/DialogFooter.tsx';
import { IconAlert } from '../../../components/icons.tsx';
import { useFormDialog, useReportDirty } from '../../../components/useDirtyGuard.tsx';
import { LICENSE_SELECT_DATA } from '../../../lib/licenses.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { roleChoices } from '../roleChoices.ts';
import { useSavePolicy } from './mutations.ts';
import { policyFormSchema, type PolicyFormInput, type PolicyFormValues } from './schemas.ts';

export interface PolicyFormModalProps {
  /** `new` for a new policy, a policy to edit, or null: closed. */
  policy: InactivityPolicy | 'new' | null;
  customRoles: readonly RoleRecord[] | undefined;
  onClose: (saved?: InactivityPolicy) => void;
}

export function PolicyFormModal({ policy, customRoles, onClose }: PolicyFormModalProps) {
  const { cancel, close, onDirtyChange } = useFormDialog(policy !== null, onClose);
  const editing = policy && policy !== 'new' ? policy : undefined;
  return (
    <Modal opened={policy !== null} onClose={cancel} title={editing ? `Edit ${editing.title}` : 'New inactivity policy'} centered size="lg">
      {policy ? (
        <PolicyForm
          key={editing?.id ?? 'new'}
          policy={editing}
          customRoles={customRoles}
          onDone={(saved) => {
            close();
            onClose(saved);
          }}
          onCancel={cancel}
          onDirtyChange={onDirtyChange}
        />
      ) : null}
    </Modal>
  );
}

interface FormProps {
  policy: InactivityPolicy | undefined;
  customRoles: readonly RoleRecord[] | undefined;
  onDone: (saved: InactivityPolicy) => void;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

function PolicyForm({ policy, customRoles, onDone, onCancel, onDirtyChange }: FormProps) {
  const user = useCurrentUser();
  const save = useSavePolicy(user.orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PolicyFormInput, unknown, PolicyFormValues>({
    resolver: zodResolver(policyFormSchema),
    defaultValues: {
      title: policy?.title ?? '',
      warnAfterDays: policy?.warnAfterDays ?? 60,
      actAfterDays: policy?.actAfterDays ?? 90,
      action: policy?.action ?? 'disable',
      role: policy?.role ?? '',
      userLicenseType: (policy?.userLicenseType ?? '') as PolicyFormInput['userLicenseType'],
    },
  });
  useReportDirty(form.formState.isDirty, onDirtyChange);
  const action = form.watch('action');
  const userType = form.watch('userLicenseType') || undefined;
  // Administrator is never a policy's target; roles the user type does not allow are offered disabled with why.
  const roles = roleChoices(user, customRoles, userType).map((g) => ({
    group: g.group,
    items: g.items
      .filter((c) => c.value !== 'org_admin')
      .map((c) => ({ value: c.value, label: c.note ? `${c.label} (${c.note})` : c.label, disabled: c.disabled })),
  }));
  const errors = form.formState.errors;

  const onSubmit = form.handleSubmit((v) => {
    setFormError(null);
    const input = { title: v.title, warnAfterDays: v.warnAfterDays, actAfterDays: v.actAfterDays, action: v.action };
    const move = v.action === 'move' ? { role: v.role, userLicenseType: v.userLicenseType } : {};
    save.mutate(
      { id: policy?.id, input: { ...input, ...move } },
      {
        onSuccess: ({ policy: saved }) => {
          notifications.show({
            color: 'green',
            title: policy ? 'Policy saved' : 'Policy created',
            message: `${saved.title}${saved.active ? '' : ' (switched off)'}`,
          });
          onDone(saved);
        },
        onError: (error) => setFormError(describeError(error)),
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={policy ? 'Edit inactivity policy' : 'New inactivity policy'}>
      <DialogLayout>
        <DialogScroll gap="md">
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The policy was not saved" role="alert">
              {formError}
            </Alert>
          ) : null}
          <TextInput label="Title" required data-autofocus {...form.register('title')} error={errors.title?.message} />
          <Group grow align="flex-start">
            <Controller
              control={form.control}
              name="warnAfterDays"
              render={({ field }) => (
                <NumberInput
                  {...field}
                  label="Warn after (days without signing in)"
                  required
                  min={1}
                  allowDecimal={false}
                  error={errors.warnAfterDays?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="actAfterDays"
              render={({ field }) => (
                <NumberInput
                  {...field}
                  label="Act after (days without signing in)"
                  required
                  min={1}
                  allowDecimal={false}
                  error={errors.actAfterDays?.message}
                />
              )}
            />
          </Group>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="policy-action-label">
              Then
            </Text>
            <Controller
              control={form.control}
              name="action"
              render={({ field }) => (
                <SegmentedControl
                  {...field}
                  aria-labelledby="policy-action-label"
                  data={[
                    { value: 'disable', label: 'Disable them' },
                    { value: 'move', label: 'Move to a role and user type' },
                  ]}
                />
              )}
            />
          </Stack>
          {action === 'move' ? (
            <Group grow align="flex-start">
              <ControlledSelect
                control={form.control}
                name="userLicenseType"
                label="User type"
                required
                allowDeselect={false}
                data={LICENSE_SELECT_DATA}
                error={errors.userLicenseType?.message}
              />
              <ControlledSelect control={form.control} name="role" label="Role" required allowDeselect={false} data={roles} error={errors.role?.message} />
            </Group>
          ) : null}
          <Text size="xs" c="dimmed">
            Administrators are never changed by a policy. Members are warned once (an organization event), then acted on when their time comes.
          </Text>
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {policy ? 'Save policy' : 'Create policy'}
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
