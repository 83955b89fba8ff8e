/**
 * `portals/<orgId>/collaborations/…` (spec §4.12; facts §3.10). Reads as the public API has them
 * (paged lists with total, start, num, nextStart), `participants/<portalId>/remove` and
 * `removeParticipation`; and the local portal's simplified way to set one up:
 * `createCollaboration`, `<id>/addWorkspace`, `<id>/inviteParticipant`, the guest's
 * `invitations`, `acceptInvitation` and `declineInvitation`, the host's `participantCandidates`
 * (organizations by name), plus `<id>/events` (what happened, newest first). The host reads its
 * invitations as documented: `<id>/invitations` and `<id>/invitations/<invitationId>`, with its
 * `refresh` (72 more hours, answered as the invitation file) and `invalidate`; the guest
 * may also accept as documented, with the host's invitation file (`portals/<id>/acceptCollaborationInvitation`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  acceptInvitationParams,
  addWorkspaceParams,
  declineInvitationParams,
  participantCandidatesParams,
  collaborationListParams,
  COLLABORATION_OPERATIONS,
  createCollaborationParams,
  inviteParticipantParams,
  type InvitationRecord,
} from '../../../shared/contract/collaborations.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { operation, REST } from '../../http/operation.ts';
import { ACCEPT_INVITATION_FILES, acceptInvitationFile, acceptInvitationFileParams } from './invitationFile.ts';
import {
  acceptInvitation,
  addWorkspace,
  assertHost,
  COLLABORATION_ORG,
  collaborationInvitations,
  createCollaboration,
  declineInvitation,
  invalidateInvitation,
  invitationState,
  inviteParticipant,
  listCollaborationEvents,
  listCollaborations,
  listLinks,
  listParticipants,
  listWorkspaces,
  participantCandidates,
  pendingInvitations,
  refreshInvitation,
  removeParticipant,
  removeParticipation,
  toCollaborationRecord,
  toHostInvitationRecord,
  toParticipantRecord,
  toWorkspaceRecord,
  visibleCollaboration,
} from './service.ts';

const BASE = `${REST}/portals/:orgId/collaborations`;
const ONE = `${BASE}/:collaborationId`;
const none = z.object({});

/** The portal URL participants are reached at: this service as the request reached it. */
const baseUrl = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
/** Fields of a collaboration record only this portal adds (the caller's part, the host's name, counts). */
const COLLABORATION_EXTRAS = ['collaborationRole', 'hostPortalName', 'activeParticipants', 'workspaceCount'];
/** Fields of the host's invitation record only this portal adds. */
const INVITATION_EXTRAS = ['guestPortalName', 'collaborationName', 'state', 'workspaces', 'expiration'];

/** Workspace id → name, for naming an invitation's workspaces. */
async function workspaceNames(db: Parameters<typeof listWorkspaces>[0], collaborationId: string) {
  return new Map((await listWorkspaces(db, collaborationId)).map((w) => [w.id, w.name] as const));
}

