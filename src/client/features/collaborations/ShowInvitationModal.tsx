/**
 * An invitation shown again from the participant's row (`…/invitations/<invitationId>`): its
 * details and the text to hand over once more, whatever became of it.
 */
import { Button, Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getHostInvitation, type CollaborationRecord } from '../../api/index.ts';
import { collaborationKeys } from '../../api/queries/collaborations.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { InvitationDetails } from './InvitationDetails.tsx';

/** One invitation read from the portal, with its details. */
export function InvitationView({ orgId, collaboration, invitationId }: { orgId: string; collaboration: CollaborationRecord; invitationId: string }) {
  const invitation = useQuery({
    queryKey: [...collaborationKeys.invitations(orgId, collaboration.id), invitationId],
    queryFn: ({ signal }) => getHostInvitation(orgId, collaboration.id, invitationId, { signal }),
  });
  if (invitation.isPending) return <LoadingState label="Loading the invitation…" minHeight={80} />;
  if (invitation.isError) return <ErrorState error={invitation.error} title="The invitation could not be loaded" onRetry={() => invitation.refetch()} />;
  return <InvitationDetails invitation={invitation.data} hostName={collaboration.hostPortalName ?? 'your organization'} orgId={orgId} />;
}

export function ShowInvitationModal({
  orgId,
  collaboration,
  shown,
  onClose,
}: {
  orgId: string;
  collaboration: CollaborationRecord;
  /** The invitation shown and the organization it invites, or null: closed. */
  shown: { invitationId: string; guestName: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={!!shown} onClose={onClose} title={`Invitation of ${shown?.guestName ?? ''}`} size="lg" centered>
      {shown ? (
        <DialogLayout>
          <DialogScroll gap="md">
            <InvitationView orgId={orgId} collaboration={collaboration} invitationId={shown.invitationId} />
          </DialogScroll>
          <DialogFooter>
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          </DialogFooter>
        </DialogLayout>
      ) : null}
    </Modal>
  );
}
