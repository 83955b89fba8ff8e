import { useMutation } from '@tanstack/react-query';
import type { WorkspaceAccess } from '../../../shared/contract/collaborations.ts';
import {
  acceptCollaborationInvitation,
  acceptCollaborationInvitationFile,
  declineCollaborationInvitation,
  describeError,
  removeParticipant,
  removeParticipation,
  refreshHostInvitation,
  invalidateHostInvitation,
  request,
  type CollaborationRecord,
} from '../../api/index.ts';
import { collaborationKeys } from '../../api/queries/collaborations.ts';

/** Removes a participant; the collaboration's reads are fetched again (counts, statuses, workspaces, events). */
export function useRemoveParticipant(orgId: string, collaborationId: string) {
  return useMutation({
    mutationFn: (participantPortalId: string) => removeParticipant(orgId, collaborationId, participantPortalId),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** A guest organization leaves the collaboration. */
export function useLeaveCollaboration(orgId: string, collaborationId: string) {
  return useMutation({
    mutationFn: () => removeParticipation(orgId, collaborationId),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** A collaboration the portal made whose first workspace it then refused: the form says both. */
export class WorkspaceStepError extends Error {
  constructor(
    readonly cause: unknown,
    readonly collaboration: { id: string; name: string },
  ) {
    super(`The collaboration “${collaboration.name}” was created, but its first workspace was not: ${describeError(cause)}`);
  }
}

export interface NewCollaboration {
  name: string;
  description: string;
  workspaceName: string;
  groupId: string;
  accessMode: WorkspaceAccess;
  contactFirstname: string;
  contactLastname: string;
  contactEmail: string;
}

/**
 * Creates a collaboration and its first workspace linked to one of the host's groups. The local
 * portal does it in two steps (createCollaboration, then addWorkspace); the contact goes with the
 * first under the names ArcGIS documents (hostContactFirstname, …).
 */
export function useCreateCollaboration(orgId: string) {
  return useMutation({
    mutationFn: async (input: NewCollaboration) => {
      const base = `portals/${encodeURIComponent(orgId)}/collaborations`;
      const created = await request<CollaborationRecord & { success: boolean }>(
        `${base}/createCollaboration`,
        {
          name: input.name,
          description: input.description,
          hostContactFirstname: input.contactFirstname,
          hostContactLastname: input.contactLastname,
          hostContactEmailAddress: input.contactEmail,
        },
        { method: 'POST' },
      );
      try {
        await request<{ workspaceId: string }>(
          `${base}/${encodeURIComponent(created.id)}/addWorkspace`,
          { name: input.workspaceName, groupId: input.groupId, access: input.accessMode },
          { method: 'POST' },
        );
      } catch (err) {
        throw new WorkspaceStepError(err, created);
      }
      return created;
    },
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** Invites a portal (again) to the collaboration's workspaces; answers the invitation's id. */
export function useInviteParticipant(orgId: string, collaborationId: string) {
  return useMutation({
    mutationFn: (input: { participantPortalId: string; workspaces: Record<string, WorkspaceAccess>; expiration?: number }) =>
      request<{ success: boolean; invitationId: string }>(
        `portals/${encodeURIComponent(orgId)}/collaborations/${encodeURIComponent(collaborationId)}/inviteParticipant`,
        { participantPortalId: input.participantPortalId, workspaces: input.workspaces, expiration: input.expiration },
        { method: 'POST' },
      ),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** The guest accepts an invitation: its list, the collaborations and their participants are read again. */
export function useAcceptInvitation(orgId: string) {
  return useMutation({
    mutationFn: (invitationId: string) => acceptCollaborationInvitation(orgId, invitationId),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** The guest accepts with the host's invitation file (the documented operation, for portals without the local list). */
export function useAcceptInvitationFile(orgId: string) {
  return useMutation({
    mutationFn: (file: File) => acceptCollaborationInvitationFile(orgId, file),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** The guest declines an invitation. */
export function useDeclineInvitation(orgId: string) {
  return useMutation({
    mutationFn: (invitationId: string) => declineCollaborationInvitation(orgId, invitationId),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}

/** The host refreshes an invitation (72 hours from now); the invitations are read again for the new expiry. */
export function useRefreshInvitation(orgId: string, collaborationId: string) {
  return useMutation({
    mutationFn: (invitationId: string) => refreshHostInvitation(orgId, collaborationId, invitationId),
    meta: { invalidates: [collaborationKeys.invitations(orgId, collaborationId), collaborationKeys.events(orgId, collaborationId)] },
  });
}

/**
 * The host invalidates an invitation the guest has not answered (`invitations/<id>/invalidate`):
 * the guest can no longer accept it and the participant is out, to be invited again.
 */
export function useInvalidateInvitation(orgId: string, collaborationId: string) {
  return useMutation({
    mutationFn: (invitationId: string) => invalidateHostInvitation(orgId, collaborationId, invitationId),
    meta: { invalidates: [collaborationKeys.all(orgId)], invalidatesOnError: true },
  });
}
