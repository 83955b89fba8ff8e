/**
 * One invitation addressed to the organization: the collaboration, its host, the workspaces
 * offered and when it expires, with Accept and Decline. An expired one says so, without Accept or
 * Decline (the portal refuses both), until its host refreshes it.
 */
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { InvitationRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { formatDate } from '../../lib/format.ts';
import type { Permission } from '../../lib/privileges.ts';
import { expiryInWords } from './invitationExpiry.ts';
import { ACCESS_LABELS } from './schemas.ts';

export function GuestInvitationCard({
  invitation,
  mayAnswer,
  accepting,
  onAccept,
  onDecline,
}: {
  invitation: InvitationRecord;
  mayAnswer: Permission;
  accepting: boolean;
  onAccept: () => void;
  onDecline: () => void;
}) {
  return (
    <Paper withBorder radius="md" p="sm" role="group" aria-label={`Invitation to ${invitation.collaborationName}`}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Text fw={600}>{invitation.collaborationName}</Text>
          <Text size="xs" c="dimmed">
            From {invitation.hostPortalName} · sent {formatDate(invitation.created)}
          </Text>
          {invitation.expires !== null ? (
            <Text size="xs" c={invitation.expired ? 'red.9' : 'dimmed'}>
              {expiryInWords(invitation.expires)}
              {invitation.expired ? ` — ask ${invitation.hostPortalName} to refresh it to answer.` : ''}
            </Text>
          ) : null}
          <Group gap={6}>
            {invitation.workspaces.map((w) => (
              <Badge key={w.id} size="sm" variant="light" color="teal" tt="none">
                {w.name}: {ACCESS_LABELS[w.access].toLowerCase()}
              </Badge>
            ))}
          </Group>
        </Stack>
        {invitation.expired ? (
          <Badge color="red" variant="light" tt="none">
            Expired
          </Badge>
        ) : (
          <Group gap="xs">
            <GuardedButton
              size="xs"
              permission={mayAnswer}
              loading={accepting}
              onClick={onAccept}
              aria-label={`Accept the invitation to ${invitation.collaborationName}`}
            >
              Accept
            </GuardedButton>
            <Button size="xs" color="red" variant="light" onClick={onDecline} aria-label={`Decline the invitation to ${invitation.collaborationName}`}>
              Decline
            </Button>
          </Group>
        )}
      </Group>
    </Paper>
  );
}
