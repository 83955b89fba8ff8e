/** The columns of a group's member list; a member from another organization is marked as such. */
import { Badge, Group, Text } from '@mantine/core';
import type { GroupMember, GroupRecord } from '../../api/index.ts';
import type { DataTableColumn } from '../../components/DataTable.tsx';
import { usernameColumn } from '../../components/usernameColumn.tsx';
import { formatDate } from '../../lib/format.ts';
import { MemberTypeBadge } from './badges.tsx';

export function groupMemberColumns(group: GroupRecord): DataTableColumn<GroupMember>[] {
  return [
    usernameColumn(),
    { id: 'fullname', header: 'Name', sortField: 'fullname', render: (m) => <Text size="sm">{m.fullName || '—'}</Text> },
    {
      id: 'type',
      header: 'In the group as',
      sortField: 'membertype',
      render: (m) => (
        <Group gap={6} wrap="nowrap">
          <MemberTypeBadge type={m.memberType} />
          {m.orgId && m.orgId !== group.orgId ? (
            <Badge variant="outline" color="orange" size="sm" tt="none">
              Other organization
            </Badge>
          ) : null}
        </Group>
      ),
    },
    { id: 'joined', header: 'Joined', sortField: 'joined', render: (m) => <Text size="sm">{formatDate(m.joined)}</Text> },
  ];
}
