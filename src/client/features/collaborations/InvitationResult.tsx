/** The invitation as the portal has it, once created, to hand to the guest's administrator. */
import { Button, Text } from '@mantine/core';
import type { CollaborationRecord } from '../../api/index.ts';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { InvitationView } from './ShowInvitationModal.tsx';
import type { Sent } from './useInviteForm.ts';

export function InvitationResult({
  orgId,
  collaboration,
  sent,
  onDone,
}: {
  orgId: string;
  collaboration: CollaborationRecord;
  sent: Sent;
  onDone: () => void;
}) {
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        <Text size="sm">
          {sent.guest} is invited. Its administrators see the invitation under Collaborations → Invitations in their console; you can also send it to them (by
          e-mail or another channel you trust). It takes part once the invitation is accepted.
        </Text>
        <InvitationView orgId={orgId} collaboration={collaboration} invitationId={sent.invitationId} />
      </DialogScroll>
      <DialogFooter>
        <Button onClick={onDone} data-autofocus>
          Done
        </Button>
      </DialogFooter>
    </DialogLayout>
  );
}
