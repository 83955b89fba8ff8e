/**
 * The selection and what can be done with it: rows ticked (kept across pages) or every member
 * matching the filter, and the bulk actions — each disabled with the reason when the signed-in
 * member's role does not allow it.
 */
import { Button, Group, Menu, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { orgGroupsQuery } from '../../api/queries/groups.ts';
import { GuardedMenuItem } from '../../components/GuardedMenuItem.tsx';
import { IconChevronDown } from '../../components/icons.tsx';
import { can } from '../../lib/can.ts';
import { formatCount, plural } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { BULK_TITLES, type BulkKind } from './bulk/plan.ts';
import { addToGroupsPermission, changeRolesPermission, changeUserTypesPermission, deleteMembersPermission, disableMembersPermission } from './permissions.ts';

export interface SelectionBarProps {
  /** Rows ticked, or null when every matching member is selected. */
  ticked: number;
  allMatching: boolean;
  /** Members matching the filter (the list's exact total). */
  total: number | undefined;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onAction: (kind: BulkKind) => void;
  /** More actions on the selection, beside the menu (the lifecycle's expiration). */
  children?: ReactNode;
}

export function SelectionBar({ ticked, allMatching, total, onSelectAllMatching, onClear, onAction, children }: SelectionBarProps) {
  const user = useCurrentUser();
  // A group's owner or manager adds members to it without assignToGroups: read which groups those are.
  const mayAssignAny = can(user, 'addGroupUsers').allowed;
  const groups = useQuery({ ...orgGroupsQuery(user.orgId), enabled: !mayAssignAny });
  const count = allMatching ? (total ?? 0) : ticked;
  const permissions: Record<BulkKind, ReturnType<typeof changeRolesPermission>> = {
    role: changeRolesPermission(user),
    userType: changeUserTypesPermission(user),
    disable: disableMembersPermission(user),
    enable: disableMembersPermission(user),
    groups: addToGroupsPermission(user, groups.data?.results),
    delete: deleteMembersPermission(user),
  };
  return (
    <Paper withBorder radius="md" px="md" py="xs" mb="sm">
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Text size="sm" c={count ? undefined : 'dimmed'} aria-live="polite" data-testid="selection-count">
            {allMatching
              ? `All ${plural(count, 'member')} matching the filter selected`
              : count
                ? `${plural(count, 'member')} selected`
                : 'Tick members, or select all that match, to act on several at once.'}
          </Text>
          {!allMatching && total !== undefined && total > ticked ? (
            <Button size="xs" variant="light" onClick={onSelectAllMatching}>
              Select all {formatCount(total)} matching
            </Button>
          ) : null}
          {count ? (
            <Button size="xs" variant="subtle" onClick={onClear}>
              Clear selection
            </Button>
          ) : null}
        </Group>
        <Group gap="xs" wrap="wrap">
          {children}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button size="xs" rightSection={<IconChevronDown size={14} />} disabled={count === 0}>
                Act on selection
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(Object.keys(BULK_TITLES) as BulkKind[]).map((kind) => (
                <GuardedMenuItem key={kind} permission={permissions[kind]} onClick={() => onAction(kind)} color={kind === 'delete' ? 'red' : undefined}>
                  {BULK_TITLES[kind]}
                </GuardedMenuItem>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}
