/** The bar above a group's member list: how many are ticked and what can be done with them. */
import { Group, Paper, Text } from '@mantine/core';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconTrash } from '../../components/icons.tsx';
import type { Permission } from '../../lib/privileges.ts';

export function GroupMemberActions({
  count,
  changing,
  managersPermission,
  removePermission,
  onChangeType,
  onRemove,
}: {
  count: number;
  changing: boolean;
  managersPermission: Permission;
  removePermission: Permission;
  onChangeType: (to: 'admin' | 'member') => void;
  onRemove: () => void;
}) {
  return (
    <Paper withBorder radius="md" px="md" py="xs" mb="sm">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c={count ? undefined : 'dimmed'} aria-live="polite">
          {count ? `${count} selected` : 'Tick members to remove them or change who manages the group.'}
        </Text>
        <Group gap="xs">
          <GuardedButton permission={managersPermission} size="xs" variant="default" disabled={!count || changing} onClick={() => onChangeType('admin')}>
            Make managers
          </GuardedButton>
          <GuardedButton permission={managersPermission} size="xs" variant="default" disabled={!count || changing} onClick={() => onChangeType('member')}>
            Make members
          </GuardedButton>
          <GuardedButton permission={removePermission} size="xs" color="red" disabled={!count} leftSection={<IconTrash size={14} />} onClick={onRemove}>
            Remove from group
          </GuardedButton>
        </Group>
      </Group>
    </Paper>
  );
}
