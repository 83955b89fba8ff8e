/**
 * "Reset password" for one member (Update User's `password`): the new password follows the
 * service's policy; the member is signed out everywhere and signs in with it. Problems the service
 * finds (a common password) are shown beside the field.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Modal, PasswordInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalUser } from '../../api/index.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { IconAlert } from '../../components/icons.tsx';
import { useFormDialog, useReportDirty } from '../../components/useDirtyGuard.tsx';
import { applyServerErrors, sentence } from '../../lib/forms.ts';
import { useResetPassword } from './mutations.ts';
import { resetPasswordSchema, type ResetPasswordValues } from './schemas.ts';

export function ResetPasswordModal({ member, onClose }: { member: PortalUser | null; onClose: () => void }) {
  const { cancel, close, onDirtyChange } = useFormDialog(member !== null, onClose);
  return (
    <Modal opened={member !== null} onClose={cancel} title={member ? `Reset the password of ${member.username}` : 'Reset password'} centered>
      {member ? <ResetPasswordForm key={member.username} member={member} onDone={close} onCancel={cancel} onDirtyChange={onDirtyChange} /> : null}
    </Modal>
  );
}

function ResetPasswordForm({
  member,
  onDone,
  onCancel,
  onDirtyChange,
}: {
  member: PortalUser;
  onDone: () => void;
  onCancel: () => void;
  onDirtyChange: (d: boolean) => void;
}) {
  const reset = useResetPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ResetPasswordValues>({ resolver: zodResolver(resetPasswordSchema), defaultValues: { password: '', confirm: '' }, mode: 'onTouched' });
  const { errors } = form.formState;
  useReportDirty(form.formState.isDirty, onDirtyChange);
  const onSubmit = form.handleSubmit((values) => {
    setFormError(null);
    reset.mutate(
      { username: member.username, password: values.password },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            title: 'Password reset',
            message: `${member.username} signs in with the new password; their sessions have ended.`,
          });
          onDone();
        },
        onError: (error) => setFormError(applyServerErrors(error, ['password'] as const, form.setError)),
      },
    );
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Reset password">
      <DialogLayout>
        <DialogScroll gap="md">
          <Text size="sm">{member.username} is signed out everywhere at once and signs in with the new password. Give it to them by a safe channel.</Text>
          {formError ? (
            <Alert color="red" variant="light" icon={<IconAlert />} title="The password was not reset" role="alert">
              {formError}
            </Alert>
          ) : null}
          <PasswordInput
            label="New password"
            required
            autoComplete="new-password"
            description={`At least ${LIMITS.passwordMinChars} characters with a letter and a digit; not the username or a common password`}
            error={errors.password?.message ? sentence(errors.password.message) : undefined}
            data-autofocus
            {...form.register('password')}
          />
          <PasswordInput
            label="New password again"
            required
            autoComplete="new-password"
            error={errors.confirm?.message ? sentence(errors.confirm.message) : undefined}
            {...form.register('confirm')}
          />
        </DialogScroll>
        <DialogFooter>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={reset.isPending}>
            Reset password
          </Button>
        </DialogFooter>
      </DialogLayout>
    </form>
  );
}
