/** "Change user type" for one member: types the member's role does not allow are offered disabled, with why. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describeError, type PortalUser, type RoleRecord } from '../../api/index.ts';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';
import { LICENSE_SELECT_DATA, licenseLabel } from '../../lib/licenses.ts';
import { roleLabel } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { pairNote, pairRefusal } from './compatibility.ts';
import { useChangeUserType } from './mutations.ts';
import { changeUserTypeSchema, type ChangeUserTypeValues } from './schemas.ts';

export interface ChangeUserTypeModalProps {
  member: PortalUser | null;
  onClose: () => void;
  customRoles: readonly RoleRecord[] | undefined;
}

export function ChangeUserTypeModal({ member, onClose, customRoles }: ChangeUserTypeModalProps) {
  // Esc, the overlay, the close button and Cancel ask before a changed choice is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(member !== null, onClose);
  return (
    <Modal opened={member !== null} onClose={cancel} title={member ? `Change user type of ${member.fullName || member.username}` : 'Change user type'} centered>
      {member ? (
        <ChangeUserTypeForm key={member.username} member={member} customRoles={customRoles} onDone={close} onCancel={cancel} onDirtyChange={onDirtyChange} />
      ) : null}
    </Modal>
  );
}

interface FormProps {
  member: PortalUser;
  customRoles: readonly RoleRecord[] | undefined;
  onDone: () => void;
  onCancel: () => void;
  onDirtyChange: (dirty: boolean) => void;
}

function ChangeUserTypeForm({ member, customRoles, onDone, onCancel, onDirtyChange }: FormProps) {
  const user = useCurrentUser();
  const change = useChangeUserType(user.orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const current = member.userLicenseTypeId;
  const form = useForm<ChangeUserTypeValues>({
    resolver: zodResolver(changeUserTypeSchema),
    defaultValues: { userLicenseType: current as ChangeUserTypeValues['userLicenseType'] },
  });
  useReportDirty(form.formState.isDirty, onDirtyChange);
  const role = member.roleId ?? member.role;
  const refusals = new Map(LICENSE_SELECT_DATA.map((o) => [o.value, pairRefusal(o.value, role, customRoles)]));
  const data = LICENSE_SELECT_DATA.map((o) => (refusals.get(o.value) ? { ...o, label: `${o.label} (${pairNote(o.value)})`, disabled: true } : o));
  const refused = [...refusals.entries()].filter(([, r]) => r);

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    change.mutate(
      { username: member.username, userLicenseType: values.userLicenseType },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            title: 'User type changed',
            message: `${member.fullName || member.username} is now ${licenseLabel(values.userLicenseType)}.`,
          });
          onDone();
        },
        onError: (error) => setFormError(describeError(error)),
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change user type">
      <DialogLayout>
        <DialogScroll gap="md">
          <Text size="sm">
            Current user type: <strong>{licenseLabel(current)}</strong> · role <strong>{roleLabel(member, customRoles ?? [])}</strong>
          </Text>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The user type was not changed" role="alert">
              {formError}
            </Alert>
          ) : null}
          <ControlledSelect control={form.control} name="userLicenseType" label="New user type" required allowDeselect={false} data={data} data-autofocus />
          {refused.length ? (
            <Text size="xs" c="dimmed">
              {refused[0][1]} Change the role first to give this member such a user type.
            </Text>
          ) : null}
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending} disabled={form.watch('userLicenseType') === current}>
            Change user type
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
