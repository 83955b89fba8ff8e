/**
 * Refresh an invitation (documented `invitations/<id>/refresh`): it expires 72 hours from now,
 * whether or not it had expired, and the guest may answer it again. Offered while the guest has
 * not answered; the new expiry shows where the invitation is shown.
 */
import { notifications } from '@mantine/notifications';
import { describeError, type HostInvitationRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { announce } from '../../lib/announce.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { useRefreshInvitation } from './mutations.ts';
import { collaborationAction } from './permissions.ts';

/** Whether the host can still refresh it: the guest has not answered (it may have expired). */
export const refreshable = (inv: Pick<HostInvitationRecord, 'state'>) => inv.state === 'pending' || inv.state === 'expired';

export function RefreshInvitationButton({ orgId, invitation, size = 'xs' }: { orgId: string; invitation: HostInvitationRecord; size?: 'xs' | 'sm' }) {
  const user = useCurrentUser();
  const refresh = useRefreshInvitation(orgId, invitation.collaborationId);
  const permission = collaborationAction(user, 'refreshCollaborationInvitation', 'refresh invitations');
  const onRefresh = () =>
    refresh.mutate(invitation.id, {
      onSuccess: ({ invitationRequest }) => {
        const until = formatDateTime(invitationRequest.expiration);
        notifications.show({ color: 'green', title: 'Invitation refreshed', message: `The invitation of ${invitation.guestPortalName} now expires ${until}.` });
        announce(`Invitation of ${invitation.guestPortalName} refreshed; it expires ${until}`);
      },
      onError: (err) => {
        notifications.show({ color: 'red', title: 'The invitation was not refreshed', message: describeError(err) });
        announce(`The invitation was not refreshed: ${describeError(err)}`);
      },
    });
  return (
    <GuardedButton
      size={size}
      variant={invitation.state === 'expired' ? 'filled' : 'light'}
      permission={permission}
      loading={refresh.isPending}
      onClick={onRefresh}
      aria-label={`Refresh invitation of ${invitation.guestPortalName}`}
    >
      Refresh invitation
    </GuardedButton>
  );
}
