/** Collaborations: reads, removing a participant, leaving; the local portal's set-up operations. */
import type {
  CollaborationEventRecord,
  CollaborationRecord,
  HostInvitationRecord,
  InvitationRecord,
  ParticipantCandidate,
  ParticipantRecord,
  RemoveParticipantAnswer,
  WorkspaceRecord,
} from '../../shared/contract/collaborations.ts';
import { postForm, request, type RequestOptions } from './request.ts';
import type { PageEnvelope, PagingParams } from './types.ts';

export type {
  CollaborationEventRecord,
  CollaborationRecord,
  HostInvitationRecord,
  InvitationRecord,
  ParticipantCandidate,
  ParticipantRecord,
  RemoveParticipantAnswer,
  WorkspaceLink,
  WorkspaceRecord,
} from '../../shared/contract/collaborations.ts';

type ReadOptions = Pick<RequestOptions, 'signal'>;
const seg = encodeURIComponent;
const base = (orgId: string) => `portals/${seg(orgId)}/collaborations`;
const one = (orgId: string, id: string) => `${base(orgId)}/${seg(id)}`;

export interface CollaborationPage extends PageEnvelope {
  collaborations: CollaborationRecord[];
}
export interface ParticipantPage extends PageEnvelope {
  participants: ParticipantRecord[];
}
export interface WorkspacePage extends PageEnvelope {
  workspaces: WorkspaceRecord[];
}
export interface CollaborationEventPage extends PageEnvelope {
  events: CollaborationEventRecord[];
}

/** `GET portals/<orgId>/collaborations`: the collaborations the organization hosts or takes part in. */
export function listCollaborations(orgId: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<CollaborationPage> {
  return request<CollaborationPage>(base(orgId), { ...params }, { ...options, method: 'GET' });
}

export function getCollaboration(orgId: string, id: string, options: ReadOptions = {}): Promise<CollaborationRecord> {
  return request<CollaborationRecord>(one(orgId, id), {}, { ...options, method: 'GET' });
}

export function listParticipants(orgId: string, id: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<ParticipantPage> {
  return request<ParticipantPage>(`${one(orgId, id)}/participants`, { ...params }, { ...options, method: 'GET' });
}

export function listWorkspaces(orgId: string, id: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<WorkspacePage> {
  return request<WorkspacePage>(`${one(orgId, id)}/workspaces`, { ...params }, { ...options, method: 'GET' });
}

/** Local portal: what happened to the collaboration, newest first. */
export function listCollaborationEvents(orgId: string, id: string, params: PagingParams = {}, options: ReadOptions = {}): Promise<CollaborationEventPage> {
  return request<CollaborationEventPage>(`${one(orgId, id)}/events`, { ...params }, { ...options, method: 'GET' });
}

/** `POST …/collaborations/<id>/participants/<portalId>/remove` (the host's administrators). */
export function removeParticipant(orgId: string, id: string, participantPortalId: string): Promise<RemoveParticipantAnswer> {
  return request<RemoveParticipantAnswer>(`${one(orgId, id)}/participants/${seg(participantPortalId)}/remove`, {}, { method: 'POST' });
}

/** `POST …/collaborations/<id>/removeParticipation`: a guest leaves. */
export function removeParticipation(orgId: string, id: string): Promise<RemoveParticipantAnswer> {
  return request<RemoveParticipantAnswer>(`${one(orgId, id)}/removeParticipation`, {}, { method: 'POST' });
}

/** Local portal: the invitations addressed to the organization that it has not answered yet. */
export function listGuestInvitations(orgId: string, options: ReadOptions = {}): Promise<{ invitations: InvitationRecord[] }> {
  return request<{ invitations: InvitationRecord[] }>(`${base(orgId)}/invitations`, {}, { ...options, method: 'GET' });
}

/** Local portal: the guest accepts an invitation (optionally linking its groups to the workspaces). */
export function acceptCollaborationInvitation(orgId: string, invitationId: string, workspaceGroups: Record<string, string> = {}) {
  return request<{ success: boolean; collaborationId: string }>(`${base(orgId)}/acceptInvitation`, { invitationId, workspaceGroups }, { method: 'POST' });
}

/**
 * `POST portals/<orgId>/acceptCollaborationInvitation` (documented, ArcGIS Enterprise): the guest
 * accepts with the invitation file the host exported, sent as the multipart `invitationFile`.
 */
export function acceptCollaborationInvitationFile(orgId: string, file: File) {
  return postForm<{ success: boolean; collaborationId: string }>(`portals/${seg(orgId)}/acceptCollaborationInvitation`, {
    invitationFile: { blob: file, filename: file.name },
  });
}

/** Local portal: the guest declines an invitation; the host sees it declined and may invite again. */
export function declineCollaborationInvitation(orgId: string, invitationId: string) {
  return request<{ success: boolean; collaborationId: string }>(`${base(orgId)}/declineInvitation`, { invitationId }, { method: 'POST' });
}

/** `GET …/collaborations/<id>/invitations` (the host's administrators): every invitation, newest first. */
export function listHostInvitations(orgId: string, id: string, options: ReadOptions = {}): Promise<{ collaborationInvitations: HostInvitationRecord[] }> {
  return request<{ collaborationInvitations: HostInvitationRecord[] }>(`${one(orgId, id)}/invitations`, {}, { ...options, method: 'GET' });
}

/** `GET …/collaborations/<id>/invitations/<invitationId>`: one invitation, to show it again. */
export function getHostInvitation(orgId: string, id: string, invitationId: string, options: ReadOptions = {}): Promise<HostInvitationRecord> {
  return request<HostInvitationRecord>(`${one(orgId, id)}/invitations/${seg(invitationId)}`, {}, { ...options, method: 'GET' });
}

/**
 * `POST …/invitations/<invitationId>/refresh` (documented): the invitation expires 72 hours from
 * now; the portal answers the invitation file (`{"invitationRequest": …}`), read here as JSON.
 */
export function refreshHostInvitation(orgId: string, id: string, invitationId: string) {
  return request<{ invitationRequest: { id: string; expiration: number | null } }>(
    `${one(orgId, id)}/invitations/${seg(invitationId)}/refresh`,
    {},
    { method: 'POST' },
  );
}

/** `POST …/invitations/<invitationId>/invalidate`: the guest can no longer accept it (only one not yet answered). */
export function invalidateHostInvitation(orgId: string, id: string, invitationId: string) {
  return request<{ success: boolean }>(`${one(orgId, id)}/invitations/${seg(invitationId)}/invalidate`, {}, { method: 'POST' });
}

/** Local portal: organizations the host may invite, by name. */
export function listParticipantCandidates(orgId: string, q = '', options: ReadOptions = {}): Promise<{ portals: ParticipantCandidate[] }> {
  return request<{ portals: ParticipantCandidate[] }>(`${base(orgId)}/participantCandidates`, { q, num: 100 }, { ...options, method: 'GET' });
}