export function collaborationRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: BASE,
    authority: COLLABORATION_OPERATIONS.listCollaborations,
    target: COLLABORATION_ORG,
    extras: COLLABORATION_EXTRAS.map((f) => `collaborations.${f}`),
    params: collaborationListParams,
    handler: async ({ params, portal, target }) => {
      const orgId = target.orgId;
      const { total, rows } = await listCollaborations(portal.db, orgId, params.start - 1, params.num);
      return { ...pageEnvelope(total, params, rows.length), collaborations: rows.map(toCollaborationRecord) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${BASE}/createCollaboration`,
    authority: COLLABORATION_OPERATIONS.createCollaboration,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: createCollaborationParams,
    handler: ({ caller, params, portal, target }) => createCollaboration(portal, caller, target.orgId, params),
  });

  operation(app, {
    method: 'read',
    path: `${BASE}/invitations`,
    authority: COLLABORATION_OPERATIONS.collaborationInvitations,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: none,
    handler: async ({ portal, target }) => {
      const orgId = target.orgId;
      const now = portal.clock.now();
      const rows = await pendingInvitations(portal.db, orgId);
      const names = new Map<string, string>();
      for (const r of rows) {
        for (const w of await listWorkspaces(portal.db, r.collaboration_id)) names.set(w.id, w.name);
      }
      const invitations: InvitationRecord[] = rows.map((r) => ({
        id: r.id,
        collaborationId: r.collaboration_id,
        collaborationName: r.collaboration_name,
        hostPortalId: r.host_org_id,
        hostPortalName: r.host_name,
        workspaces: Object.entries(r.workspaces).map(([id, access]) => ({ id, name: names.get(id) ?? id, access })),
        created: r.created,
        expires: r.expires,
        expired: invitationState(r, now) === 'expired',
      }));
      return { invitations };
    },
  });

  operation(app, {
    method: 'write',
    path: `${BASE}/acceptInvitation`,
    authority: COLLABORATION_OPERATIONS.acceptCollaborationInvitation,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: acceptInvitationParams,
    handler: ({ caller, params, portal, target }) => acceptInvitation(portal, caller, target.orgId, params),
  });

  // The documented acceptance: the invitation file the host exported (invitationFile.ts).
  operation(app, {
    method: 'write',
    path: `${REST}/portals/:orgId/acceptCollaborationInvitation`,
    authority: COLLABORATION_OPERATIONS.acceptCollaborationInvitation,
    target: COLLABORATION_ORG,
    params: acceptInvitationFileParams,
    files: ACCEPT_INVITATION_FILES,
    handler: ({ caller, params, portal, target }) => acceptInvitationFile(portal, caller, target.orgId, params.invitationFile),
  });

  operation(app, {
    method: 'write',
    path: `${BASE}/declineInvitation`,
    authority: COLLABORATION_OPERATIONS.declineCollaborationInvitation,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: declineInvitationParams,
    handler: ({ caller, params, portal, target }) => declineInvitation(portal, caller, target.orgId, params),
  });

  // Organizations the host may invite, by name: the documented API names a guest by its portal URL.
  operation(app, {
    method: 'read',
    path: `${BASE}/participantCandidates`,
    authority: COLLABORATION_OPERATIONS.collaborationParticipantCandidates,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: participantCandidatesParams,
    handler: async ({ params, portal, target }) => ({ portals: await participantCandidates(portal.db, target.orgId, params.q, params.num) }),
  });

  operation(app, {
    method: 'read',
    path: ONE,
    authority: COLLABORATION_OPERATIONS.collaboration,
    target: COLLABORATION_ORG,
    extras: COLLABORATION_EXTRAS,
    params: none,
    handler: async ({ path, portal, target }) => toCollaborationRecord(await visibleCollaboration(portal.db, target.orgId, path.collaborationId)),
  });

  operation(app, {
    method: 'read',
    path: `${ONE}/participants`,
    authority: COLLABORATION_OPERATIONS.collaborationParticipants,
    target: COLLABORATION_ORG,
    extras: ['participants.workspaces'],
    params: collaborationListParams,
    handler: async ({ path, params, portal, req, target }) => {
      const c = await visibleCollaboration(portal.db, target.orgId, path.collaborationId);
      const [all, links] = await Promise.all([listParticipants(portal.db, c.id), listLinks(portal.db, c.id)]);
      const page = all.slice(params.start - 1, params.start - 1 + params.num);
      return { ...pageEnvelope(all.length, params, page.length), participants: page.map((p) => toParticipantRecord(p, links, baseUrl(req))) };
    },
  });

  operation(app, {
    method: 'read',
    path: `${ONE}/participants/:portalId`,
    authority: COLLABORATION_OPERATIONS.collaborationParticipant,
    target: COLLABORATION_ORG,
    extras: ['workspaces'],
    params: none,
    handler: async ({ path, portal, req, target }) => {
      const c = await visibleCollaboration(portal.db, target.orgId, path.collaborationId);
      const [all, links] = await Promise.all([listParticipants(portal.db, c.id), listLinks(portal.db, c.id)]);
      const p = all.find((x) => x.org_id === path.portalId);
      if (!p) throw new ApiError(404, 'Participant does not exist or is inaccessible.', [`'${path.portalId}' is not a participant of this collaboration.`]);
      return toParticipantRecord(p, links, baseUrl(req));
    },
  });

  operation(app, {
    method: 'write',
    path: `${ONE}/participants/:portalId/remove`,
    authority: COLLABORATION_OPERATIONS.removeCollaborationParticipant,
    target: COLLABORATION_ORG,
    extras: ['workspacesStopped'],
    params: none,
    handler: ({ caller, path, portal, target }) => removeParticipant(portal, caller, target.orgId, path.collaborationId, path.portalId),
  });

  operation(app, {
    method: 'write',
    path: `${ONE}/removeParticipation`,
    authority: COLLABORATION_OPERATIONS.removeCollaborationParticipation,
    target: COLLABORATION_ORG,
    extras: ['workspacesStopped'],
    params: none,
    handler: ({ caller, path, portal, target }) => removeParticipation(portal, caller, target.orgId, path.collaborationId),
  });

  operation(app, {
    method: 'read',
    path: `${ONE}/workspaces`,
    authority: COLLABORATION_OPERATIONS.collaborationWorkspaces,
    target: COLLABORATION_ORG,
    extras: ['workspaces.participants'],
    params: collaborationListParams,
    handler: async ({ path, params, portal, target }) => {
      const orgId = target.orgId;
      const c = await visibleCollaboration(portal.db, orgId, path.collaborationId);
      const [all, links] = await Promise.all([listWorkspaces(portal.db, c.id), listLinks(portal.db, c.id)]);
      const page = all.slice(params.start - 1, params.start - 1 + params.num);
      return { ...pageEnvelope(all.length, params, page.length), workspaces: page.map((w) => toWorkspaceRecord(w, links, orgId)) };
    },
  });

  operation(app, {
    method: 'write',
    path: `${ONE}/addWorkspace`,
    authority: COLLABORATION_OPERATIONS.addCollaborationWorkspace,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: addWorkspaceParams,
    handler: ({ caller, path, params, portal, target }) => addWorkspace(portal, caller, target.orgId, path.collaborationId, params),
  });

  operation(app, {
    method: 'write',
    path: `${ONE}/inviteParticipant`,
    authority: COLLABORATION_OPERATIONS.inviteCollaborationParticipant,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: inviteParticipantParams,
    handler: ({ caller, path, params, portal, target }) => inviteParticipant(portal, caller, target.orgId, path.collaborationId, params),
  });

  operation(app, {
    method: 'read',
    path: `${ONE}/invitations`,
    authority: COLLABORATION_OPERATIONS.hostCollaborationInvitations,
    target: COLLABORATION_ORG,
    extras: INVITATION_EXTRAS.map((f) => `collaborationInvitations.${f}`),
    params: none,
    handler: async ({ path, portal, req, target }) => {
      const c = await visibleCollaboration(portal.db, target.orgId, path.collaborationId);
      assertHost(c);
      const [rows, names] = await Promise.all([collaborationInvitations(portal.db, c.id), workspaceNames(portal.db, c.id)]);
      const now = portal.clock.now();
      return { collaborationInvitations: rows.map((r) => toHostInvitationRecord(r, names, baseUrl(req), now)) };
    },
  });

  operation(app, {
    method: 'read',
    path: `${ONE}/invitations/:invitationId`,
    authority: COLLABORATION_OPERATIONS.hostCollaborationInvitation,
    target: COLLABORATION_ORG,
    extras: INVITATION_EXTRAS,
    params: none,
    handler: async ({ path, portal, req, target }) => {
      const c = await visibleCollaboration(portal.db, target.orgId, path.collaborationId);
      assertHost(c);
      const row = (await collaborationInvitations(portal.db, c.id)).find((r) => r.id === path.invitationId);
      if (!row) throw notFound(`Invitation '${path.invitationId}'`);
      return toHostInvitationRecord(row, await workspaceNames(portal.db, c.id), baseUrl(req), portal.clock.now());
    },
  });

  // Documented: 72 more hours from now; the answer is the invitation file, as a download.
  operation(app, {
    method: 'write',
    path: `${ONE}/invitations/:invitationId/refresh`,
    authority: COLLABORATION_OPERATIONS.refreshCollaborationInvitation,
    target: COLLABORATION_ORG,
    params: none,
    handler: async ({ caller, path, portal, reply, req, target }) => {
      const row = await refreshInvitation(portal, caller, target.orgId, path.collaborationId, path.invitationId);
      const record = toHostInvitationRecord(row, await workspaceNames(portal.db, path.collaborationId), baseUrl(req), portal.clock.now());
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${record.config.invitationRequestFilename}"`)
        .send(record.invitationString);
    },
  });

  // Documented as GET; a change of state is POST only here, as every write.
  operation(app, {
    method: 'write',
    path: `${ONE}/invitations/:invitationId/invalidate`,
    authority: COLLABORATION_OPERATIONS.invalidateCollaborationInvitation,
    target: COLLABORATION_ORG,
    params: none,
    handler: ({ caller, path, portal, target }) => invalidateInvitation(portal, caller, target.orgId, path.collaborationId, path.invitationId),
  });

  operation(app, {
    method: 'read',
    path: `${ONE}/events`,
    authority: COLLABORATION_OPERATIONS.collaborationEvents,
    target: COLLABORATION_ORG,
    localOnly: true,
    params: collaborationListParams,
    handler: async ({ path, params, portal, target }) => {
      const c = await visibleCollaboration(portal.db, target.orgId, path.collaborationId);
      const { total, rows } = await listCollaborationEvents(portal.db, c.id, params.start - 1, params.num);
      return {
        ...pageEnvelope(total, params, rows.length),
        events: rows.map((r) => ({ operation: r.operation, portalId: r.org_id, username: r.username, properties: r.properties, created: r.created })),
      };
    },
  });
}
