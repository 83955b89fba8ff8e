/**
 * Bulk member jobs, a local extra of this portal (docs/local-extras.md): a bulk action on members
 * (disable, enable, change role, change user type, delete, add to groups) that the service runs as
 * a job — progress, pause, resume, cancel and one result per member — so it goes on after the
 * browser that started it is closed. ArcGIS has no such operation: on another portal the console
 * runs the same action from the browser, one documented request a member.
 *
 * Each action has its own create operation, declaring the privilege the single-member operation
 * declares, so the operation table and the privilege matrix say who may start which job. Every
 * member is then acted on through that single-member operation's own service and authorization.
 */
import { z } from 'zod';
import { ownerOr, ownerOrDefaultAdmin, privileges, type Authority } from '../authority.ts';
import { LIMITS } from '../limits.ts';
import { commaList, pagingParams } from './wire.ts';
import { memberFilterParams, roleParam, USER_LICENSE_TYPES } from './users.ts';

export const MEMBER_JOB_ACTIONS = ['disable', 'enable', 'role', 'userType', 'delete', 'addToGroups'] as const;
export type MemberJobAction = (typeof MEMBER_JOB_ACTIONS)[number];
/** What a job may do to each member: a created action, or removeFromGroups (only ever the undo of addToGroups). */
export type MemberJobRunAction = MemberJobAction | 'removeFromGroups';
/** The action that puts back what each action did (delete has none: the account is gone). */
export const MEMBER_JOB_INVERSE: Record<MemberJobRunAction, MemberJobRunAction | null> = {
  disable: 'enable',
  enable: 'disable',
  role: 'role',
  userType: 'userType',
  delete: null,
  addToGroups: 'removeFromGroups',
  removeFromGroups: 'addToGroups',
};
export const MEMBER_JOB_STATES = ['running', 'paused', 'cancelled', 'done'] as const;
export type MemberJobState = (typeof MEMBER_JOB_STATES)[number];
export type MemberResultState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export const MEMBER_JOB_LIMITS = {
  /** Members one job may name (the console's "all N matching" of a large organization). */
  maxMembers: 100_000,
  /** Groups an add-to-groups job adds each member to. */
  maxGroups: 25,
} as const;

/** The path segment that creates each action's job (portals/<orgId>/memberJobs/<segment>). */
export const MEMBER_JOB_PATHS: Record<MemberJobAction, string> = {
  disable: 'disableUsers',
  enable: 'enableUsers',
  role: 'updateUserRoles',
  userType: 'updateUserLicenseTypes',
  delete: 'removeUsers',
  addToGroups: 'addUsersToGroups',
};

/** `usernames` (comma-separated, a JSON array) or the member filters (every member matching them, as the Members list filters). */
const members = {
  usernames: commaList
    .pipe(z.array(z.string().max(LIMITS.usernameMaxChars)).max(MEMBER_JOB_LIMITS.maxMembers, `at most ${MEMBER_JOB_LIMITS.maxMembers} members per job`))
    .optional(),
  ...memberFilterParams.shape,
  role: z.string().max(64).optional(),
};

export const memberJobParams = {
  disable: z.object(members),
  enable: z.object(members),
  role: z.object({ ...members, newRole: roleParam }),
  userType: z.object({ ...members, newUserLicenseType: z.enum(USER_LICENSE_TYPES) }),
  delete: z.object(members),
  addToGroups: z.object({
    ...members,
    groupIds: commaList.pipe(z.array(z.string().max(64)).min(1, 'is required').max(MEMBER_JOB_LIMITS.maxGroups)),
  }),
} as const;

/** Most characters `usernames` may carry (the request's other parameters keep the usual limit). */
export const MEMBER_JOB_USERNAMES_CHARS = MEMBER_JOB_LIMITS.maxMembers * 40;

export const memberJobResultsParams = pagingParams.extend({
  /** Only the members in this state (e.g. `failed`, for a retry). */
  state: z.enum(['pending', 'succeeded', 'failed', 'cancelled']).optional(),
});

export interface MemberJob {
  id: string;
  action: MemberJobRunAction;
  /** `{newRole}`, `{newUserLicenseType}` or `{groupIds}`. */
  params: Record<string, unknown>;
  state: MemberJobState;
  total: number;
  /** Members acted on so far: succeeded + failed (+ cancelled once cancelled). */
  done: number;
  succeeded: number;
  failed: number;
  createdBy: string;
  created: number;
  modified: number;
  finished: number | null;
  /** The job this one undoes, if it is an undo. */
  undoes: string | null;
  /** The job that undid this one, once undone. */
  undoneBy: string | null;
}

export interface MemberJobResult {
  username: string;
  state: MemberResultState;
  /** Why the member was not changed: the single-member operation's own refusal. */
  reason: string | null;
  doneAt: number | null;
}

// Each entry its own object: the operation table tells operations apart by their authority's identity.
export const MEMBER_JOB_OPERATIONS = {
  /** As disableUser / enableUser. */
  createDisableJob: privileges('portal:admin:disableUsers'),
  createEnableJob: privileges('portal:admin:disableUsers'),
  /** As updateUserRole. */
  createRoleJob: privileges('portal:admin:changeUserRoles'),
  /** As updateUserLicenseType. */
  createUserTypeJob: privileges('portal:admin:manageLicenses'),
  /** As deleteUser. */
  createDeleteJob: privileges('portal:admin:deleteUsers'),
  /**
   * As addGroupUsers: the owner or a manager of every group named (the job's target, memberJobs
   * service ADD_TO_GROUPS_TARGET), else an administrator with assignToGroups; each group is still
   * decided as addUsers decides it.
   */
  createAddToGroupsJob: ownerOr('portal:admin:assignToGroups'),
  memberJobs: privileges('portal:admin:viewUsers'),
  /** The member who started it, or whoever may view the organization's members. */
  memberJob: ownerOr('portal:admin:viewUsers'),
  memberJobResults: ownerOr('portal:admin:viewUsers'),
  /** The member who started it, or a default administrator. */
  pauseMemberJob: ownerOrDefaultAdmin(),
  resumeMemberJob: ownerOrDefaultAdmin(),
  cancelMemberJob: ownerOrDefaultAdmin(),
  /**
   * Undo a finished job as one action: a job of the inverse action over the members it changed,
   * each still acted on through the single-member operation's own authority.
   */
  undoMemberJob: ownerOrDefaultAdmin(),
} as const satisfies Record<string, Authority>;

/** Each action's create operation. */
export const MEMBER_JOB_CREATE: Record<MemberJobAction, keyof typeof MEMBER_JOB_OPERATIONS> = {
  disable: 'createDisableJob',
  enable: 'createEnableJob',
  role: 'createRoleJob',
  userType: 'createUserTypeJob',
  delete: 'createDeleteJob',
  addToGroups: 'createAddToGroupsJob',
};
