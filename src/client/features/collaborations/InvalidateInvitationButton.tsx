/**
 * Invalidate an invitation (`invitations/<id>/invalidate`), beside Refresh while the guest has not
 * answered it: after a confirmation that says what follows — the guest can no longer accept it, it
 * cannot be refreshed, and the organization leaves the participants until it is invited again
 * (Invite again sends a new invitation). Disabled, with the reason in words, for whoever may not.
 */
import { Alert, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError, type HostInvitationRecord } from '../../api/index.ts';
import { ConfirmActions } from '../../components/ConfirmActions.tsx';
import { DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { announce } from '../../lib/announce.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useInvalidateInvitation } from './mutations.ts';
import { collaborationAction } from './permissions.ts';

/**
 * The button; `onOpen` opens a confirmation held by the page (a table row may be drawn again while
 * the dialog is open), else the button holds its own.
 */
export function InvalidateInvitationButton({
  orgId,
  invitation,
  size = 'xs',
  onOpen,
}: {
  orgId: string;
  invitation: HostInvitationRecord;
  size?: 'xs' | 'sm';
  onOpen?: (invitation: HostInvitationRecord) => void;
}) {
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const permission = collaborationAction(user, 'invalidateCollaborationInvitation', 'invalidate invitations');
  return (
    <>
      <GuardedButton
        size={size}
        color="red"
        variant="subtle"
        permission={permission}
        onClick={() => (onOpen ? onOpen(invitation) : setOpen(true))}
        aria-label={`Invalidate invitation of ${invitation.guestPortalName}`}
      >
        Invalidate invitation
      </GuardedButton>
      {onOpen ? null : <InvalidateInvitationModal orgId={orgId} invitation={open ? invitation : null} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The confirmation, open while `invitation` is set. */
export function InvalidateInvitationModal({ orgId, invitation, onClose }: { orgId: string; invitation: HostInvitationRecord | null; onClose: () => void }) {
  const invalidate = useInvalidateInvitation(orgId, invitation?.collaborationId ?? '');
  const guest = invitation?.guestPortalName ?? '';
  const close = () => {
    invalidate.reset();
    onClose();
  };
  const confirm = () =>
    invitation &&
    invalidate.mutate(invitation.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Invitation invalidated', message: `${guest} can no longer accept this invitation.` });
        announce(`Invitation of ${guest} invalidated`);
        onClose();
      },
      onError: (err) => announce(`The invitation was not invalidated: ${describeError(err)}`, 'assertive'),
    });
  return (
    <Modal opened={!!invitation} onClose={close} title={`Invalidate the invitation of ${guest}?`} centered>
      <DialogLayout>
        <DialogScroll gap="sm">
          <Stack gap="xs">
            <Text size="sm">
              {guest} can no longer accept this invitation, even with the invitation file it may have received, and the invitation cannot be refreshed.
            </Text>
            <Text size="sm">{guest} leaves the participants; to have it join later, use “Invite again”, which creates a new invitation to send.</Text>
          </Stack>
          {invalidate.isError ? (
            <Alert color="red" variant="light" role="alert" title="The invitation was not invalidated">
              {describeError(invalidate.error)}
            </Alert>
          ) : null}
        </DialogScroll>
        <ConfirmActions onCancel={close} onConfirm={() => void confirm()} confirmLabel="Invalidate invitation" loading={invalidate.isPending} />
      </DialogLayout>
    </Modal>
  );
}
