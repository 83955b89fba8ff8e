/** A group's settings in words, with the protection switch, the change of owner and the delete button (disabled, with why, when not allowed). */
import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { describeError, type GroupRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconTrash, IconUsers } from '../../components/icons.tsx';
import { formatDate } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AccessBadge, MembershipBadge } from './badges.tsx';
import { MEMBERSHIP_ACCESS_WORDS, membershipAccessOf } from './eligibility.ts';
import { useSetGroupProtected } from './mutations.ts';
import { changeOwnerPermission, deleteGroupPermission, protectGroupPermission } from '../../lib/groupPermissions.ts';

function Setting({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Group>
  );
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

export function GroupSettingsCard({ group, onChangeOwner, onDelete }: { group: GroupRecord; onChangeOwner: () => void; onDelete: () => void }) {
  const user = useCurrentUser();
  const protect = useSetGroupProtected(group.id);
  const protectPermission = protectGroupPermission(user, group);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="settings-heading">
      <Title order={2} fz="lg" id="settings-heading" mb="sm">
        Settings
      </Title>
      <Stack gap={8}>
        <Setting label="Visible to">
          <AccessBadge access={group.access} />
        </Setting>
        <Setting label="You">
          <MembershipBadge group={group} />
        </Setting>
        <Setting label="Who can be in it">
          {/* A portal that leaves membershipAccess out sets no restriction. */}
          <Text size="sm" fw={500} ta="right">
            {MEMBERSHIP_ACCESS_WORDS[membershipAccessOf(group)]}
          </Text>
        </Setting>
        <Setting label="Invitation only">{yesNo(group.isInvitationOnly)}</Setting>
        <Setting label="Only managers share">{yesNo(group.isViewOnly)}</Setting>
        <Setting label="Member list hidden">{yesNo(group.hiddenMembers)}</Setting>
        <Setting label="Members cannot leave">{yesNo(group.leavingDisallowed)}</Setting>
        <Setting label="Created">{formatDate(group.created)}</Setting>
        <Switch
          mt="xs"
          label="Protected from deletion"
          checked={group.protected}
          disabled={!protectPermission.allowed || protect.isPending}
          description={protectPermission.allowed ? undefined : protectPermission.reason}
          onChange={(e) =>
            protect.mutate(e.currentTarget.checked, {
              onError: (error) => notifications.show({ color: 'red', title: 'Protection not changed', message: describeError(error) }),
            })
          }
        />
        <GuardedButton permission={changeOwnerPermission(user, group)} variant="default" mt="xs" leftSection={<IconUsers size={16} />} onClick={onChangeOwner}>
          Change owner
        </GuardedButton>
        <GuardedButton
          permission={deleteGroupPermission(user, group)}
          variant="default"
          color="red"
          mt="xs"
          leftSection={<IconTrash size={16} />}
          onClick={onDelete}
        >
          Delete group
        </GuardedButton>
      </Stack>
    </Card>
  );
}
