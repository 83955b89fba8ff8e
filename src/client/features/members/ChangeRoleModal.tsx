/** "Change role" for one member. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { IconAlert } from '../../components/icons.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { isBaseRole, roleLabel } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { userLicenseTypeLabel } from '../../../shared/userTypes.ts';
import { useChangeRole } from './mutations.ts';
import { roleChoices, toSelectData } from './roleChoices.ts';
import { changeRoleSchema, type ChangeRoleValues } from './schemas.ts';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';

export interface ChangeRoleModalProps {
  /** The member whose role to change; null when closed. */
  member: PortalUser | null;
  onClose: () => void;
  customRoles: readonly RoleRecord[] | undefined;
  rolesNote?: string;
}

export function ChangeRoleModal({ member, onClose, customRoles, rolesNote }: ChangeRoleModalProps) {
  // Esc, the overlay, the close button and Cancel ask before a changed choice is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(member !== null, onClose);
  return (
    <Modal opened={member !== null} onClose={cancel} title={member ? `Change role of ${member.fullName || member.username}` : 'Change role'} centered>
      {member ? (
        <ChangeRoleForm
          key={member.username}
          member={member}
          onClose={close}
          onCancel={cancel}
          onDirtyChange={onDirtyChange}
          customRoles={customRoles}
          rolesNote={rolesNote}
        />
      ) : null}
    </Modal>
  );
}

function ChangeRoleForm({
  member,
  onClose,
  onCancel,
  onDirtyChange,
  customRoles,
  rolesNote,
}: ChangeRoleModalProps & { member: PortalUser; onCancel: () => void; onDirtyChange: (dirty: boolean) => void }) {
  const user = useCurrentUser();
  const changeRole = useChangeRole(user.orgId, user.username);
  const [formError, setFormError] = useState<string | null>(null);
  const current = member.roleId ?? member.role;
  const form = useForm<ChangeRoleValues>({ resolver: zodResolver(changeRoleSchema), defaultValues: { role: current } });
  const chosen = form.watch('role');
  const roleError = form.formState.errors.role?.message;
  useReportDirty(form.formState.isDirty, onDirtyChange);
  const known = customRoles ?? [];
  const choices = roleChoices(user, customRoles, member.userLicenseTypeId);
  if (!choices.some((g) => g.items.some((i) => i.value === current))) {
    // A custom role the roles list did not include (e.g. the list could not be read).
    choices.push({ group: 'Current role', items: [{ value: current, label: roleLabel(member, known) }] });
  }

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    changeRole.mutate(
      { username: member.username, role: values.role },
      {
        onSuccess: () => {
          const label = roleLabel(isBaseRole(values.role) ? { role: values.role } : { role: member.role, roleId: values.role }, known);
          notifications.show({ color: 'green', title: 'Role changed', message: `${member.fullName || member.username} is now ${label}.` });
          onClose();
        },
        onError: (error) => setFormError(applyServerErrors(error, ['role'] as const, form.setError)),
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change role">
      <DialogLayout>
        <DialogScroll gap="md">
          <Text size="sm">
            Current role: <strong>{roleLabel(member, known)}</strong> · user type <strong>{userLicenseTypeLabel(member.userLicenseTypeId)}</strong>
          </Text>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The role was not changed" role="alert">
              {formError}
            </Alert>
          ) : null}
          <ControlledSelect
            control={form.control}
            name="role"
            label="New role"
            required
            allowDeselect={false}
            data={toSelectData(choices)}
            error={roleError ? sentence(roleError) : undefined}
            data-autofocus
          />
          {rolesNote ? (
            <Text size="xs" c="dimmed">
              {rolesNote}
            </Text>
          ) : null}
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={changeRole.isPending} disabled={chosen === current}>
            Change role
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
