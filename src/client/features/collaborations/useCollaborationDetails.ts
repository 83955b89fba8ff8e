/**
 * The state of one collaboration's panel: its participants, workspaces and (for the host) its
 * invitations, which dialog is open, and inviting again an organization that is out.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CollaborationRecord, HostInvitationRecord, ParticipantRecord } from '../../api/index.ts';
import { hostInvitationsQuery, participantsQuery, workspacesQuery } from '../../api/queries/collaborations.ts';
import { localOnly, usePortalCapabilities } from '../../lib/capabilities.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { roleOf } from './CollaborationHeading.tsx';
import type { InviteTarget } from './InviteParticipantModal.tsx';
import { collaborationAction } from './permissions.ts';

export function useCollaborationDetails(orgId: string, c: CollaborationRecord) {
  const participants = useQuery(participantsQuery(orgId, c.id));
  const workspaces = useQuery(workspacesQuery(orgId, c.id));
  const caps = usePortalCapabilities();
  const [removing, setRemoving] = useState<ParticipantRecord | null>(null);
  const [invalidating, setInvalidating] = useState<HostInvitationRecord | null>(null);
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

  return {
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
  };
}
