/**
 * Collaborations: the ones the organization hosts or joins as a guest; for each, its participants
 * (portal, role, status, workspaces) and workspaces (who exchanges through them), and — for the
 * host — removing a participant after an impact preview and a typed confirmation; a guest may
 * leave the same way. The host also creates collaborations (with their first workspace), invites
 * organizations by name — one that is out again from its row — and shows an invitation again from
 * its row. Above the list, the guest's side: the invitations it has to answer.
 */
import { Accordion, Badge, Button, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CollaborationRecord, ParticipantRecord } from '../../api/index.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EmptyPanel, ErrorState, LoadingState } from '../../components/states.tsx';
import { formatDate, plural } from '../../lib/format.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { collaborationsQuery, hostInvitationsQuery, participantsQuery, workspacesQuery } from '../../api/queries/collaborations.ts';
import { GuestInvitations } from './GuestInvitations.tsx';
import { ParticipantsTable } from './ParticipantsTable.tsx';
import { ShowInvitationModal } from './ShowInvitationModal.tsx';
import { InviteParticipantModal, type InviteTarget } from './InviteParticipantModal.tsx';
import { LeaveCollaborationModal } from './LeaveCollaborationModal.tsx';
import { NewCollaborationModal } from './NewCollaborationModal.tsx';
import { collaborationAction } from './permissions.ts';
import { RemoveParticipantModal } from './RemoveParticipantModal.tsx';
import { CollaborationHistory } from './CollaborationHistory.tsx';
import { WorkspaceList } from './WorkspaceList.tsx';

export default function CollaborationsPage() {
  const user = useCurrentUser();
  const [start, setStart] = useState(1);
  const list = useQuery(collaborationsQuery(user.orgId, start));
  const [open, setOpen] = useState<string | null>(null);
  const rows = list.data?.collaborations ?? [];
  const current = open ?? rows[0]?.id ?? null;
  const caps = usePortalCapabilities();
  const [creating, setCreating] = useState(false);
  // Creating is a local-portal operation; elsewhere the button says so instead.
  const mayCreate = localOnly(caps, 'creating collaborations from the console', collaborationAction(user, 'createCollaboration', 'create collaborations'));
  const newButton = (
    <GuardedButton permission={mayCreate} onClick={() => setCreating(true)}>
      New collaboration
    </GuardedButton>
  );

  return (
    <>
      <PageHeader
        title="Collaborations"
        description="Distributed collaborations your organization hosts or takes part in, who participates, and the workspaces content is exchanged through."
        actions={newButton}
      />
      <NewCollaborationModal opened={creating} onClose={() => setCreating(false)} onCreated={(id) => setOpen(id)} />
      {/* The guest's side: invitations to answer (a local-portal list). */}
      {caps.localExtras ? (
        <GuestInvitations
          orgId={user.orgId}
          mayAnswer={collaborationAction(user, 'acceptCollaborationInvitation', 'accept invitations')}
          onAccepted={(id) => setOpen(id)}
        />
      ) : null}
      {list.isPending ? <LoadingState label="Loading collaborations…" /> : null}
      {list.isError ? <ErrorState error={list.error} title="Collaborations could not be loaded" onRetry={() => list.refetch()} /> : null}
      {list.data && !rows.length ? <EmptyPanel title="No collaborations" description="Collaborations your organization hosts or joins appear here." /> : null}
      {rows.length ? (
        <Accordion value={current} onChange={setOpen} variant="separated" radius="md">
          {rows.map((c) => (
            <Accordion.Item key={c.id} value={c.id}>
              {/* Named by its content, which starts with the collaboration's name (an aria-label would leave out the rest shown). */}
              <Accordion.Control>
                <CollaborationHeading c={c} orgId={user.orgId} />
              </Accordion.Control>
              <Accordion.Panel>{current === c.id ? <CollaborationDetails orgId={user.orgId} c={c} /> : null}</Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      ) : null}
      {list.data && list.data.total > 20 ? (
        <Group justify="center" mt="md">
          <Pagination total={Math.ceil(list.data.total / 20)} value={Math.floor((start - 1) / 20) + 1} onChange={(p) => setStart((p - 1) * 20 + 1)} />
        </Group>
      ) : null}
    </>
  );
}

/**
 * The caller's part in a collaboration: the local portal says it (`collaborationRole`, a local
 * extra); elsewhere it follows from who hosts it.
 */
const roleOf = (c: CollaborationRecord, orgId: string): 'Host' | 'Guest' => c.collaborationRole ?? (c.collaborationHostPortalId === orgId ? 'Host' : 'Guest');

function CollaborationHeading({ c, orgId }: { c: CollaborationRecord; orgId: string }) {
  const role = roleOf(c, orgId);
  const host = c.hostPortalName ?? (role === 'Host' ? 'your organization' : c.collaborationHostPortalId);
  const counts = [
    c.activeParticipants !== undefined ? `${c.activeParticipants} participant${c.activeParticipants === 1 ? '' : 's'}` : null,
    c.workspaceCount !== undefined ? plural(c.workspaceCount, 'workspace') : null,
  ].filter(Boolean);
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" pr="sm">
      <Stack gap={0}>
        <Text fw={600}>{c.name}</Text>
        <Text size="xs" c="dimmed">
          Hosted by {host} · created {formatDate(c.created)}
        </Text>
      </Stack>
      <Group gap={6}>
        <Badge variant="light" color={role === 'Host' ? 'grape' : 'blue'} tt="none">
          {role === 'Host' ? 'You host' : 'You are a guest'}
        </Badge>
        {counts.length ? (
          <Badge variant="outline" color="gray" tt="none">
            {counts.join(' · ')}
          </Badge>
        ) : null}
      </Group>
    </Group>
  );
}

function CollaborationDetails({ orgId, c }: { orgId: string; c: CollaborationRecord }) {
  const participants = useQuery(participantsQuery(orgId, c.id));
  const workspaces = useQuery(workspacesQuery(orgId, c.id));
  const caps = usePortalCapabilities();
  const [removing, setRemoving] = useState<ParticipantRecord | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [inviting, setInviting] = useState<InviteTarget | 'new' | null>(null);
  const [showing, setShowing] = useState<{ invitationId: string; guestName: string } | null>(null);
  const user = useCurrentUser();
  const isHost = roleOf(c, orgId) === 'Host';
  // The host's invitations (documented), for showing one again from its participant's row.
  const invitations = useQuery({ ...hostInvitationsQuery(orgId, c.id), enabled: isHost });
  const mayInvite = localOnly(
    caps,
    'inviting participants from the console',
    collaborationAction(user, 'inviteCollaborationParticipant', 'invite participants'),
  );
  /** A guest that is out (removed, gone, declined) invited again, to the workspaces it had (with the access it had). */
  const inviteAgain = (p: ParticipantRecord) => {
    // One that declined never joined a workspace: its last invitation says what it was offered.
    const latest = invitations.data?.collaborationInvitations.find((i) => i.guestPortalId === p.portalInfo.id);
    const had: [string, InviteTarget['workspaces'][string]][] = p.workspaces?.length
      ? p.workspaces.map((w) => [w.workspaceId, w.access])
      : (latest?.workspaces ?? []).map((w) => [w.id, w.access]);
    setInviting({ portalId: p.portalInfo.id, portalName: p.portalInfo.name, workspaces: Object.fromEntries(had) });
  };
  const me = participants.data?.participants.find((p) => p.portalInfo.id === orgId);

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
                    invitations: invitations.data?.collaborationInvitations ?? [],
                    onRemove: setRemoving,
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
