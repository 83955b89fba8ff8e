/**
 * The invitations addressed to the organization (local portal): each names the collaboration, its
 * host and the workspaces offered, with Accept and Decline (which asks first). Accepting makes the
 * organization a participant; the collaboration then appears in the list below. Each says when it
 * expires; an expired one says so, without Accept or Decline (the portal refuses both), until its
 * host refreshes it.
 */
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, type InvitationRecord } from '../../api/index.ts';
import { guestInvitationsQuery } from '../../api/queries/collaborations.ts';
import { ErrorState } from '../../components/states.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { announce } from '../../lib/announce.ts';
import { formatDate } from '../../lib/format.ts';
import type { Permission } from '../../lib/privileges.ts';
import { DeclineInvitationModal } from './DeclineInvitationModal.tsx';
import { useAcceptInvitation } from './mutations.ts';
import { expiryInWords } from './invitationExpiry.ts';
import { ACCESS_LABELS } from './schemas.ts';

export function GuestInvitations({ orgId, mayAnswer, onAccepted }: { orgId: string; mayAnswer: Permission; onAccepted: (collaborationId: string) => void }) {
  const list = useQuery(guestInvitationsQuery(orgId));
  const accept = useAcceptInvitation(orgId);
  const [declining, setDeclining] = useState<InvitationRecord | null>(null);
  const invitations = list.data?.invitations ?? [];
  if (list.isError) return <ErrorState error={list.error} title="Invitations could not be loaded" onRetry={() => list.refetch()} />;
  if (!invitations.length) return null;

  const onAccept = (inv: InvitationRecord) =>
    accept.mutate(inv.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Invitation accepted', message: `Your organization now takes part in ${inv.collaborationName}.` });
        announce(`Invitation accepted: your organization takes part in ${inv.collaborationName}`);
        onAccepted(inv.collaborationId);
      },
    });

  return (
    <Stack gap="xs" mb="lg" component="section" aria-labelledby="guest-invitations-heading">
      <Title order={2} fz="lg" id="guest-invitations-heading">
        Invitations
      </Title>
      {accept.isError ? (
        <Alert color="red" variant="light" role="alert" title="The invitation was not accepted">
          {describeError(accept.error)}
        </Alert>
      ) : null}
      {invitations.map((inv) => (
        <Paper key={inv.id} withBorder radius="md" p="sm" role="group" aria-label={`Invitation to ${inv.collaborationName}`}>
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Stack gap={2}>
              <Text fw={600}>{inv.collaborationName}</Text>
              <Text size="xs" c="dimmed">
                From {inv.hostPortalName} · sent {formatDate(inv.created)}
              </Text>
              {inv.expires !== null ? (
                <Text size="xs" c={inv.expired ? 'red.8' : 'dimmed'}>
                  {expiryInWords(inv.expires)}
                  {inv.expired ? ` — ask ${inv.hostPortalName} to refresh it to answer.` : ''}
                </Text>
              ) : null}
              <Group gap={6}>
                {inv.workspaces.map((w) => (
                  <Badge key={w.id} size="sm" variant="light" color="teal" tt="none">
                    {w.name}: {ACCESS_LABELS[w.access].toLowerCase()}
                  </Badge>
                ))}
              </Group>
            </Stack>
            {inv.expired ? (
              <Badge color="red" variant="light" tt="none">
                Expired
              </Badge>
            ) : (
              <Group gap="xs">
                <GuardedButton
                  size="xs"
                  permission={mayAnswer}
                  loading={accept.isPending && accept.variables === inv.id}
                  onClick={() => onAccept(inv)}
                  aria-label={`Accept the invitation to ${inv.collaborationName}`}
                >
                  Accept
                </GuardedButton>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() => setDeclining(inv)}
                  aria-label={`Decline the invitation to ${inv.collaborationName}`}
                >
                  Decline
                </Button>
              </Group>
            )}
          </Group>
        </Paper>
      ))}
      <DeclineInvitationModal orgId={orgId} invitation={declining} onClose={() => setDeclining(null)} />
    </Stack>
  );
}
