/**
 * Disabling or enabling a member's account after saying what it does: a disabled member cannot
 * sign in by any path and is signed out everywhere at once; what they own stays as it is.
 */
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { describeError } from '../../api/index.ts';
import { useSetMemberDisabled } from './mutations.ts';

export function useConfirmMemberStatus(orgId: string, onClose?: () => void) {
  const change = useSetMemberDisabled(orgId);
  return (username: string, disable: boolean) =>
    modals.openConfirmModal({
      title: disable ? `Disable the account of ${username}` : `Enable the account of ${username}`,
      children: (
        <Text size="sm">
          {disable
            ? `${username} will not be able to sign in, and is signed out everywhere at once: apps signed in as ${username} stop working too. Their content, groups and scheduled tasks stay as they are; enable the account to let them back in.`
            : `${username} will be able to sign in again. Sessions ended when the account was disabled do not come back: they sign in afresh.`}
        </Text>
      ),
      labels: { confirm: disable ? 'Disable account' : 'Enable account', cancel: 'Cancel' },
      confirmProps: disable ? { color: 'red' } : undefined,
      onConfirm: () =>
        change.mutate(
          { username, disabled: disable },
          {
            onSuccess: () =>
              notifications.show({
                color: 'green',
                title: disable ? 'Account disabled' : 'Account enabled',
                message: disable ? `${username} can no longer sign in.` : `${username} can sign in again.`,
              }),
            onError: (err) =>
              notifications.show({ color: 'red', title: disable ? 'Account not disabled' : 'Account not enabled', message: describeError(err) }),
          },
        ),
      onClose,
    });
}
