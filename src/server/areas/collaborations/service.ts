/**
 * Collaboration rules (spec §4.12, §5; facts §3.10).
 *
 * - Every operation is for administrators of the organization in the path (`self` or its id)
 *   holding portal:admin:manageCollaborations; an organization sees the collaborations it hosts
 *   and those it takes part in as an active guest.
 * - The host's administrators create workspaces, invite guests and remove participants; the
 *   host itself cannot be removed, and removing a portal that is not a current participant is an
 *   error. A guest's administrators accept invitations and leave (removeParticipation).
 * - Removing a participant (or a guest leaving) stops every workspace exchange with it, cancels
 *   its open invitations and is recorded as a collaboration event, in one transaction. Nothing
 *   else of either organization changes: groups, members and items stay as they are.
 * - An invitation expires (inviteParticipant's `expiration`, hours); past it the guest can neither
 *   accept nor decline it until the host refreshes it (72 hours from then). The host may instead
 *   invalidate it, for good.
 */
import type {
  CollaborationRecord,
  InvitationState,
  HostInvitationRecord,
  ParticipantRecord,
  PortalInfo,
  RemoveParticipantAnswer,
  WorkspaceAccess,
  WorkspaceConfig,
  WorkspaceRecord,
} from '../../../shared/contract/collaborations.ts';
import { COLLABORATION_LIMITS, workspaceConfig } from '../../../shared/contract/collaborations.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam, forbidden, notFound } from '../../http/errors.ts';
import { orgTarget } from '../../http/target.ts';
import type { Queryable } from '../../store/db.ts';
import { hexId } from '../../store/ids.ts';
import { findGroup } from '../groups/service.ts';
import { findOrg } from '../portals/service.ts';
import { CURRENT_VERSION } from '../portals/service.ts';
import {
  activateParticipant,
  cancelInvitations,
  findCollaboration,
  findInvitation,
  findParticipant,
  insertCollaboration,
  insertHostParticipant,
  insertInvitation,
  insertWorkspace,
  insertWorkspaceLink,
  linkGuestWorkspace,
  markInvitationAccepted,
  markInvitationDeclined,
  markInvitationInvalidated,
  markParticipantInvited,
  lockCollaborationInvitation,
  recordCollaborationEvent,
  setInvitationExpiry,
  setParticipantStatus,
  stopExchange,
  touchCollaboration,
  workspaceIdsOf,
  type CollaborationRow,
  type InvitationRow,
  type LinkRow,
  type ParticipantRow,
  type WorkspaceRow,
} from './repo.ts';

/** What the operations' list and read answers take from the repository as it is. */
export {
  collaborationInvitations,
  listCollaborationEvents,
  listCollaborations,
  listLinks,
  listParticipants,
  listWorkspaces,
  participantCandidates,
  pendingInvitations,
} from './repo.ts';

/**
 * What every collaboration operation acts on: the organization in the path (`self` is the
 * caller's own), decided by operation() with its entry of COLLABORATION_OPERATIONS
 * (shared/contract/collaborations.ts) before any handler runs.
 */
export const COLLABORATION_ORG = orgTarget({ otherOrg: "Only the organization's own administrators manage its collaborations." }, { self: true });

export const collaborationNotFound = (id: string) => notFound(`Collaboration '${id}'`);

export async function visibleCollaboration(q: Queryable, orgId: string, id: string): Promise<CollaborationRow> {
  const row = await findCollaboration(q, orgId, id);
  if (!row) throw collaborationNotFound(id);
  return row;
}

export function assertHost(row: CollaborationRow): void {
  if (row.my_role !== 'host') throw forbidden('Only the collaboration host can do this.');
}

export function toCollaborationRecord(row: CollaborationRow): CollaborationRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    collaborationHostPortalId: row.host_org_id,
    config: { ownerUsername: row.owner_username },
    created: row.created,
    modified: row.modified,
    collaborationRole: row.my_role === 'host' ? 'Host' : 'Guest',
    hostPortalName: row.host_name,
    activeParticipants: row.active_participants,
    workspaceCount: row.workspace_count,
  };
}

