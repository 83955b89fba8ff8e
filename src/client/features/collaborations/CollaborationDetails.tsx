/** One collaboration opened: its participants (with the host's actions on them), workspaces and history, and its dialogs. */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { CollaborationRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { CollaborationHistory } from './CollaborationHistory.tsx';
import { InviteParticipantModal } from './InviteParticipantModal.tsx';
import { LeaveCollaborationModal } from './LeaveCollaborationModal.tsx';
import { ParticipantsTable } from './ParticipantsTable.tsx';
import { RemoveParticipantModal } from './RemoveParticipantModal.tsx';
import { InvalidateInvitationModal } from './InvalidateInvitationButton.tsx';
import { ShowInvitationModal } from './ShowInvitationModal.tsx';
import { useCollaborationDetails } from './useCollaborationDetails.ts';
import { WorkspaceList } from './WorkspaceList.tsx';

export function CollaborationDetails({ orgId, c }: { orgId: string; c: CollaborationRecord }) {
  const {
    participants,
    workspaces,
    removing,
    setRemoving,
    invalidating,
    setInvalidating,
    leaving,
    setLeaving,
    inviting,
    setInviting,
    showing,
    setShowing,
    isHost,
    invitations,
    mayInvite,
    inviteAgain,
    me,
  } = useCollaborationDetails(orgId, c);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Text size="sm">{c.description}</Text>
        {!isHost ? (
          <Button size="xs" color="red" variant="light" onClick={() => setLeaving(true)}>
            Leave collaboration
          </Button>
        ) : (
          <GuardedButton size="xs" variant="light" permission={mayInvite} onClick={() => setInviting('new')}>
            Invite participant
          </GuardedButton>
        )}
      </Group>
      <Stack gap="xs">
        <Title order={3} fz="md">
          Participants
        </Title>
        {participants.isPending ? <LoadingState label="Loading participants…" minHeight={60} /> : null}
        {participants.isError ? <ErrorState error={participants.error} onRetry={() => participants.refetch()} /> : null}
        {participants.data ? (
          <ParticipantsTable
            name={c.name}
            participants={participants.data.participants}
            host={
              isHost
                ? {
                    mayInvite,
                    orgId,
                    invitations: invitations.data?.collaborationInvitations ?? [],
                    onRemove: setRemoving,
                    onInvalidate: setInvalidating,
                    onInviteAgain: inviteAgain,
                    onShowInvitation: (p, inv) => setShowing({ invitationId: inv.id, guestName: p.portalInfo.name }),
                  }
                : null
            }
          />
        ) : null}
      </Stack>

      <WorkspaceList workspaces={workspaces} />

      <CollaborationHistory orgId={orgId} collaborationId={c.id} />

      <InvalidateInvitationModal orgId={orgId} invitation={invalidating} onClose={() => setInvalidating(null)} />
      <RemoveParticipantModal orgId={orgId} collaborationId={c.id} participant={removing} onClose={() => setRemoving(null)} />
      <LeaveCollaborationModal orgId={orgId} collaboration={c} me={me} opened={leaving} onClose={() => setLeaving(false)} />
      {isHost ? (
        <InviteParticipantModal
          orgId={orgId}
          collaboration={c}
          workspaces={workspaces.data?.workspaces ?? []}
          target={inviting}
          participantIds={(participants.data?.participants ?? []).filter((p) => p.status === 'active' || p.status === 'invited').map((p) => p.portalInfo.id)}
          onClose={() => setInviting(null)}
        />
      ) : null}
      {isHost ? <ShowInvitationModal orgId={orgId} collaboration={c} shown={showing} onClose={() => setShowing(null)} /> : null}
    </Stack>
  );
}
