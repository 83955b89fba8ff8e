/** The Members table's columns; user type and status sort only on a portal with the local extras. */
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { usernameColumn } from '../../components/usernameColumn.tsx';
import { formatDate } from '../../lib/format.ts';
import { licenseLabel } from '../../lib/licenses.ts';
import { roleLabel } from '../../lib/roles.ts';

const ROLE_COLORS: Record<string, string> = { org_admin: 'grape', org_publisher: 'teal', org_user: 'blue' };

export function memberPath(username: string): string {
  return `/members/${encodeURIComponent(username)}`;
}

export function StatusBadge({ disabled }: { disabled: boolean }) {
  return (
    <Badge variant={disabled ? 'outline' : 'light'} color={disabled ? 'gray' : 'green'} size="sm" tt="none">
      {disabled ? 'Disabled' : 'Active'}
    </Badge>
  );
}

export function memberColumns(opts: { customRoles: readonly RoleRecord[] | undefined; localExtras: boolean; actions: (m: PortalUser) => ReactNode }) {
  const { customRoles, localExtras } = opts;
  const columns: DataTableColumn<PortalUser>[] = [
    {
      id: 'fullname',
      header: 'Name',
      sortField: 'fullname',
      stackFirst: true,
      render: (m) => (
        <Stack gap={0}>
          <Anchor component={Link} to={memberPath(m.username)} size="sm" fw={600}>
            {m.fullName || m.username}
          </Anchor>
          {/* Not dimmed: a selected row's tint leaves dimmed text short of 4.5:1 contrast. */}
          {m.email ? <Text size="xs">{m.email}</Text> : null}
        </Stack>
      ),
    },
    usernameColumn(),
    {
      id: 'role',
      header: 'Role',
      sortField: 'role',
      render: (m) => (
        <Badge variant="light" color={m.roleId ? 'orange' : (ROLE_COLORS[m.role] ?? 'gray')} tt="none" size="md">
          {roleLabel(m, customRoles ?? [])}
        </Badge>
      ),
    },
    {
      id: 'userType',
      header: 'User type',
      sortField: localExtras ? 'userlicensetype' : undefined,
      render: (m) => <Text size="sm">{licenseLabel(m.userLicenseTypeId)}</Text>,
    },
    {
      id: 'status',
      header: 'Status',
      sortField: localExtras ? 'status' : undefined,
      render: (m) => <StatusBadge disabled={!!m.disabled} />,
    },
    { id: 'created', header: 'Added', sortField: 'created', render: (m) => <Text size="sm">{formatDate(m.created)}</Text> },
    { id: 'lastlogin', header: 'Last sign-in', sortField: 'lastlogin', render: (m) => <Text size="sm">{formatDate(m.lastLogin, 'Never')}</Text> },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      render: (m) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {opts.actions(m)}
        </Group>
      ),
    },
  ];
  return columns;
}