export function portalInfo(orgId: string, name: string, description: string, baseUrl: string): PortalInfo {
  return { id: orgId, url: baseUrl, name, description, portalType: 'multitenant' };
}

export function toParticipantRecord(p: ParticipantRow, links: LinkRow[], baseUrl: string): ParticipantRecord {
  return {
    collaborationId: p.collaboration_id,
    portalInfo: portalInfo(p.org_id, p.org_name, p.org_description, baseUrl),
    collaborationRole: p.role === 'host' ? 'Host' : 'Guest',
    status: p.status,
    config: {
      contactEmailAddress: p.contact_email ?? '',
      contactFirstname: p.contact_first ?? '',
      contactLastname: p.contact_last ?? '',
      canRunAgent: false,
      portalVersion: CURRENT_VERSION,
      lastConfigSync: p.modified,
    },
    created: p.created,
    modified: p.modified,
    workspaces: links
      .filter((l) => l.org_id === p.org_id)
      .map((l) => ({
        workspaceId: l.workspace_id,
        workspaceName: l.workspace_name,
        access: l.access,
        groupId: l.group_id,
        exchanging: l.exchanging,
        stopped: l.stopped,
      })),
  };
}

export function toWorkspaceRecord(w: WorkspaceRow, links: LinkRow[], orgId: string): WorkspaceRecord {
  const mine = links.find((l) => l.workspace_id === w.id && l.org_id === orgId);
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    collaborationId: w.collaboration_id,
    config: w.config,
    ...(mine?.group_id ? { groupId: mine.group_id, groupName: mine.group_title ?? '' } : {}),
    created: w.created,
    modified: w.modified,
    participants: links
      .filter((l) => l.workspace_id === w.id)
      .map((l) => ({ portalId: l.org_id, portalName: l.org_name, access: l.access, groupId: l.group_id, exchanging: l.exchanging, stopped: l.stopped })),
  };
}

