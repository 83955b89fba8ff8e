/**
 * Members: the organization's members at any size — searched, filtered (role, status, user type,
 * last sign-in, creation) and sorted by the portal, paged with exact totals, counted by user type.
 * The list's state is in the address. Rows ticked (across pages) or every member matching the
 * filter are acted on in bulk (bulk/); one member from its row or its page (MemberPage).
 */
import { Box, Button, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { describeError, type PortalUser } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { FilterBar } from '../../components/FilterBar.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { HistoryDrawer } from '../../components/HistorySection.tsx';
import { IconPlus, IconSearch, IconUpload } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { useReturnFocus } from '../../lib/focusReturn.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AddMemberModal } from './AddMemberModal.tsx';
import { CsvMembersModal } from './csv/CsvMembersModal.tsx';
import { BulkMembersModal, UnfinishedBulkRun } from './bulk/BulkMembersModal.tsx';
import { BulkExpiryButton } from './lifecycle/BulkExpiryButton.tsx';
import type { BulkKind } from './bulk/plan.ts';
import type { BulkTarget } from './bulk/useMatchingMembers.ts';
import { ChangeRoleModal } from './ChangeRoleModal.tsx';
import { activeFilterCount, memberFilterParams } from './listParams.ts';
import { memberColumns } from './memberColumns.tsx';
import { MemberFilters } from './MemberFilters.tsx';
import { MemberRowActions } from './MemberRowActions.tsx';
import { addMembersPermission } from './permissions.ts';
import { membersQuery, rolesQuery } from './queries.ts';
import { memberListToParams, PAGE_SIZES, parseMemberList, type MemberListState } from './schemas.ts';
import { SelectionBar } from './SelectionBar.tsx';
import { UserTypeCounts } from './UserTypeCounts.tsx';

const rowKey = (m: PortalUser) => m.id || m.username;
const NO_TARGET: BulkTarget = { kind: 'rows', members: [] };

export default function MembersPage() {
  const user = useCurrentUser();
  const caps = usePortalCapabilities();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseMemberList(searchParams);
  const update = (patch: Partial<MemberListState>, replace = false) => setSearchParams(memberListToParams({ ...list, ...patch }), { replace });
  // A change of filter starts at the first page.
  const filter = (patch: Partial<MemberListState>, replace = false) => update({ ...patch, start: 1 }, replace);

  const filters = memberFilterParams(list, caps.localExtras);
  const filterKey = JSON.stringify(filters);
  const members = useQuery(membersQuery(user.orgId, filters, list.start, list.num));
  const roles = useQuery(rolesQuery(user.orgId));
  const customRoles = roles.data?.roles;
  const rolesNote = roles.isError ? `Custom roles could not be loaded (${describeError(roles.error)}), so only the base roles are offered.` : undefined;

  const [adding, setAdding] = useState(false);
  const [addingCsv, setAddingCsv] = useState(false);
  const [changing, setChanging] = useState<PortalUser | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  // The history drawer and confirmations open from a row's menu: focus goes back to the menu's button.
  const fromMenu = useReturnFocus();
  // Selected rows (kept across pages), or every member matching the filter it was chosen under.
  const [selected, setSelected] = useState<ReadonlyMap<string, PortalUser>>(new Map());
  const [allMatchingOf, setAllMatchingOf] = useState<string | null>(null);
  const allMatching = allMatchingOf === filterKey;
  // The action and the members it is on, fixed when it opens: the list behind it changes as it runs.
  const [bulk, setBulk] = useState<{ kind: BulkKind; target: BulkTarget } | null>(null);
  const total = members.data?.total;

  const select = (rows: PortalUser[], on: boolean) => {
    setAllMatchingOf(null);
    setSelected((prev) => {
      const next = new Map(allMatching ? [] : prev);
      for (const m of rows) {
        if (on) next.set(rowKey(m), m);
        else next.delete(rowKey(m));
      }
      return next;
    });
  };
  const clear = () => {
    setSelected(new Map());
    setAllMatchingOf(null);
  };
  const shownKeys = allMatching ? new Set((members.data?.users ?? []).map(rowKey)) : new Set(selected.keys());

  const columns = memberColumns({
    customRoles,
    localExtras: caps.localExtras,
    actions: (m) => <MemberRowActions member={m} onChangeRole={() => setChanging(m)} fromMenu={fromMenu} onHistory={() => setHistoryOf(m.username)} />,
  });
  const filtered = !!list.q || activeFilterCount(list, caps.localExtras) > 0;

  return (
    <>
      <PageHeader
        title="Members"
        description="Everyone in your organization: their role, user type and status."
        actions={
          <Group gap="sm">
            <Button component={Link} to="policies" variant="default">
              Inactivity policies
            </Button>
            <GuardedButton permission={addMembersPermission(user)} leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add member
            </GuardedButton>
            <GuardedButton permission={addMembersPermission(user)} variant="default" leftSection={<IconUpload size={16} />} onClick={() => setAddingCsv(true)}>
              Add from a CSV file
            </GuardedButton>
          </Group>
        }
      />
      <UnfinishedBulkRun />
      <Box mb="sm">
        <FilterBar
          label="Filter members"
          active={activeFilterCount(list, caps.localExtras)}
          leading={<SearchBox value={list.q} onSearch={(q) => filter({ q }, true)} label="Search members" placeholder="Search by name, username or email" />}
        >
          <MemberFilters
            list={list}
            update={filter}
            customRoles={customRoles}
            unavailable={caps.known && !caps.localExtras ? caps.unavailable('filters by status, user type or dates') : undefined}
          />
        </FilterBar>
      </Box>
      {caps.localExtras ? (
        <Box mb="sm">
          <UserTypeCounts
            orgId={user.orgId}
            filters={filters}
            selected={list.userType}
            onSelect={(userType) => filter({ userType: userType as MemberListState['userType'] })}
          />
        </Box>
      ) : null}
      <SelectionBar
        ticked={selected.size}
        allMatching={allMatching}
        total={total}
        onSelectAllMatching={() => setAllMatchingOf(filterKey)}
        onClear={clear}
        onAction={(kind) =>
          setBulk({ kind, target: allMatching ? { kind: 'matching', filters, total: total ?? 0 } : { kind: 'rows', members: [...selected.values()] } })
        }
      >
        <BulkExpiryButton usernames={[...selected.values()].map((m) => m.username)} allMatching={allMatching} />
      </SelectionBar>
      <DataTable
        label="Members"
        itemName="members"
        columns={columns}
        rows={members.data?.users}
        rowKey={rowKey}
        selection={{ selected: shownKeys, onChange: select, rowLabel: (m) => `Select ${m.username}` }}
        loading={members.isPending}
        fetching={members.isPlaceholderData || (members.isFetching && !members.isPending)}
        error={members.isError ? members.error : undefined}
        onRetry={() => members.refetch()}
        sort={{ field: filters.sortField ?? 'username', order: list.sortOrder }}
        onSortChange={(s) => filter({ sortField: s.field as MemberListState['sortField'], sortOrder: s.order })}
        paging={members.data ? { start: members.data.start || list.start, num: list.num, total: members.data.total } : undefined}
        onPageChange={(start) => update({ start })}
        onPageSizeChange={(num) => filter({ num })}
        pageSizes={[...new Set([...PAGE_SIZES, list.num])].sort((a, b) => a - b)}
        empty={
          filtered ? (
            <EmptyPanel title="No members match" description="Try other words, or fewer filters." icon={<IconSearch size={28} />} />
          ) : (
            <EmptyPanel title="No members yet" description="Members you add appear here." />
          )
        }
      />
      <AddMemberModal opened={adding} onClose={() => setAdding(false)} customRoles={customRoles} rolesNote={rolesNote} />
      <CsvMembersModal opened={addingCsv} onClose={() => setAddingCsv(false)} customRoles={customRoles} rolesNote={rolesNote} />
      <BulkMembersModal
        kind={bulk?.kind ?? null}
        target={bulk?.target ?? NO_TARGET}
        onClose={(finished) => {
          setBulk(null);
          if (finished) clear();
        }}
        customRoles={customRoles}
        rolesNote={rolesNote}
      />
      <HistoryDrawer
        target={historyOf ? { id: historyOf, type: 'u', name: `the member ${historyOf}`, title: historyOf } : null}
        onClose={() => {
          setHistoryOf(null);
          fromMenu.restore();
        }}
      />
      <ChangeRoleModal member={changing} onClose={() => setChanging(null)} customRoles={customRoles} rolesNote={rolesNote} />
    </>
  );
}
