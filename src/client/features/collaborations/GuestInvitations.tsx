/**
 * The invitations addressed to the organization (local portal): each names the collaboration, its
 * host and the workspaces offered, with Accept and Decline (which asks first). Accepting makes the
 * organization a participant; the collaboration then appears in the list below. Each says when it
 * expires (GuestInvitationCard).
 */
import { Alert, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, type InvitationRecord } from '../../api/index.ts';
import { guestInvitationsQuery } from '../../api/queries/collaborations.ts';
import { ErrorState } from '../../components/states.tsx';
import { announce } from '../../lib/announce.ts';
import type { Permission } from '../../lib/privileges.ts';
import { DeclineInvitationModal } from './DeclineInvitationModal.tsx';
import { useAcceptInvitation } from './mutations.ts';
import { GuestInvitationCard } from './GuestInvitationCard.tsx';

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
        <GuestInvitationCard
          key={inv.id}
          invitation={inv}
          mayAnswer={mayAnswer}
          accepting={accept.isPending && accept.variables === inv.id}
          onAccept={() => onAccept(inv)}
          onDecline={() => setDeclining(inv)}
        />
      ))}
      <DeclineInvitationModal orgId={orgId} invitation={declining} onClose={() => setDeclining(null)} />
    </Stack>
  );
}
