/**
 * Distributed collaborations (spec §2, §4.12, §5, §9; facts §3.10): records as the public API
 * returns them, plus the local portal's simplified create / workspace / invite / accept
 * operations and a few extras (marked) that real clients ignore.
 */
import { z } from 'zod';
import { privileges, type Authority } from '../authority.ts';
import { jsonObject, pagingParams } from './wire.ts';

export const COLLABORATION_LIMITS = {
  nameChars: 128,
  descriptionChars: 1024,
  workspacesPerCollaboration: 50,
  maxItemSizeInMB: { min: 1, max: 1024, default: 1024 },
  maxReplicationPackageSizeInMB: { min: 1, max: 10240, default: 10240 },
  /**
   * inviteParticipant's `expiration`, in whole hours (the documented examples send 24). Without
   * one an invitation lasts 72 hours: the span the documented `refresh` extends it by, so a new
   * and a refreshed invitation last the same. More than a year is refused as a mistake.
   */
  invitationExpirationHours: { min: 1, max: 8760, default: 72 },
  /** `invitations/<id>/refresh`: the invitation expires this many hours from the refresh (documented). */
  invitationRefreshHours: 72,
} as const;

export const WORKSPACE_ACCESS = ['send', 'receive', 'sendAndReceive'] as const;
export type WorkspaceAccess = (typeof WORKSPACE_ACCESS)[number];
/** `declined`: the guest's administrators declined the invitation; the host may invite it again. */
export type ParticipantStatus = 'invited' | 'active' | 'removed' | 'left' | 'declined';

const name = z.string().trim().min(1, 'is required').max(COLLABORATION_LIMITS.nameChars, `must be at most ${COLLABORATION_LIMITS.nameChars} characters`);
const description = z.string().max(COLLABORATION_LIMITS.descriptionChars, `must be at most ${COLLABORATION_LIMITS.descriptionChars} characters`).default('');
const id = z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters');

export const collaborationListParams = pagingParams;

export const createCollaborationParams = z.object({ name, description });

const sizeIn = (limit: { min: number; max: number }) => z.number().int().min(limit.min).max(limit.max);
export const workspaceConfig = z
  .object({
    maxItemSizeInMB: sizeIn(COLLABORATION_LIMITS.maxItemSizeInMB).default(COLLABORATION_LIMITS.maxItemSizeInMB.default),
    maxReplicationPackageSizeInMB: sizeIn(COLLABORATION_LIMITS.maxReplicationPackageSizeInMB).default(
      COLLABORATION_LIMITS.maxReplicationPackageSizeInMB.default,
    ),
    copyByRefIfCopyFail: z.boolean().default(false),
  })
  .strict();
export type WorkspaceConfig = z.output<typeof workspaceConfig>;

export const addWorkspaceParams = z.object({
  name,
  description,
  config: jsonObject(workspaceConfig).optional(),
  /** Local simplification: the host's group that exchanges through this workspace. */
  groupId: id.optional(),
  /** The host's access to the workspace. */
  access: z.enum(WORKSPACE_ACCESS).default('sendAndReceive'),
});

const { min: minHours, max: maxHours, default: defaultHours } = COLLABORATION_LIMITS.invitationExpirationHours;
/** Hours, as a form sends them (text) or JSON (a number): a whole number within the limits; absent: the default. */
const expirationHours = z
  .union([z.string(), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return defaultHours;
    const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
    if (!Number.isFinite(n)) ctx.addIssue({ code: 'custom', message: `must be a number of hours (e.g. ${defaultHours})` });
    else if (!Number.isInteger(n)) ctx.addIssue({ code: 'custom', message: 'must be a whole number of hours' });
    else if (n < minHours || n > maxHours) ctx.addIssue({ code: 'custom', message: `must be from ${minHours} to ${maxHours} hours (a year)` });
    else return n;
    return z.NEVER;
  });

/** `workspaces`: workspace id → the access the guest gets; `expiration`: hours until the guest can no longer answer. */
export const inviteParticipantParams = z.object({
  participantPortalId: id,
  expiration: expirationHours,
  workspaces: jsonObject(z.record(z.string().max(64), z.enum(WORKSPACE_ACCESS)).refine((o) => Object.keys(o).length > 0, 'must name at least one workspace')),
});

/** `workspaceGroups`: workspace id → the guest's group that exchanges through it. */
export const acceptInvitationParams = z.object({
  invitationId: id,
  workspaceGroups: jsonObject(z.record(z.string().max(64), z.string().max(64))).default({}),
});

/** Local extra: the guest declines an invitation (the documented API has the guest ignore it). */
export const declineInvitationParams = z.object({ invitationId: id });

/** Local extra: organizations the host may invite, found by name (`q`, empty for the first ones). */
export const participantCandidatesParams = z.object({
  q: z.string().trim().max(128, 'must be at most 128 characters').default(''),
  num: z.coerce.number().int().min(1).max(100).default(20),
});

/** An organization the host may invite: its portal id and name. */
export interface ParticipantCandidate {
  id: string;
  name: string;
  description: string;
}

export interface PortalInfo {
  id: string;
  url: string;
  name: string;
  description: string;
  portalType: 'multitenant';
}

