/**
 * A collaboration's participants: organization (by name), role, status, contact and workspaces;
 * for the host, what it can do with each guest — remove it, show its latest invitation again, and
 * invite it again once it is out (removed, gone, or it declined). An invited guest's row says when
 * its invitation expires, and offers Refresh once it has.
 */
import { Badge, Button, Group, Text } from '@mantine/core';
import type { HostInvitationRecord, ParticipantRecord } from '../../api/index.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { formatDate } from '../../lib/format.ts';
import type { Permission } from '../../lib/privileges.ts';
import { expiryInWords } from './invitationExpiry.ts';
import { InvalidateInvitationButton } from './InvalidateInvitationButton.tsx';
import { refreshable, RefreshInvitationButton } from './RefreshInvitationButton.tsx';
import { accessLabel } from './StoppingWorkspaces.tsx';

const STATUS_COLORS: Record<string, string> = { active: 'green', invited: 'blue', removed: 'red', left: 'gray', declined: 'orange' };

export interface HostActions {
  mayInvite: Permission;
  /** The invitations of the collaboration, newest first (the host's list). */
  invitations: readonly HostInvitationRecord[];
  onRemove: (p: ParticipantRecord) => void;
  /** Opens the confirmation to invalidate the guest's invitation. */
  onInvalidate: (invitation: HostInvitationRecord) => void;
  onInviteAgain: (p: ParticipantRecord) => void;
  onShowInvitation: (p: ParticipantRecord, invitation: HostInvitationRecord) => void;
  /** The host's organization (refreshing an invitation). */
  orgId: string;
}

/** The guest's newest invitation (the host's list is newest first). */
const latestOf = (p: ParticipantRecord, h: HostActions) => h.invitations.find((i) => i.guestPortalId === p.portalInfo.id);

export function ParticipantsTable({ name, participants, host }: { name: string; participants: ParticipantRecord[]; host: HostActions | null }) {
  const actions = (p: ParticipantRecord, h: HostActions) => {
    if (p.collaborationRole !== 'Guest') return null;
    const latest = latestOf(p, h);
    const inside = p.status === 'active' || p.status === 'invited';
    return (
      <Group gap={6} justify="flex-end" wrap="wrap">
        {latest ? (
          <Button size="xs" variant="default" onClick={() => h.onShowInvitation(p, latest)} aria-label={`Show invitation of ${p.portalInfo.name}`}>
            Show invitation
          </Button>
        ) : null}
        {p.status === 'invited' && latest?.state === 'expired' ? <RefreshInvitationButton orgId={h.orgId} invitation={latest} /> : null}
        {p.status === 'invited' && latest && refreshable(latest) ? (
          <InvalidateInvitationButton orgId={h.orgId} invitation={latest} onOpen={h.onInvalidate} />
        ) : null}
        {inside ? (
          <Button size="xs" color="red" variant="light" onClick={() => h.onRemove(p)} aria-label={`Remove ${p.portalInfo.name}`}>
            Remove
          </Button>
        ) : (
          <GuardedButton
            size="xs"
            variant="light"
            permission={h.mayInvite}
            onClick={() => h.onInviteAgain(p)}
            aria-label={`Invite again: ${p.portalInfo.name}`}
          >
            Invite again
          </GuardedButton>
        )}
      </Group>
    );
  };
  return (
    // The shared table: on a phone its rows stack into labelled cards instead of scrolling sideways.
    <DataTable
      label={`Participants of ${name}`}
      itemName="participants"
      rows={participants}
      rowKey={(p) => p.portalInfo.id}
      minWidth={640}
      columns={[
        {
          id: 'portal',
          header: 'Organization',
          render: (p) => (
            <Text size="sm" fw={600}>
              {p.portalInfo.name}
            </Text>
          ),
        },
        { id: 'role', header: 'Role', width: 70, render: (p) => <Text size="sm">{p.collaborationRole}</Text> },
        {
          id: 'status',
          header: 'Status',
          width: 170,
          stackFirst: true,
          render: (p) => {
            const latest = host && p.status === 'invited' ? latestOf(p, host) : undefined;
            const expired = latest?.state === 'expired';
            const expiry = latest && (expired || latest.state === 'pending') ? expiryInWords(latest.expiration) : null;
            return (
              <>
                <Badge size="sm" variant="light" color={expired ? 'red' : (STATUS_COLORS[p.status] ?? 'gray')} tt="none">
                  {expired ? 'invitation expired' : p.status}
                </Badge>
                {expiry ? (
                  <Text size="xs" c={expired ? 'red.9' : 'dimmed'}>
                    {expiry}
                  </Text>
                ) : null}
              </>
            );
          },
        },
        {
          id: 'contact',
          header: 'Contact',
          render: (p) => (
            <>
              <Text size="sm">{[p.config.contactFirstname, p.config.contactLastname].filter(Boolean).join(' ') || '—'}</Text>
              <Text size="xs" c="dimmed">
                {p.config.contactEmailAddress}
              </Text>
            </>
          ),
        },
        {
          id: 'workspaces',
          header: 'Workspaces',
          render: (p) => (
            <Text size="sm">
              {p.workspaces?.length
                ? p.workspaces.map((w) => `${w.workspaceName}: ${w.exchanging ? accessLabel(w.access) : `stopped ${formatDate(w.stopped)}`}`).join('; ')
                : '—'}
            </Text>
          ),
        },
        ...(host ? [{ id: 'actions', header: 'Actions', align: 'right' as const, render: (p: ParticipantRecord) => actions(p, host) }] : []),
      ]}
    />
  );
}
