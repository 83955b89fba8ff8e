/** Groups: the groups the member may see — searched, sorted, paged; create a group. */
import { Anchor, Box, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { GroupRecord } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconPlus, IconSearch } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FilterBar } from '../../components/FilterBar.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDate } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AccessBadge, MembershipBadge } from './badges.tsx';
import { GroupFormModal } from './GroupFormModal.tsx';
import { createGroupPermission } from '../../lib/groupPermissions.ts';
import { groupsQuery } from './queries.ts';
import { groupListToParams, parseGroupList, type GroupListState } from './schemas.ts';
import { ownerColumn } from '../../components/usernameColumn.tsx';

export default function GroupsPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseGroupList(searchParams);
  const update = (patch: Partial<GroupListState>, replace = false) => setSearchParams(groupListToParams({ ...list, ...patch }), { replace });

  const groups = useQuery(groupsQuery(list, user.username));
  const [creating, setCreating] = useState(false);

  const columns: DataTableColumn<GroupRecord>[] = [
    {
      id: 'title',
      header: 'Group',
      sortField: 'title',
      render: (g) => (
        <Stack gap={2}>
          <Anchor component={Link} to={`/groups/${g.id}`} fw={600} size="sm">
            {g.title}
          </Anchor>
          {g.snippet ? (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {g.snippet}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    ownerColumn(),
    { id: 'access', header: 'Visible to', render: (g) => <AccessBadge access={g.access} /> },
    { id: 'members', header: 'Members', align: 'right', render: (g) => <Text size="sm">{g.memberCount ?? '—'}</Text> },
    { id: 'membership', header: 'You', render: (g) => <MembershipBadge group={g} /> },
    {
      id: 'modified',
      header: 'Changed',
      sortField: 'modified',
      render: (g) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(g.modified)}
        </Text>
      ),
    },
  ];

  const filtered = !!(list.q || list.mine);

  return (
    <>
      <PageHeader
        title="Groups"
        description="Groups bring members together to share content."
        actions={
          <GuardedButton permission={createGroupPermission(user)} leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Create group
          </GuardedButton>
        }
      />
      <Box mb="md">
        <FilterBar
          label="Filter groups"
          active={list.mine ? 1 : 0}
          leading={
            <SearchBox value={list.q} onSearch={(q) => update({ q, start: 1 }, true)} label="Search groups" placeholder="Search by title, summary or tag" />
          }
        >
          <SegmentedControl
            aria-label="Which groups"
            value={list.mine}
            onChange={(v) => update({ mine: v, start: 1 })}
            data={[
              { value: '', label: 'All I can see' },
              { value: 'owned', label: 'Owned by me' },
            ]}
          />
        </FilterBar>
      </Box>
      <DataTable
        label="Groups"
        itemName="groups"
        columns={columns}
        rows={groups.data?.results}
        rowKey={(g) => g.id}
        loading={groups.isPending}
        fetching={groups.isPlaceholderData || (groups.isFetching && !groups.isPending)}
        error={groups.isError ? groups.error : undefined}
        onRetry={() => groups.refetch()}
        sort={{ field: list.sortField, order: list.sortOrder }}
        onSortChange={(s) => update({ sortField: s.field as GroupListState['sortField'], sortOrder: s.order, start: 1 })}
        paging={groups.data ? { start: groups.data.start || list.start, num: list.num, total: groups.data.total } : undefined}
        onPageChange={(start) => update({ start })}
        onPageSizeChange={(num) => update({ num, start: 1 })}
        empty={
          filtered ? (
            <EmptyPanel title="No groups match" description="Try other words, or show every group." icon={<IconSearch size={28} />} />
          ) : (
            <EmptyPanel title="No groups yet" description="Groups you create or join appear here." />
          )
        }
      />
      <GroupFormModal opened={creating} onClose={() => setCreating(false)} onCreated={(g) => navigate(`/groups/${g.id}`)} />
    </>
  );
}
