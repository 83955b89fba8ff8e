/** Unlocking a member's sign-in (a local extra) after saying what it does. */
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { describeError } from '../../api/index.ts';
import { useUnlockSignIn } from './mutations.ts';

export function useConfirmUnlock(onClose?: () => void) {
  const unlock = useUnlockSignIn();
  return (username: string) =>
    modals.openConfirmModal({
      title: `Unlock sign-in for ${username}`,
      children: (
        <Text size="sm">
          Addresses made to wait after wrong passwords for {username} can try again at once, and the count of wrong passwords starts again. Unlock only if you
          know who was trying: an address that keeps guessing is made to wait again.
        </Text>
      ),
      labels: { confirm: 'Unlock sign-in', cancel: 'Cancel' },
      onConfirm: () =>
        unlock.mutate(username, {
          onSuccess: (r) =>
            notifications.show({
              color: 'green',
              title: 'Sign-in unlocked',
              message:
                r.sourcesUnlocked > 0
                  ? `${username} can sign in again: ${r.sourcesUnlocked} waiting address${r.sourcesUnlocked === 1 ? ' was' : 'es were'} released.`
                  : `No address was waiting for ${username}; the count of wrong passwords starts again.`,
            }),
          onError: (err) => notifications.show({ color: 'red', title: 'Sign-in not unlocked', message: describeError(err) }),
        }),
      onClose,
    });
}
