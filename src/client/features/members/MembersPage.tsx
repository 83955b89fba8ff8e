/**
 * Members: the organization's members — paged, sorted, searched, filtered by role; add members,
 * change roles (one or several at once), disable or enable an account, unlock a member's sign-in (local extra).
 */
import { Badge, Box, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { describeError, type PortalUser } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { HistoryDrawer, mayReadHistory } from '../../components/HistorySection.tsx';
import { IconPlus, IconSearch, IconShield } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FilterBar } from '../../components/FilterBar.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { useReturnFocus } from '../../lib/focusReturn.ts';
import { formatDate } from '../../lib/format.ts';
import { ALLOWED, holds, requirePrivilege, type Permission } from '../../lib/privileges.ts';
import { roleLabel } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { AddMemberModal } from './AddMemberModal.tsx';
import { AssignRoleModal } from './AssignRoleModal.tsx';
import { ChangeRoleModal } from './ChangeRoleModal.tsx';
import { useUnlockSignIn } from './mutations.ts';
import { MemberMoreMenu } from './MemberMoreMenu.tsx';
import { addMembersPermission, changeRoleOfPermission, changeRolesPermission, disableMemberPermission, unlockSignInPermission } from './permissions.ts';
import { useConfirmMemberStatus } from './useConfirmMemberStatus.tsx';
import { membersQuery, rolesQuery } from './queries.ts';
import { roleChoices } from './roleChoices.ts';
import { memberListToParams, PAGE_SIZES, parseMemberList, type MemberListState } from './schemas.ts';

const ROLE_COLORS: Record<string, string> = { org_admin: 'grape', org_publisher: 'teal', org_user: 'blue' };

