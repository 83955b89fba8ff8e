/** A group's owner, managers and members: searched, filtered, paged, sorted, with bulk actions on the ticked ones. */
import { Group, Select, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { GroupRecord, UserlistSortField } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { IconSearch } from '../../components/icons.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { GroupMemberActions } from './GroupMemberActions.tsx';
import { groupMemberColumns } from './groupMemberColumns.tsx';
import { changeManagersPermission, removeMembersPermission } from '../../lib/groupPermissions.ts';
import { RemoveMembersModal } from './RemoveMembersModal.tsx';
import { useGroupMembers } from './useGroupMembers.ts';

const MEMBER_FILTERS = [
  { value: '', label: 'Everyone' },
  { value: 'admins', label: 'Owner and managers' },
  { value: 'member', label: 'Members' },
];

export function GroupMembersSection({ group }: { group: GroupRecord }) {
  const user = useCurrentUser();
  const list = useGroupMembers(group);
  const { members, paging, selected } = list;
  const [removing, setRemoving] = useState(false);
  const filtered = Boolean(list.debounced || list.memberType);

  return (
    <section aria-labelledby="members-heading">
      <Group justify="space-between" align="flex-end" mb="sm" wrap="wrap">
        <Title order={2} fz="lg" id="members-heading">
          Owner, managers and members
        </Title>
        <Group gap="sm" wrap="wrap">
          <TextInput
            aria-label="Search members of the group"
            placeholder="Username or name"
            type="search"
            leftSection={<IconSearch size={16} />}
            value={list.name}
            onChange={(e) => list.setName(e.currentTarget.value)}
            w={220}
          />
          <Select aria-label="Show" data={MEMBER_FILTERS} value={list.memberType} onChange={(v) => list.setMemberType(v ?? '')} allowDeselect={false} w={190} />
        </Group>
      </Group>
      <GroupMemberActions
        count={selected.size}
        changing={list.changing}
        managersPermission={changeManagersPermission(user, group)}
        removePermission={removeMembersPermission(user, group)}
        onChangeType={list.changeType}
        onRemove={() => setRemoving(true)}
      />
      <DataTable
        label="Group members"
        itemName="members"
        columns={groupMemberColumns(group)}
        rows={members.data?.users}
        rowKey={(m) => m.username}
        loading={members.isPending}
        fetching={members.isPlaceholderData}
        error={members.isError ? members.error : undefined}
        onRetry={() => members.refetch()}
        sort={list.sort}
        onSortChange={(s) => list.setSort({ field: s.field as UserlistSortField, order: s.order })}
        paging={members.data ? { start: members.data.start || paging.start, num: paging.num, total: members.data.total } : undefined}
        onPageChange={(start) => list.setPaging((p) => ({ ...p, start }))}
        onPageSizeChange={(num) => list.setPaging({ start: 1, num })}
        selection={{
          selected: new Set(selected.keys()),
          onChange: list.select,
          rowLabel: (m) => `Select ${m.username}`,
          disabled: (m) => m.memberType === 'owner',
        }}
        empty={<EmptyPanel title={filtered ? 'Nobody matches' : 'No members'} description={filtered ? 'Try another name or show everyone.' : undefined} />}
        minWidth={560}
      />
      <RemoveMembersModal
        opened={removing}
        group={group}
        members={list.chosen}
        onClose={(done) => {
          setRemoving(false);
          if (done) list.clearSelection();
        }}
      />
    </section>
  );
}
