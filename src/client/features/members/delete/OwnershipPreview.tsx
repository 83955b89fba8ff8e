/**
 * Before a member is deleted: what they own, kind by kind — items with how many items use each,
 * groups, folders, scheduled tasks and webhooks — what happens to each kind, and the way to the
 * transfer wizard for what must be moved first.
 */
import { Alert, Anchor, Badge, Group, List, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { describeError, type PortalUser } from '../../../api/index.ts';
import { plural } from '../../../lib/format.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useOwnership, type OwnedKind } from './ownership.ts';
import { GroupTransferPlan } from './GroupTransferPlan.tsx';
import { OwnershipTransferPlan } from './OwnershipTransferPlan.tsx';

/** Entries listed per kind: the count says how many in all. */
const LISTED = 10;

function KindCard({ kind }: { kind: OwnedKind }) {
  const headingId = `owned-${kind.key}`;
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" gap="xs" mb={4}>
        <Title order={3} size="h5" id={headingId}>
          {kind.label}
        </Title>
        {kind.pending ? <Loader size="xs" aria-label={`Reading ${kind.label.toLowerCase()}`} /> : null}
        {kind.total !== undefined ? (
          <Badge variant="light" color={kind.blocks && kind.total ? 'orange' : 'gray'} tt="none" data-testid={`owned-${kind.key}-count`}>
            {kind.total}
          </Badge>
        ) : null}
      </Group>
      {kind.error ? (
        <Text size="xs">Could not be read: {describeError(kind.error)}</Text>
      ) : kind.entries?.length ? (
        <List size="xs" spacing={2} aria-label={kind.label}>
          {kind.entries.slice(0, LISTED).map((e) => (
            <List.Item key={e.id}>
              {e.to ? (
                <Anchor component={Link} to={e.to} size="xs">
                  {e.title}
                </Anchor>
              ) : (
                e.title
              )}
              {e.dependents !== undefined ? (
                <Text span size="xs" fw={e.dependents ? 600 : undefined}>
                  {' '}
                  — {e.dependents ? `used by ${plural(e.dependents, 'item')}` : 'nothing uses it'}
                </Text>
              ) : null}
            </List.Item>
          ))}
          {(kind.total ?? 0) > LISTED ? <List.Item>and {plural((kind.total ?? 0) - LISTED, 'more')}</List.Item> : null}
        </List>
      ) : kind.total === 0 ? (
        <Text size="xs" c="dimmed">
          None.
        </Text>
      ) : null}
      {kind.total ? (
        <Text size="xs" c="dimmed" mt={4}>
          {kind.fate}
        </Text>
      ) : null}
    </Paper>
  );
}

export function OwnershipPreview({ member }: { member: Pick<PortalUser, 'username' | 'id'> }) {
  const user = useCurrentUser();
  const kinds = useOwnership(user.orgId, member);
  const blocking = kinds.filter((k) => k.blocks && k.total);
  return (
    <Stack gap="xs" data-testid="ownership-preview">
      <Title order={2} size="h4">
        What {member.username} owns
      </Title>
      {blocking.length ? (
        <Alert color="orange" variant="light" title="Transfer or delete these first">
          {member.username} owns {blocking.map((k) => plural(k.total!, k.label.toLowerCase().replace(/s$/, ''))).join(' and ')}: the portal will not delete the
          member until they are moved or deleted.{' '}
          <Anchor component={Link} to={`/members/transfer?from=${encodeURIComponent(member.username)}`} size="sm">
            Transfer their content
          </Anchor>
        </Alert>
      ) : null}
      <OwnershipTransferPlan from={member.username} />
      <GroupTransferPlan from={member.username} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {kinds.map((k) => (
          <KindCard key={k.key} kind={k} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
