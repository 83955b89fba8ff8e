/** What happened to a collaboration, newest first (a local-only read: elsewhere a note says so). */
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { eventsQuery } from '../../api/queries/collaborations.ts';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { formatDateTime } from '../../lib/format.ts';

export function CollaborationHistory({ orgId, collaborationId }: { orgId: string; collaborationId: string }) {
  const caps = usePortalCapabilities();
  // The history is a local-only operation: not asked of a portal that does not offer it.
  const events = useQuery({ ...eventsQuery(orgId, collaborationId), enabled: caps.localExtras });
  return (
    <>
      {caps.known && !caps.localExtras ? (
        <Stack gap={4}>
          <Title order={3} fz="md">
            History
          </Title>
          <Text size="xs" c="dimmed">
            {caps.unavailable('a collaboration history')}
          </Text>
        </Stack>
      ) : null}
      {events.data?.events.length ? (
        <Stack gap={4}>
          <Title order={3} fz="md">
            History
          </Title>
          {events.data.events.map((e, i) => (
            <Text key={i} size="xs" c="dimmed">
              {formatDateTime(e.created)} — {describeEvent(e.operation, e.properties)}
              {e.username ? ` (by ${e.username})` : ''}
            </Text>
          ))}
        </Stack>
      ) : null}
    </>
  );
}

function describeEvent(operation: string, p: Record<string, unknown>): string {
  switch (operation) {
    case 'create':
      return 'Collaboration created';
    case 'addWorkspace':
      return `Workspace “${String(p.name ?? '')}” added`;
    case 'inviteParticipant':
      return p.participantName ? `${String(p.participantName)} was invited` : 'A portal was invited';
    case 'acceptInvitation':
      return p.participantName ? `${String(p.participantName)} accepted the invitation` : 'An invitation was accepted';
    case 'declineInvitation':
      return p.participantName ? `${String(p.participantName)} declined the invitation` : 'An invitation was declined';
    case 'refreshInvitation':
      return `The invitation of ${String(p.participantName ?? 'a portal')} was refreshed`;
    case 'invalidateInvitation':
      return `The invitation of ${String(p.participantName ?? 'a portal')} was invalidated`;
    case 'removeParticipant':
      return `${String(p.participantName ?? 'A participant')} was removed`;
    case 'removeParticipation':
      return `${String(p.participantName ?? 'A participant')} left`;
    default:
      return operation;
  }
}
