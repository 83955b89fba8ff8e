/** Groups and their members (spec §4.9; facts §3.8, §4). */
import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { commaList, pagingParams, sortOrder, wireBool } from './wire.ts';
import { own, ownerOr, privileges, visible, type Authority } from '../authority.ts';

export const GROUP_ACCESS = ['private', 'org', 'public'] as const;
export const MEMBER_TYPES = ['owner', 'admin', 'member'] as const;
/**
 * Who may join a group (`membershipAccess`; the values the ArcGIS API takes, as Esri's Hub client
 * sends them): `org` only members of the group's organization, `collaboration` those and members of
 * organizations in a partnered collaboration with it, `none` anyone (sent empty or as `none`).
 */
export const MEMBERSHIP_ACCESS = ['none', 'org', 'collaboration'] as const;
export type MembershipAccess = (typeof MEMBERSHIP_ACCESS)[number];
export type MemberType = (typeof MEMBER_TYPES)[number];

const groupFields = {
  title: z.string().trim().min(1, 'is required').max(LIMITS.groupTitleChars, `must be at most ${LIMITS.groupTitleChars} characters`),
  access: z.enum(GROUP_ACCESS),
  description: z.string().max(LIMITS.descriptionBytes - 1, 'must be less than 64 KB'),
  snippet: z.string().max(LIMITS.snippetChars, `must be at most ${LIMITS.snippetChars} characters`),
  tags: commaList,
  isInvitationOnly: wireBool,
  isViewOnly: wireBool,
  autoJoin: wireBool,
  leavingDisallowed: wireBool,
  hiddenMembers: wireBool,
  sortField: z.enum(['title', 'owner', 'avgRating', 'numViews', 'created', 'modified']),
  sortOrder: z.enum(['asc', 'desc']),
  capabilities: commaList,
  membershipAccess: z.enum([...MEMBERSHIP_ACCESS, '']).transform((v): MembershipAccess => (v === '' ? 'none' : v)),
};

/** Create: a title; every other field optional (the service fills the defaults). */
export const createGroupParams = z.object(groupFields).partial().required({ title: true });
/** Update: only the fields sent change. */
export const updateGroupParams = z.object(groupFields).partial();
export type GroupFields = z.output<typeof updateGroupParams>;

export const searchGroupsParams = pagingParams.extend({
  q: z.string().max(4096).default('*'),
  sortField: z.enum(['title', 'owner', 'created', 'modified']).default('title'),
  sortOrder,
});

/** `users` join as members, `admins` as managers: at most 25 names in one request. */
export const addUsersParams = z.object({ users: commaList.default([]), admins: commaList.default([]) });
export const removeUsersParams = z.object({ users: commaList.default([]) });
export const updateUsersParams = z.object({ users: commaList.default([]), admins: commaList.default([]) });

/** Reassign Group: the member of the group's organization who becomes its owner. */
export const reassignGroupParams = z.object({
  targetUsername: z.string().trim().min(1, 'is required').max(LIMITS.usernameMaxChars, `must be at most ${LIMITS.usernameMaxChars} characters`),
});

export const userlistParams = pagingParams.extend({
  name: z.string().max(256).optional(),
  memberType: z.enum(['owner', 'admin', 'member', 'admins']).optional(),
  sortField: z.enum(['username', 'fullname', 'joined', 'membertype']).default('username'),
  sortOrder,
  joined: z.string().max(64).optional(),
});

export interface GroupRecord {
  id: string;
  title: string;
  owner: string;
  orgId: string;
  description: string;
  snippet: string;
  tags: string[];
  access: (typeof GROUP_ACCESS)[number];
  isInvitationOnly: boolean;
  isViewOnly: boolean;
  autoJoin: boolean;
  leavingDisallowed: boolean;
  hiddenMembers: boolean;
  protected: boolean;
  sortField: string;
  sortOrder: string;
  capabilities: string[];
  /** Who may join; other portals may leave it out (then: anyone). */
  membershipAccess?: MembershipAccess;
  /** The thumbnail's file name, served at community/groups/<id>/info/<thumbnail>; null without one. */
  thumbnail: string | null;
  isFav: false;
  isReadOnly: false;
  provider: null;
  created: number;
  modified: number;
  userMembership?: { username: string; memberType: MemberType | 'none' };
  /** Local-portal extra: number of members including owner and managers. */
  memberCount?: number;
}

/** Why a user was not added (local extra beside `notAdded`). */
export interface NotAddedReason {
  username: string;
  reason: string;
}

/**
 * Who may call each group operation (community/createGroup, community/groups/<id>/…): anyone acts
 * on their own membership and creates their own groups; the owner (or, where ArcGIS lets them, a
 * manager) or an administrator of the group's organization with the privilege named changes another
 * member's group; anyone reads what the group's access shows them. The service declares its routes
 * with these entries; the console asks the same (lib/can.ts).
 */
export const GROUP_OPERATIONS = {
  createGroup: own(),
  joinGroup: own(),
  leaveGroup: own(),
  searchGroups: visible('portal:admin:viewGroups'),
  group: visible('portal:admin:viewGroups'),
  groupUsers: visible('portal:admin:viewGroups'),
  groupUserList: visible('portal:admin:viewGroups'),
  updateGroup: ownerOr('portal:admin:updateGroups'),
  protectGroup: ownerOr('portal:admin:updateGroups'),
  updateGroupUsers: ownerOr('portal:admin:updateGroups'),
  deleteGroup: ownerOr('portal:admin:deleteGroups'),
  addGroupUsers: ownerOr('portal:admin:assignToGroups'),
  removeGroupUsers: ownerOr('portal:admin:assignToGroups'),
  /** Reassign Group: "the administrator of an organization" only, not the owner (ArcGIS's portal:admin:reassignGroups). */
  reassignGroup: privileges('portal:admin:reassignGroups'),
} as const satisfies Record<string, Authority>;
