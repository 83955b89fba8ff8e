/**
 * Roles: the default (base) roles, read-only, then the organization's roles — built-in and custom —
 * with what they amount to and who holds them; create, compare, delete.
 */
import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { RoleRecord } from '../../api/index.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { IconColumns, IconPlus, IconTrash } from '../../components/icons.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel } from '../../components/states.tsx';
import { formatDate } from '../../lib/format.ts';
import { effectivePrivileges } from '../../lib/privilegeSets.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { CompareRolesModal } from './CompareRolesModal.tsx';
import { DeleteRoleModal } from './DeleteRoleModal.tsx';
import { changeRolePermission, manageRolesPermission } from './permissions.ts';
import { orgRolesQuery, rolesPageQuery } from '../../api/queries/roles.ts';
import { actsAs, BASE_ROLE_RECORDS, roleOptions } from './roleOptions.ts';
import { parseRoleList, roleListToParams, type RoleListState } from './schemas.ts';

export default function RolesPage() {
  const user = useCurrentUser();
  const orgId = user.orgId;
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const list = parseRoleList(searchParams);
  const update = (patch: Partial<RoleListState>) => setSearchParams(roleListToParams({ ...list, ...patch }));
  const roles = useQuery(rolesPageQuery(orgId, { start: list.start, num: list.num }));
  const all = useQuery(orgRolesQuery(orgId));
  const [deleting, setDeleting] = useState<RoleRecord | null>(null);
  const [comparing, setComparing] = useState(false);
  const manage = manageRolesPermission(user);

  const columns: DataTableColumn<RoleRecord>[] = [
    {
      id: 'name',
      header: 'Role',
      render: (r) => (
        <Stack gap={2}>
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={`/roles/${encodeURIComponent(r.id)}`} fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
              {r.name}
            </Anchor>
            {r.builtIn ? (
              <Badge size="xs" variant="outline" color="gray" tt="none" style={{ flexShrink: 0 }}>
                Built-in
              </Badge>
            ) : null}
          </Group>
          {r.description ? (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {r.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'actsAs',
      header: 'Counts as',
      width: 120,
      render: (r) => (
        <Badge variant="light" color="gray" tt="none">
          {actsAs(r.privileges ?? [])}
        </Badge>
      ),
    },
    { id: 'privileges', header: 'Privileges', align: 'right', render: (r) => <Text size="sm">{effectivePrivileges(r.privileges ?? []).size}</Text> },
    {
      id: 'members',
      header: 'Members',
      align: 'right',
      render: (r) =>
        typeof r.memberCount === 'number' ? (
          <Anchor component={Link} to={`/members?role=${encodeURIComponent(r.id)}`} size="sm" aria-label={`${r.memberCount} members with the role ${r.name}`}>
            {r.memberCount}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      id: 'modified',
      header: 'Changed',
      render: (r) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(r.modified)}
        </Text>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      align: 'right',
      render: (r) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button
            component={Link}
            to={`/roles/${encodeURIComponent(r.id)}`}
            size="xs"
            variant="default"
            aria-label={`${changeRolePermission(user, r).allowed ? 'Edit' : 'View'} ${r.name}`}
          >
            {changeRolePermission(user, r).allowed ? 'Edit' : 'View'}
          </Button>
          <GuardedButton
            permission={changeRolePermission(user, r, 'delete')}
            size="xs"
            variant="default"
            color="red"
            leftSection={<IconTrash size={14} />}
            aria-label={`Delete ${r.name}`}
            onClick={() => setDeleting(r)}
          >
            Delete
          </GuardedButton>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Roles"
        description="Custom roles grant a chosen set of privileges. Members get a role on the Members page."
        actions={
          <>
            <Button variant="default" leftSection={<IconColumns size={16} />} onClick={() => setComparing(true)} disabled={!all.data}>
              Compare roles
            </Button>
            <GuardedButton permission={manage} leftSection={<IconPlus size={16} />} onClick={() => navigate('/roles/new')}>
              New role
            </GuardedButton>
          </>
        }
      />
      <Title order={2} fz="lg" mb="xs">
        Default roles
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every organization has these; they cannot be changed or deleted. Open one to see exactly what it allows.
      </Text>
      <DataTable
        label="Default roles"
        itemName="default roles"
        columns={columns.filter((c) => ['name', 'actsAs', 'privileges', 'actions'].includes(c.id))}
        rows={BASE_ROLE_RECORDS}
        rowKey={(r) => r.id}
      />
      <Title order={2} fz="lg" mt="xl" mb="xs">
        Organization roles
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        The built-in Viewer and Data Editor roles and the roles the organization created.
      </Text>
      <DataTable
        label="Roles"
        itemName="roles"
        columns={columns}
        rows={roles.data?.roles}
        rowKey={(r) => r.id}
        loading={roles.isPending}
        fetching={roles.isPlaceholderData}
        error={roles.isError ? roles.error : undefined}
        onRetry={() => roles.refetch()}
        paging={roles.data ? { start: roles.data.start || list.start, num: list.num, total: roles.data.total } : undefined}
        onPageChange={(start) => update({ start })}
        onPageSizeChange={(num) => update({ num, start: 1 })}
        pageSizes={[10, 25, 50, 100]}
        empty={<EmptyPanel title="No roles yet" description="Roles you create appear here." />}
      />
      <DeleteRoleModal role={deleting} onClose={() => setDeleting(null)} />
      <CompareRolesModal
        opened={comparing}
        onClose={() => setComparing(false)}
        options={roleOptions(all.data?.roles)}
        initialA={all.data?.roles.find((r) => !r.builtIn)?.id ?? 'org_user'}
      />
    </>
  );
}