export default function MembersPage() {
  const user = useCurrentUser();
  const orgId = user.orgId;
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseMemberList(searchParams);
  const update = (patch: Partial<MemberListState>, replace = false) => setSearchParams(memberListToParams({ ...list, ...patch }), { replace });

  const members = useQuery(membersQuery(orgId, list));
  const roles = useQuery(rolesQuery(orgId));
  const customRoles = roles.data?.roles;
  const rolesNote = roles.isError ? `Custom roles could not be loaded (${describeError(roles.error)}), so only the base roles are offered.` : undefined;

  const [adding, setAdding] = useState(false);
  const [changing, setChanging] = useState<PortalUser | null>(null);
  const addPermission = addMembersPermission(user);
  // Selected members, kept across pages, for "Assign role".
  const [selected, setSelected] = useState<ReadonlyMap<string, PortalUser>>(new Map());
  const [assigning, setAssigning] = useState(false);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  // The history drawer opens from a row's menu: focus goes back to the menu's button.
  const fromMenu = useReturnFocus();
  const caps = usePortalCapabilities();
  const unlock = useUnlockSignIn();
  const confirmStatus = useConfirmMemberStatus(orgId, fromMenu.restore);
  const confirmUnlock = (username: string) => {
    fromMenu.remember();
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
      onClose: fromMenu.restore,
    });
  };
  const rowKey = (m: PortalUser) => m.id || m.username;
  const select = (rows: PortalUser[], on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const m of rows) {
        if (on) next.set(rowKey(m), m);
        else next.delete(rowKey(m));
      }
      return next;
    });

  const filterData = [
    { group: 'All', items: [{ value: '', label: 'All roles' }] },
    ...roleChoices(user, customRoles).map((g) => ({ group: g.group, items: g.items.map((i) => ({ value: i.value, label: i.label })) })),
  ];
  if (list.role && !filterData.some((g) => g.items.some((i) => i.value === list.role))) {
    filterData.push({
      group: 'Filter',
      items: [{ value: list.role, label: roleLabel({ role: list.role, roleId: list.role.startsWith('org_') ? undefined : list.role }) }],
    });
  }

  const columns: DataTableColumn<PortalUser>[] = [
    {
      id: 'fullname',
      header: 'Name',
      sortField: 'fullname',
      render: (m) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {m.fullName || m.username}
          </Text>
          {m.email ? (
            <Text size="xs" c="dimmed">
              {m.email}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'username',
      header: 'Username',
      sortField: 'username',
      render: (m) => (
        <Text size="sm" ff="monospace">
          {m.username}
        </Text>
      ),
    },
    {
      id: 'role',
      header: 'Role',
      sortField: 'role',
      render: (m) => (
        <Group gap={6} wrap="nowrap">
          <Badge variant="light" color={m.roleId ? 'orange' : (ROLE_COLORS[m.role] ?? 'gray')} tt="none" size="md">
            {roleLabel(m, customRoles)}
          </Badge>
          {m.disabled ? (
            <Badge variant="outline" color="gray" size="sm">
              Disabled
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { id: 'created', header: 'Added', sortField: 'created', render: (m) => <Text size="sm">{formatDate(m.created)}</Text> },
    { id: 'lastlogin', header: 'Last sign-in', sortField: 'lastlogin', render: (m) => <Text size="sm">{formatDate(m.lastLogin, 'Never')}</Text> },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      render: (m) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <GuardedButton
            permission={changeRoleOfPermission(user, m)}
            size="xs"
            variant="default"
            aria-label={`Change role of ${m.username}`}
            onClick={() => setChanging(m)}
          >
            Change role
          </GuardedButton>
          <MemberMoreMenu
            username={m.username}
            transfer={transferPermission(m)}
            status={{
              disabled: !!m.disabled,
              permission: disableMemberPermission(user, m),
              onToggle: () => {
                fromMenu.remember();
                confirmStatus(m.username, !m.disabled);
              },
            }}
            // A local extra: not offered at all by portals without it.
            unlock={caps.localExtras ? { permission: unlockSignInPermission(user), onUnlock: () => confirmUnlock(m.username) } : undefined}
            onHistory={
              mayReadHistory(user)
                ? () => {
                    fromMenu.remember();
                    setHistoryOf(m.username);
                  }
                : undefined
            }
          />
        </Group>
      ),
    },
  ];

  // Another member's content: portal:admin:reassignItems; one's own: portal:user:reassignItems.
  const transferPermission = (m: PortalUser): Permission =>
    m.username === user.username && holds(user, 'portal:user:reassignItems')
      ? ALLOWED
      : requirePrivilege(user, 'portal:admin:reassignItems', "transfer a member's content");

  const filtered = !!(list.q || list.role);

  return (
    <>
      <PageHeader
        title="Members"
        description="Everyone in your organization, and the role each one has."
        actions={
          <GuardedButton permission={addPermission} leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add member
          </GuardedButton>
        }
      />
      <Box mb="md">
        <FilterBar
          label="Filter members"
          active={list.role ? 1 : 0}
          leading={
            <SearchBox value={list.q} onSearch={(q) => update({ q, start: 1 }, true)} label="Search members" placeholder="Search by name, username or email" />
          }
        >
          <Select
            aria-label="Filter by role"
            data={filterData}
            value={list.role}
            onChange={(v) => update({ role: v ?? '', start: 1 })}
            allowDeselect={false}
            w={220}
          />
        </FilterBar>
      </Box>
      <Paper withBorder radius="md" px="md" py="xs" mb="sm">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" c={selected.size ? undefined : 'dimmed'} aria-live="polite" data-testid="selection-count">
            {selected.size ? `${selected.size} member${selected.size === 1 ? '' : 's'} selected` : 'Tick members to give several of them a role at once.'}
          </Text>
          <Group gap="xs">
            {selected.size ? (
              <Button size="xs" variant="subtle" onClick={() => setSelected(new Map())}>
                Clear selection
              </Button>
            ) : null}
            <GuardedButton
              permission={changeRolesPermission(user)}
              size="xs"
              leftSection={<IconShield size={14} />}
              disabled={selected.size === 0}
              onClick={() => setAssigning(true)}
            >
              Assign role
            </GuardedButton>
          </Group>
        </Group>
      </Paper>
      <DataTable
        label="Members"
        itemName="members"
        columns={columns}
        rows={members.data?.users}
        rowKey={rowKey}
        selection={{ selected: new Set(selected.keys()), onChange: select, rowLabel: (m) => `Select ${m.username}` }}
        loading={members.isPending}
        fetching={members.isPlaceholderData || (members.isFetching && !members.isPending)}
        error={members.isError ? members.error : undefined}
        onRetry={() => members.refetch()}
        sort={{ field: list.sortField, order: list.sortOrder }}
        onSortChange={(s) => update({ sortField: s.field as MemberListState['sortField'], sortOrder: s.order, start: 1 })}
        paging={members.data ? { start: members.data.start || list.start, num: list.num, total: members.data.total } : undefined}
        onPageChange={(start) => update({ start })}
        onPageSizeChange={(num) => update({ num, start: 1 })}
        pageSizes={[...new Set([...PAGE_SIZES, list.num])].sort((a, b) => a - b)}
        empty={
          filtered ? (
            <EmptyPanel title="No members match" description="Try other words, or show every role." icon={<IconSearch size={28} />} />
          ) : (
            <EmptyPanel title="No members yet" description="Members you add appear here." />
          )
        }
      />
      <AddMemberModal opened={adding} onClose={() => setAdding(false)} customRoles={customRoles} rolesNote={rolesNote} />
      <AssignRoleModal
        opened={assigning}
        members={[...selected.values()]}
        onClose={(finished) => {
          setAssigning(false);
          if (finished) setSelected(new Map());
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