export async function createCollaboration(ctx: PortalContext, caller: Caller, orgId: string, p: { name: string; description: string }) {
  const now = ctx.clock.now();
  const id = hexId();
  try {
    await ctx.db.tx(async (q) => {
      await insertCollaboration(q, id, orgId, caller.userId, p.name, p.description, now);
      await insertHostParticipant(q, id, orgId, caller.userId, now);
      await recordCollaborationEvent(q, { collaborationId: id, operation: 'create', orgId, actor: actorOf(caller), properties: { name: p.name }, when: now });
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw badParam('name', `'${p.name}': a collaboration with this name already exists`, 'Unable to create the collaboration.');
    throw err;
  }
  return { success: true as const, ...toCollaborationRecord((await findCollaboration(ctx.db, orgId, id))!) };
}

/** A group of the organization, for linking to a workspace. */
async function linkableGroup(q: Queryable, orgId: string, groupId: string, param: string) {
  const group = await findGroup(q, groupId, null);
  if (!group || group.org_id !== orgId) throw badParam(param, `'${groupId}' is not a group of your organization`);
  return group;
}

export async function addWorkspace(
  ctx: PortalContext,
  caller: Caller,
  orgId: string,
  collaborationId: string,
  p: { name: string; description: string; config?: WorkspaceConfig; groupId?: string; access: WorkspaceAccess },
) {
  const now = ctx.clock.now();
  const id = hexId();
  try {
    await ctx.db.tx(async (q) => {
      const row = await visibleCollaboration(q, orgId, collaborationId);
      assertHost(row);
      if (row.workspace_count >= COLLABORATION_LIMITS.workspacesPerCollaboration) {
        throw new ApiError(400, `A collaboration holds at most ${COLLABORATION_LIMITS.workspacesPerCollaboration} workspaces.`, []);
      }
      if (p.groupId) await linkableGroup(q, orgId, p.groupId, 'groupId');
      const config = p.config ?? workspaceConfig.parse({});
      await insertWorkspace(q, id, collaborationId, p.name, p.description, config, now);
      await insertWorkspaceLink(q, id, orgId, p.access, p.groupId ?? null);
      await touchCollaboration(q, collaborationId, now);
      await recordCollaborationEvent(q, {
        collaborationId,
        operation: 'addWorkspace',
        orgId,
        actor: actorOf(caller),
        properties: { workspaceId: id, name: p.name },
        when: now,
      });
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw badParam('name', `'${p.name}': a workspace with this name already exists`, 'Unable to add the workspace.');
    throw err;
  }
  return { success: true as const, workspaceId: id };
}

export async function inviteParticipant(
  ctx: PortalContext,
  caller: Caller,
  orgId: string,
  collaborationId: string,
  p: { participantPortalId: string; workspaces: Record<string, WorkspaceAccess>; expiration: number },
) {
  const now = ctx.clock.now();
  const expires = now + p.expiration * HOUR;
  return ctx.db.tx(async (q) => {
    const row = await visibleCollaboration(q, orgId, collaborationId);
    assertHost(row);
    const guest = await findOrg(q, p.participantPortalId);
    if (!guest) throw badParam('participantPortalId', `'${p.participantPortalId}' is not a portal known to this service`);
    if (guest.id === orgId) throw badParam('participantPortalId', 'must be another portal than the host');
    const existing = await findParticipant(q, collaborationId, guest.id, true);
    if (existing && (existing.status === 'active' || existing.status === 'invited')) {
      throw badParam(
        'participantPortalId',
        existing.status === 'active' ? `'${guest.name}' is already a participant` : `'${guest.name}' is already invited (refresh its invitation if it expired)`,
      );
    }
    const workspaceIds = new Set(await workspaceIdsOf(q, collaborationId));
    const unknown = Object.keys(p.workspaces).find((w) => !workspaceIds.has(w));
    if (unknown) throw badParam('workspaces', `'${unknown}' is not a workspace of this collaboration`);
    const invitationId = hexId();
    await insertInvitation(q, invitationId, collaborationId, guest.id, p.workspaces, caller.userId, now, expires);
    await markParticipantInvited(q, collaborationId, guest.id, now);
    await recordCollaborationEvent(q, {
      collaborationId,
      operation: 'inviteParticipant',
      orgId,
      actor: actorOf(caller),
      properties: { participantPortalId: guest.id, participantName: guest.name, invitationId, expires },
      when: now,
    });
    return { success: true as const, invitationId, expiration: expires };
  });
}

export async function acceptInvitation(
  ctx: PortalContext,
  caller: Caller,
  orgId: string,
  p: { invitationId: string; workspaceGroups: Record<string, string> },
) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const inv = answerable(await findInvitation(q, orgId, p.invitationId, true), p.invitationId, now);
    const unknown = Object.keys(p.workspaceGroups).find((w) => !(w in inv.workspaces));
    if (unknown) throw badParam('workspaceGroups', `'${unknown}' is not a workspace of the invitation`);
    for (const gid of Object.values(p.workspaceGroups)) await linkableGroup(q, orgId, gid, 'workspaceGroups');
    for (const [workspaceId, access] of Object.entries(inv.workspaces)) {
      await linkGuestWorkspace(q, workspaceId, orgId, access, p.workspaceGroups[workspaceId] ?? null);
    }
    await markInvitationAccepted(q, inv.id, now);
    await activateParticipant(q, inv.collaboration_id, orgId, caller.userId, now);
    await recordCollaborationEvent(q, {
      collaborationId: inv.collaboration_id,
      operation: 'acceptInvitation',
      orgId,
      actor: actorOf(caller),
      properties: { invitationId: inv.id, participantPortalId: orgId, participantName: inv.guest_name },
      when: now,
    });
    return { success: true as const, collaborationId: inv.collaboration_id };
  });
}

/**
 * The guest's administrators decline an invitation (a local extra: the documented flow has the
 * guest simply not import it). The invitation and the guest's participant row say `declined`, so
 * the host sees the answer and may invite the organization again.
 */
export async function declineInvitation(ctx: PortalContext, caller: Caller, orgId: string, p: { invitationId: string }) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const inv = answerable(await findInvitation(q, orgId, p.invitationId, true), p.invitationId, now);
    await markInvitationDeclined(q, inv.id, now);
    await setParticipantStatus(q, inv.collaboration_id, orgId, 'declined', now);
    await recordCollaborationEvent(q, {
      collaborationId: inv.collaboration_id,
      operation: 'declineInvitation',
      orgId,
      actor: actorOf(caller),
      properties: { invitationId: inv.id, participantPortalId: orgId, participantName: inv.guest_name },
      when: now,
    });
    return { success: true as const, collaborationId: inv.collaboration_id };
  });
}

