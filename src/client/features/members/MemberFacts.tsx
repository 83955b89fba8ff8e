/** A member's facts: profile, role, user type, status, dates, groups and content. */
import { Anchor, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { itemSearchQuery } from '../../api/queries/items.ts';
import { LabeledValue } from '../../components/LabeledValue.tsx';
import { formatCount, formatDate, formatDateTime, plural } from '../../lib/format.ts';
import { licenseLabel } from '../../lib/licenses.ts';
import { roleLabel } from '../../lib/roles.ts';
import { StatusBadge } from './memberColumns.tsx';

interface GroupLike {
  id: string;
  title: string;
  userMembership?: { memberType?: string };
}

export function MemberFacts({ member: m, customRoles }: { member: PortalUser; customRoles: readonly RoleRecord[] | undefined }) {
  // `search` with the owner and no rows: the exact count of what the member owns.
  const content = useQuery(itemSearchQuery({ q: `owner:"${m.username}"`, num: 0 }));
  const groups = (m.groups ?? []) as GroupLike[];
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
          <LabeledValue label="Role">{roleLabel(m, customRoles ?? [])}</LabeledValue>
          <LabeledValue label="User type">{licenseLabel(m.userLicenseTypeId)}</LabeledValue>
          <LabeledValue label="Status">
            <StatusBadge disabled={!!m.disabled} />
          </LabeledValue>
          <LabeledValue label="Email">{m.email || '—'}</LabeledValue>
          <LabeledValue label="Last sign-in">{formatDateTime(m.lastLogin, 'Never')}</LabeledValue>
          <LabeledValue label="Added">{formatDate(m.created)}</LabeledValue>
          <LabeledValue label="Profile visible to">
            {m.access === 'private' ? 'Only them and administrators' : m.access === 'org' ? 'The organization' : 'Everyone'}
          </LabeledValue>
          <LabeledValue label="Description">{m.description || '—'}</LabeledValue>
        </SimpleGrid>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="xs">
            Content
          </Title>
          <Group gap="sm">
            <Text size="sm">
              {content.isPending ? 'Counting…' : content.isError ? 'The content could not be counted.' : `Owns ${plural(content.data.total, 'item')}.`}
            </Text>
            <Anchor component={Link} to={`/content?scope=org&owner=${encodeURIComponent(m.username)}`} size="sm">
              List their content
            </Anchor>
          </Group>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Title order={2} size="h4" mb="xs">
            Groups ({formatCount(groups.length)})
          </Title>
          {groups.length ? (
            <List size="sm" spacing={4}>
              {groups.map((g) => (
                <List.Item key={g.id}>
                  <Anchor component={Link} to={`/groups/${encodeURIComponent(g.id)}`} size="sm">
                    {g.title}
                  </Anchor>
                  {g.userMembership?.memberType && g.userMembership.memberType !== 'member' ? (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      ({g.userMembership.memberType === 'owner' ? 'owner' : 'manager'})
                    </Text>
                  ) : null}
                </List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm" c="dimmed">
              Not in any group.
            </Text>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
