/** Declining an invitation asks first: the host sees it declined and would have to invite again. */
import { Alert, Modal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { describeError, type InvitationRecord } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { announce } from '../../lib/announce.ts';
import { useDeclineInvitation } from './mutations.ts';

export function DeclineInvitationModal({ orgId, invitation, onClose }: { orgId: string; invitation: InvitationRecord | null; onClose: () => void }) {
  const decline = useDeclineInvitation(orgId);
  const close = () => {
    decline.reset();
    onClose();
  };
  const confirm = () =>
    invitation &&
    decline.mutate(invitation.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Invitation declined', message: `You declined the invitation to ${invitation.collaborationName}.` });
        announce(`Invitation to ${invitation.collaborationName} declined`);
        close();
      },
    });
  return (
    <Modal opened={!!invitation} onClose={close} title={`Decline the invitation to ${invitation?.collaborationName ?? ''}?`} centered size="md">
      <DialogLayout>
        <DialogScroll gap="md">
          <Text size="sm">
            {invitation?.hostPortalName} sees that your organization declined. Nothing of your organization changes; to take part later,{' '}
            {invitation?.hostPortalName} has to invite you again.
          </Text>
          {decline.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(decline.error)}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions onCancel={close} onConfirm={confirm} confirmLabel="Decline invitation" loading={decline.isPending} />
      </DialogLayout>
    </Modal>
  );
}