const INVITATION_STATUS: Record<InvitationState, string> = {
  pending: 'host_created',
  accepted: 'accepted',
  declined: 'declined',
  cancelled: 'cancelled',
  invalidated: 'invalidated',
  expired: 'expired',
};

/**
 * An invitation as the host reads it: the documented fields (`invitationString` is what the host
 * hands over), with the guest's name, the workspaces by name and the state.
 */
export function toHostInvitationRecord(inv: InvitationRow, workspaceNames: Map<string, string>, baseUrl: string, now: number): HostInvitationRecord {
  const state = invitationState(inv, now);
  const workspaces = Object.entries(inv.workspaces).map(([id, access]) => ({ id, name: workspaceNames.get(id) ?? id, access }));
  const invitationRequest = {
    id: inv.id,
    collaborationId: inv.collaboration_id,
    collaborationName: inv.collaboration_name,
    hostPortalId: inv.host_org_id,
    hostPortalName: inv.host_name,
    hostPortalUrl: baseUrl,
    guestPortalId: inv.org_id,
    guestPortalName: inv.guest_name,
    workspaces,
    created: inv.created,
    expiration: inv.expires,
  };
  return {
    id: inv.id,
    collaborationId: inv.collaboration_id,
    hostPortalId: inv.host_org_id,
    guestPortalId: inv.org_id,
    guestPortalUrl: baseUrl,
    status: INVITATION_STATUS[state],
    config: { invitationRequestFilename: `collaboration-${inv.org_id}.invite` },
    invitationString: JSON.stringify({ invitationRequest }),
    created: inv.created,
    modified: inv.modified,
    expiration: inv.expires,
    guestPortalName: inv.guest_name,
    collaborationName: inv.collaboration_name,
    state,
    workspaces,
  };
}

const HOUR = 3_600_000;

/** Where an invitation stands at `now`: a pending one past its expiry reads `expired` (it stays pending in the table, so a refresh revives it). */
export function invitationState(inv: InvitationRow, now: number): InvitationState {
  return inv.state === 'pending' && inv.expires !== null && inv.expires <= now ? 'expired' : inv.state;
}

/**
 * The invitation a guest answers, or why it cannot: an expired or invalidated one is refused
 * saying so (the guest then knows whom to ask); others no longer open read as not found.
 */
function answerable(inv: InvitationRow | undefined, invitationId: string, now: number): InvitationRow {
  const state = inv ? invitationState(inv, now) : undefined;
  if (inv && state === 'expired') {
    const when = new Date(inv.expires!).toISOString();
    throw new ApiError(400, 'The invitation has expired.', [
      `Invitation '${invitationId}' expired at ${when}; ask ${inv.host_name} to refresh it, then answer it again.`,
    ]);
  }
  if (inv && state === 'invalidated') {
    throw new ApiError(400, 'The invitation is no longer valid.', [`${inv.host_name} invalidated invitation '${invitationId}'; ask for a new one.`]);
  }
  if (!inv || state !== 'pending') throw notFound(`Invitation '${invitationId}'`);
  return inv;
}

/** One of the collaboration's invitations, for its host, locked; still unanswered (it may have expired). */
async function hostOpenInvitation(q: Queryable, orgId: string, collaborationId: string, invitationId: string, operation: string) {
  const c = await visibleCollaboration(q, orgId, collaborationId);
  assertHost(c);
  const inv = await lockCollaborationInvitation(q, collaborationId, invitationId);
  if (!inv) throw notFound(`Invitation '${invitationId}'`);
  if (inv.state !== 'pending') {
    throw new ApiError(400, `Unable to ${operation} the invitation.`, [
      `Invitation '${invitationId}' was ${inv.state}: only an invitation the guest has not answered can be ${operation === 'refresh' ? 'refreshed' : 'invalidated'}.`,
    ]);
  }
  return inv;
}