export interface CollaborationRecord {
  id: string;
  name: string;
  description: string;
  collaborationHostPortalId: string;
  config: { ownerUsername: string };
  created: number;
  modified: number;
  /** Local extras: the calling organization's part, the host's name, counts. */
  collaborationRole: 'Host' | 'Guest';
  hostPortalName: string;
  activeParticipants: number;
  workspaceCount: number;
}

export interface WorkspaceLink {
  workspaceId: string;
  workspaceName: string;
  access: WorkspaceAccess;
  groupId: string | null;
  exchanging: boolean;
  /** When the exchange stopped (epoch ms), or null. */
  stopped: number | null;
}

export interface ParticipantRecord {
  collaborationId: string;
  portalInfo: PortalInfo;
  collaborationRole: 'Host' | 'Guest';
  status: ParticipantStatus;
  config: {
    contactEmailAddress: string;
    contactFirstname: string;
    contactLastname: string;
    canRunAgent: boolean;
    portalVersion: string;
    lastConfigSync: number;
  };
  created: number;
  modified: number;
  /** Local extra: the participant's workspace links. */
  workspaces: WorkspaceLink[];
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  description: string;
  collaborationId: string;
  config: WorkspaceConfig;
  /** The calling organization's group linked to the workspace, if any. */
  groupId?: string;
  groupName?: string;
  created: number;
  modified: number;
  /** Local extra: every participant's link. */
  participants: { portalId: string; portalName: string; access: WorkspaceAccess; groupId: string | null; exchanging: boolean; stopped: number | null }[];
}

export interface InvitationRecord {
  id: string;
  collaborationId: string;
  collaborationName: string;
  hostPortalId: string;
  hostPortalName: string;
  workspaces: { id: string; name: string; access: WorkspaceAccess }[];
  created: number;
  /** When the guest can no longer answer it (epoch ms); null: never. */
  expires: number | null;
  /** Past `expires`: listed so the guest knows, but it cannot be answered until the host refreshes it. */
  expired: boolean;
}

/**
 * Where an invitation stands: waiting for the guest, accepted, declined, cancelled by a removal,
 * invalidated by the host, or expired (a pending one past its expiry, until the host refreshes it).
 */
export type InvitationState = 'pending' | 'accepted' | 'declined' | 'cancelled' | 'invalidated' | 'expired';

/**
 * An invitation as the host reads it (`…/<id>/invitations`, `…/<id>/invitations/<invitationId>`):
 * the documented fields, and the local portal's extras (the guest's name, the workspaces, the state).
 */
export interface HostInvitationRecord {
  id: string;
  collaborationId: string;
  hostPortalId: string;
  guestPortalId: string;
  guestPortalUrl: string;
  /** `host_created` while the guest has not answered; then `accepted`, `declined`, `cancelled`, `invalidated` or `expired`. */
  status: string;
  config: { invitationRequestFilename: string };
  /** The invitation as text to hand to the guest's administrators. */
  invitationString: string;
  created: number;
  modified: number;
  /** When the guest can no longer answer it (epoch ms); null: never (made before invitations expired). */
  expiration: number | null;
  guestPortalName: string;
  collaborationName: string;
  state: InvitationState;
  workspaces: { id: string; name: string; access: WorkspaceAccess }[];
}

export interface CollaborationEventRecord {
  operation: string;
  portalId: string;
  username: string | null;
  properties: Record<string, unknown>;
  created: number;
}

/** Answer of participants/<id>/remove and removeParticipation. */
export interface RemoveParticipantAnswer {
  success: true;
  /** Local extra: the workspaces that stopped exchanging with the participant. */
  workspacesStopped: { id: string; name: string }[];
}

/**
 * Who may call each collaboration operation (`portals/<orgId>/collaborations/…`): the
 * organization's members holding manageCollaborations. The service declares its routes with these
 * entries; the console asks the same ones (lib/can.ts).
 */
export const COLLABORATION_OPERATIONS = {
  listCollaborations: privileges('portal:admin:manageCollaborations'),
  createCollaboration: privileges('portal:admin:manageCollaborations'),
  collaborationInvitations: privileges('portal:admin:manageCollaborations'),
  acceptCollaborationInvitation: privileges('portal:admin:manageCollaborations'),
  declineCollaborationInvitation: privileges('portal:admin:manageCollaborations'),
  collaborationParticipantCandidates: privileges('portal:admin:manageCollaborations'),
  hostCollaborationInvitations: privileges('portal:admin:manageCollaborations'),
  hostCollaborationInvitation: privileges('portal:admin:manageCollaborations'),
  refreshCollaborationInvitation: privileges('portal:admin:manageCollaborations'),
  invalidateCollaborationInvitation: privileges('portal:admin:manageCollaborations'),
  collaboration: privileges('portal:admin:manageCollaborations'),
  collaborationParticipants: privileges('portal:admin:manageCollaborations'),
  collaborationParticipant: privileges('portal:admin:manageCollaborations'),
  removeCollaborationParticipant: privileges('portal:admin:manageCollaborations'),
  removeCollaborationParticipation: privileges('portal:admin:manageCollaborations'),
  collaborationWorkspaces: privileges('portal:admin:manageCollaborations'),
  addCollaborationWorkspace: privileges('portal:admin:manageCollaborations'),
  inviteCollaborationParticipant: privileges('portal:admin:manageCollaborations'),
  collaborationEvents: privileges('portal:admin:manageCollaborations'),
} as const satisfies Record<string, Authority>;
