/**
 * Who addUsers adds to a group. One rule for the service, which decides each name's fate (added,
 * made a manager, left as it is, or listed in `notAdded` with its reason), and for the console,
 * which shows each chosen name's status before anything is sent. Each half says it in its own words.
 *
 * The first check a name fails is its reason:
 * 1. there is no such account;
 * 2. already in the group: not an error, and a member named as a manager becomes one;
 * 3. the account is disabled;
 * 4. the group's `membershipAccess` keeps out members of other organizations (`org`), or of
 *    organizations not in a partnered collaboration with it (`collaboration`);
 * 5. the member lacks the privilege to join groups, or groups of other organizations;
 * 6. the member is already in as many groups as one may be;
 * 7. another organization's member, and the caller may not add external members;
 * 8. the group has no room for another member from other organizations.
 *
 * The console knows fewer facts than the service (its search cannot see other organizations'
 * members, nor a member's privileges or groups): a fact left undefined is not known, its check is
 * passed over, and the portal decides it when the name is sent.
 */
import type { MemberType, MembershipAccess } from './contract/groups.ts';
import type { Privilege } from './privileges.ts';

/** The privilege a member needs to be in a group of their own organization or (`external`) of another. */
export const joinPrivilege = (external: boolean): Privilege => (external ? 'portal:user:joinNonOrgGroup' : 'portal:user:joinGroup');

/** The privilege a caller needs to add members of other organizations to a group. */
export const ADD_EXTERNAL_MEMBERS: Privilege = 'portal:user:addExternalMembersToGroup';

export interface AddUsersFacts {
  /** Named among `admins` (to be a manager) rather than among `users`. */
  asManager: boolean;
  group: {
    membershipAccess: MembershipAccess;
    /** Whether the group has room for one more member from another organization. */
    externalRoom?: boolean;
  };
  caller: { privileges: ReadonlySet<string> };
  candidate: {
    exists?: boolean;
    /** Their place in the group, or null when they are not in it. */
    membership?: MemberType | null;
    disabled?: boolean;
    /** A member of another organization than the group's. */
    external?: boolean;
    /** Their organization is in a partnered collaboration with the group's. */
    partnered?: boolean;
    privileges?: ReadonlySet<string>;
    /** Already in as many groups as a member may be. */
    atGroupLimit?: boolean;
  };
}

export type AddUsersRefusal =
  | 'no-account'
  | 'disabled'
  | 'access-org'
  | 'access-collaboration'
  | 'cannot-join'
  | 'cannot-join-external'
  | 'too-many-groups'
  | 'external-not-allowed'
  | 'external-limit';

export type AddUsersVerdict =
  /** Added, as what they were named. */
  | { kind: 'add' }
  /** A plain member named as a manager: made one. */
  | { kind: 'promote' }
  /** Already in the group: left as they are. */
  | { kind: 'in-group'; as: MemberType }
  | { kind: 'refused'; reason: AddUsersRefusal };

/**
 * What the group's `membershipAccess` says about a member (`external` to the group's organization,
 * `partnered` with it), or null when it lets them in or a fact it needs is not known.
 */
export function membershipAccessRefusal(
  access: MembershipAccess,
  external: boolean | undefined,
  partnered: boolean | undefined,
): 'access-org' | 'access-collaboration' | null {
  if (!external || access === 'none') return null;
  if (access === 'org') return 'access-org';
  return partnered === false ? 'access-collaboration' : null;
}

export function addUsersVerdict({ asManager, group, caller, candidate: c }: AddUsersFacts): AddUsersVerdict {
  const refused = (reason: AddUsersRefusal): AddUsersVerdict => ({ kind: 'refused', reason });
  if (c.exists === false) return refused('no-account');
  if (c.membership) return asManager && c.membership === 'member' ? { kind: 'promote' } : { kind: 'in-group', as: c.membership };
  if (c.disabled) return refused('disabled');
  const access = membershipAccessRefusal(group.membershipAccess, c.external, c.partnered);
  if (access) return refused(access);
  if (c.privileges && c.external !== undefined && !c.privileges.has(joinPrivilege(c.external)))
    return refused(c.external ? 'cannot-join-external' : 'cannot-join');
  if (c.atGroupLimit) return refused('too-many-groups');
  if (c.external && !caller.privileges.has(ADD_EXTERNAL_MEMBERS)) return refused('external-not-allowed');
  if (c.external && group.externalRoom === false) return refused('external-limit');
  return { kind: 'add' };
}