/**
 * `invitations/<id>/refresh` (documented): the invitation expires 72 hours from now, whether or not
 * it had expired; answers the invitation again (routes.ts sends it as the invitation file).
 */
export async function refreshInvitation(ctx: PortalContext, caller: Caller, orgId: string, collaborationId: string, invitationId: string) {
  const now = ctx.clock.now();
  const expires = now + COLLABORATION_LIMITS.invitationRefreshHours * HOUR;
  return ctx.db.tx(async (q) => {
    const inv = await hostOpenInvitation(q, orgId, collaborationId, invitationId, 'refresh');
    await setInvitationExpiry(q, inv.id, expires, now);
    await recordCollaborationEvent(q, {
      collaborationId,
      operation: 'refreshInvitation',
      orgId,
      actor: actorOf(caller),
      properties: { invitationId: inv.id, participantPortalId: inv.org_id, participantName: inv.guest_name, expires },
      when: now,
    });
    return { ...inv, expires, modified: now };
  });
}

/**
 * `invitations/<id>/invalidate` (documented): the guest can no longer accept it. The guest, still
 * only invited, reads as removed, so the host may invite it again.
 */
export async function invalidateInvitation(ctx: PortalContext, caller: Caller, orgId: string, collaborationId: string, invitationId: string) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const inv = await hostOpenInvitation(q, orgId, collaborationId, invitationId, 'invalidate');
    await markInvitationInvalidated(q, collaborationId, inv.id, inv.org_id, now);
    await recordCollaborationEvent(q, {
      collaborationId,
      operation: 'invalidateInvitation',
      orgId,
      actor: actorOf(caller),
      properties: { invitationId: inv.id, participantPortalId: inv.org_id, participantName: inv.guest_name },
      when: now,
    });
    return { success: true as const };
  });
}

/** The host removes a guest (spec §4.12). */
export async function removeParticipant(
  ctx: PortalContext,
  caller: Caller,
  orgId: string,
  collaborationId: string,
  participantPortalId: string,
): Promise<RemoveParticipantAnswer> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const row = await visibleCollaboration(q, orgId, collaborationId);
    assertHost(row);
    if (participantPortalId === row.host_org_id) {
      throw new ApiError(
        400,
        'The host cannot be removed from its own collaboration.',
        [`'${participantPortalId}' is the host of this collaboration; remove the guests instead.`],
        undefined,
        {
          participantPortalId: 'is the host',
        },
      );
    }
    const p = await findParticipant(q, collaborationId, participantPortalId, true);
    if (!p || p.status === 'removed' || p.status === 'left') {
      throw new ApiError(404, 'Participant does not exist or is inaccessible.', [`'${participantPortalId}' is not a participant of this collaboration.`]);
    }
    return endParticipation(q, caller, collaborationId, p, 'removed', 'removeParticipant', now);
  });
}

/** A guest leaves (facts §3.10 removeParticipation). */
export async function removeParticipation(ctx: PortalContext, caller: Caller, orgId: string, collaborationId: string): Promise<RemoveParticipantAnswer> {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const row = await visibleCollaboration(q, orgId, collaborationId);
    if (row.my_role === 'host') throw new ApiError(400, 'The host cannot leave its own collaboration.', ['The host removes guests; it does not leave.']);
    const p = (await findParticipant(q, collaborationId, orgId, true))!;
    return endParticipation(q, caller, collaborationId, p, 'left', 'removeParticipation', now);
  });
}

async function endParticipation(
  q: Queryable,
  caller: Caller,
  collaborationId: string,
  p: ParticipantRow,
  status: 'removed' | 'left',
  operation: string,
  now: number,
): Promise<RemoveParticipantAnswer> {
  await setParticipantStatus(q, collaborationId, p.org_id, status, now);
  const workspacesStopped = await stopExchange(q, collaborationId, p.org_id, now);
  await cancelInvitations(q, collaborationId, p.org_id, now);
  await touchCollaboration(q, collaborationId, now);
  await recordCollaborationEvent(q, {
    collaborationId,
    operation,
    orgId: caller.orgId,
    actor: actorOf(caller),
    properties: { participantPortalId: p.org_id, participantName: p.org_name, workspacesStopped },
    when: now,
  });
  return { success: true, workspacesStopped };
}
