/** A collaboration's accordion heading: its name, host and date, the caller's part in it, and its counts. */
import { Badge, Group, Stack, Text } from '@mantine/core';
import type { CollaborationRecord } from '../../api/index.ts';
import { formatDate, plural } from '../../lib/format.ts';

/**
 * The caller's part in a collaboration: the local portal says it (`collaborationRole`, a local
 * extra); elsewhere it follows from who hosts it.
 */
export const roleOf = (c: CollaborationRecord, orgId: string): 'Host' | 'Guest' =>
  c.collaborationRole ?? (c.collaborationHostPortalId === orgId ? 'Host' : 'Guest');

export function CollaborationHeading({ c, orgId }: { c: CollaborationRecord; orgId: string }) {
  const role = roleOf(c, orgId);
  const host = c.hostPortalName ?? (role === 'Host' ? 'your organization' : c.collaborationHostPortalId);
  const counts = [
    c.activeParticipants !== undefined ? `${c.activeParticipants} participant${c.activeParticipants === 1 ? '' : 's'}` : null,
    c.workspaceCount !== undefined ? plural(c.workspaceCount, 'workspace') : null,
  ].filter(Boolean);
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" pr="sm">
      <Stack gap={0}>
        <Text fw={600}>{c.name}</Text>
        <Text size="xs" c="dimmed">
          Hosted by {host} · created {formatDate(c.created)}
        </Text>
      </Stack>
      <Group gap={6}>
        <Badge variant="light" color={role === 'Host' ? 'grape' : 'blue'} tt="none">
          {role === 'Host' ? 'You host' : 'You are a guest'}
        </Badge>
        {counts.length ? (
          <Badge variant="outline" color="gray" tt="none">
            {counts.join(' · ')}
          </Badge>
        ) : null}
      </Group>
    </Group>
  );
}
