/** "Add member": a new account in the organization. Problems the service finds are shown beside their fields. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, PasswordInput, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { LIMITS } from '../../../shared/limits.ts';
import type { RoleRecord } from '../../api/index.ts';
import { IconAlert } from '../../components/icons.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { LICENSE_SELECT_DATA } from '../../lib/licenses.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { pairRefusal } from './compatibility.ts';
import { useAddMember } from './mutations.ts';
import { roleChoices, toSelectData } from './roleChoices.ts';
import { ADD_MEMBER_FIELDS, addMemberSchema, type AddMemberInput, type AddMemberValues } from './schemas.ts';
import { ControlledSelect } from '../../components/ControlledSelect.tsx';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';

const EMPTY: AddMemberInput = { username: '', password: '', firstname: '', lastname: '', email: '', role: 'org_user', userLicenseTypeId: 'creatorUT' };

export interface AddMemberModalProps {
  opened: boolean;
  onClose: () => void;
  customRoles: readonly RoleRecord[] | undefined;
  /** Why custom roles are missing from the choices, when they could not be read. */
  rolesNote?: string;
}

export function AddMemberModal({ opened, onClose, customRoles, rolesNote }: AddMemberModalProps) {
  const user = useCurrentUser();
  const addMember = useAddMember(user.orgId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<AddMemberInput, unknown, AddMemberValues>({ resolver: zodResolver(addMemberSchema), defaultValues: EMPTY, mode: 'onTouched' });
  const { errors, isDirty } = form.formState;
  const err = (field: keyof AddMemberInput) => {
    const message = errors[field]?.message;
    return message ? sentence(message) : undefined;
  };

  const reset = () => {
    form.reset(EMPTY);
    setFormError(null);
    addMember.reset();
    onClose();
  };
  // Esc, the overlay, the close button and Cancel ask before typed input is thrown away.
  const { cancel, close, onDirtyChange } = useFormDialog(opened, reset);
  useReportDirty(isDirty, onDirtyChange);

  // The user type decides which roles are offered (src/shared/userTypes.ts); a role chosen before
  // the user type changed is refused beside the role, and not sent.
  const [role, userType] = useWatch({ control: form.control, name: ['role', 'userLicenseTypeId'] });
  const pairError = role ? pairRefusal(userType, role, customRoles) : null;

  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    if (pairError) return form.setFocus('role');
    addMember.mutate(values, {
      onSuccess: (result) => {
        notifications.show({ color: 'green', title: 'Member added', message: `${result.username} is now a member of the organization.` });
        close();
      },
      onError: (error) => setFormError(applyServerErrors(error, ADD_MEMBER_FIELDS, form.setError)),
    });
  });

  return (
    <Modal opened={opened} onClose={cancel} title="Add member" size="lg" centered>
      <form onSubmit={onSubmit} noValidate aria-label="Add member">
        <DialogLayout>
          <DialogScroll gap="md">
            {formError ? (
              <Alert color="red" variant="light" icon={<IconAlert />} title="The member was not added" role="alert">
                {formError}
              </Alert>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label="First name"
                autoComplete="off"
                maxLength={LIMITS.nameMaxChars}
                error={err('firstname')}
                data-autofocus
                {...form.register('firstname')}
              />
              <TextInput label="Last name" autoComplete="off" maxLength={LIMITS.nameMaxChars} error={err('lastname')} {...form.register('lastname')} />
            </SimpleGrid>
            <TextInput label="Email" type="email" required autoComplete="off" error={err('email')} {...form.register('email')} />
            <TextInput
              label="Username"
              required
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              description={`${LIMITS.usernameMinChars}–${LIMITS.usernameMaxChars} letters, digits or . _ @ -`}
              error={err('username')}
              {...form.register('username')}
            />
            <PasswordInput
              label="Password"
              required
              autoComplete="new-password"
              description={`At least ${LIMITS.passwordMinChars} characters with a letter and a digit; not the username or a common password`}
              error={err('password')}
              {...form.register('password')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <ControlledSelect
                control={form.control}
                name="role"
                label="Role"
                required
                allowDeselect={false}
                data={toSelectData(roleChoices(user, customRoles, userType))}
                error={err('role') ?? pairError ?? undefined}
              />
              <Controller
                control={form.control}
                name="userLicenseTypeId"
                render={({ field }) => (
                  <Select
                    label="User type"
                    allowDeselect={false}
                    data={LICENSE_SELECT_DATA}
                    value={field.value ?? null}
                    onChange={(v) => field.onChange(v ?? undefined)}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    error={err('userLicenseTypeId')}
                  />
                )}
              />
            </SimpleGrid>
            {rolesNote ? (
              <Text size="xs" c="dimmed">
                {rolesNote}
              </Text>
            ) : null}
          </DialogScroll>
          <DialogFooter>
            <Button variant="default" onClick={cancel}>
              Cancel
            </Button>
            <Button type="submit" loading={addMember.isPending}>
              Add member
            </Button>
          </DialogFooter>
        </DialogLayout>
      </form>
    </Modal>
  );
}
