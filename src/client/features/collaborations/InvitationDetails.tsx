/**
 * One invitation as the host hands it over: who is invited to what (by name), where it stands,
 * and the invitation as text with a copy button. Shown when an invitation is created and again
 * from the participant's row.
 */
import { Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { HostInvitationRecord } from '../../api/index.ts';
import { CopyValue } from '../../components/CopyValue.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { announce } from '../../lib/announce.ts';
import { saveFile } from '../../lib/download.ts';
import { expiryInWords } from './invitationExpiry.ts';
import { InvalidateInvitationButton } from './InvalidateInvitationButton.tsx';
import { refreshable, RefreshInvitationButton } from './RefreshInvitationButton.tsx';
import { ACCESS_LABELS } from './schemas.ts';

const STATE_LABELS: Record<HostInvitationRecord['state'], { label: string; color: string }> = {
  pending: { label: 'Waiting for an answer', color: 'blue' },
  accepted: { label: 'Accepted', color: 'green' },
  declined: { label: 'Declined', color: 'orange' },
  cancelled: { label: 'Cancelled', color: 'gray' },
  invalidated: { label: 'Invalidated', color: 'gray' },
  expired: { label: 'Expired', color: 'red' },
};

/** The invitation in words, for e-mail or another channel the two organizations trust. */
export function invitationText(inv: HostInvitationRecord, hostName: string): string {
  return [
    `Invitation to the collaboration “${inv.collaborationName}”, hosted by ${hostName}.`,
    `Invited organization: ${inv.guestPortalName}`,
    `Invitation ID: ${inv.id}`,
    ...(inv.expiration ? [`Answer by: ${formatDateTime(inv.expiration)}`] : []),
    'Workspaces:',
    ...inv.workspaces.map((w) => `  - ${w.name}: ${ACCESS_LABELS[w.access].toLowerCase()}`),
    `To answer, an administrator of ${inv.guestPortalName} opens Collaborations → Invitations in the console and accepts or declines it (or, on ArcGIS Enterprise, accepts with the invitation file sent with this text).`,
  ].join('\n');
}

/**
 * The invitation file a guest on ArcGIS Enterprise accepts with (acceptCollaborationInvitation):
 * the portal's `invitationString`, under the file name the portal gives it.
 */
function downloadInvitationFile(invitation: HostInvitationRecord) {
  const blob = new Blob([invitation.invitationString], { type: 'application/octet-stream' });
  saveFile({ blob, filename: invitation.config.invitationRequestFilename }, 'collaboration.invite');
  // The file's name carries the guest's organization id: the announcement does not read it out.
  announce('Invitation file downloaded');
}

/** `orgId`: the host's organization, to offer Refresh and Invalidate while the guest has not answered. */
export function InvitationDetails({ invitation, hostName, orgId }: { invitation: HostInvitationRecord; hostName: string; orgId?: string }) {
  const state = STATE_LABELS[invitation.state] ?? { label: invitation.status, color: 'gray' };
  const text = invitationText(invitation, hostName);
  const expiry = refreshable(invitation) ? expiryInWords(invitation.expiration) : null;
  return (
    <Stack gap="sm" data-testid="invitation-details">
      <Group gap="xs">
        <Text size="sm">
          {invitation.guestPortalName} · sent {formatDateTime(invitation.created)}
        </Text>
        <Badge size="sm" variant="light" color={state.color} tt="none">
          {state.label}
        </Badge>
      </Group>
      {expiry ? (
        <Group gap="xs" data-testid="invitation-expiry">
          <Text size="sm" c={invitation.state === 'expired' ? 'red.9' : undefined}>
            {expiry}
            {invitation.state === 'expired' ? `: ${invitation.guestPortalName} can no longer answer it until it is refreshed.` : ''}
          </Text>
          {orgId ? <RefreshInvitationButton orgId={orgId} invitation={invitation} /> : null}
          {orgId ? <InvalidateInvitationButton orgId={orgId} invitation={invitation} /> : null}
        </Group>
      ) : null}
      <CopyValue label="Invitation ID" value={invitation.id} copyLabel="Copy invitation ID" inline />
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Invitation
        </Text>
        <Code block aria-label="Invitation" style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Code>
        <Group gap="xs">
          <CopyButton value={text} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                variant="light"
                size="xs"
                onClick={() => {
                  copy();
                  announce('Invitation copied');
                }}
              >
                {copied ? 'Copied' : 'Copy invitation'}
              </Button>
            )}
          </CopyButton>
          <Button variant="light" size="xs" onClick={() => downloadInvitationFile(invitation)}>
            Download invitation file
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
