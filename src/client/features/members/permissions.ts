/** Who may do what on the Members page: the service's own table (MEMBER_OPERATIONS), asked through can(). */
import type { GroupRecord, PortalUser } from '../../api/index.ts';
import { OWN_ROLE_REFUSAL } from '../../../shared/roleGrant.ts';
import { can, canOn } from '../../lib/can.ts';
import { ALLOWED, type Permission } from '../../lib/privileges.ts';
import { addUsersPermission } from '../../lib/groupPermissions.ts';
import { grantRolePermission, type GrantPermission } from '../../lib/roleGrant.ts';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };
type Role = { id: string; name: string; privileges?: readonly string[] };

/** Adding members (createUser). */
export function addMembersPermission(user: Member): Permission {
  return can(user, 'createUser', undefined, 'add members');
}

/** Changing roles at all (updateUserRole). */
export function changeRolesPermission(user: Member): Permission {
  return can(user, 'updateUserRole', undefined, "change members' roles");
}

/** Changing this member's role: updateUserRole on their account (not one's own; an administrator's only by a default administrator). */
export function changeRoleOfPermission(user: Member & { username: string }, member: { username?: string; role: string; roleId?: string | null }): Permission {
  return can(user, 'updateUserRole', member, {
    action: "change members' roles",
    ownAccount: OWN_ROLE_REFUSAL,
    administrator: "change an administrator's role",
  });
}

/**
 * Giving a role (when adding or changing): only a default administrator makes someone an
 * administrator; anyone else gives only roles whose privileges they hold (docs/security.md).
 */
export function assignRolePermission(user: Member, role: string, customRoles?: readonly Role[]): GrantPermission {
  return grantRolePermission(user, role, customRoles);
}

/** Unlocking a member's sign-in (community/users/<user>/unlockSignIn; docs/security.md "Sign-in throttling"). */
export function unlockSignInPermission(user: Member): Permission {
  return can(user, 'unlockSignIn', undefined, "unlock a member's sign-in");
}

/** Disabling or enabling this member (community/users/<user>/disable|enable) on their account. */
export function disableMemberPermission(
  user: Member & { username: string },
  member: { username: string; role: string; roleId?: string | null; disabled?: boolean },
): Permission {
  const verb = member.disabled ? 'enable' : 'disable';
  return can(user, member.disabled ? 'enableUser' : 'disableUser', member, {
    action: `${verb} members`,
    ownAccount: 'You cannot disable or enable your own account.',
    administrator: `${verb} an administrator`,
  });
}

/** Changing user types at all (portals/<orgId>/updateUserLicenseType). */
export function changeUserTypesPermission(user: Member): Permission {
  return can(user, 'updateUserLicenseType', undefined, "change members' user types");
}

/** Disabling and enabling members at all (community/users/<user>/disable|enable). */
export function disableMembersPermission(user: Member): Permission {
  return can(user, 'disableUser', undefined, 'disable or enable members');
}

/** Deleting members at all (community/users/<user>/delete). */
export function deleteMembersPermission(user: Member): Permission {
  return can(user, 'deleteUser', undefined, 'delete members');
}

/** Deleting this member: not one's own account; an administrator's only by a default administrator. */
export function deleteMemberPermission(user: Member & { username: string }, member: { username: string; role: string; roleId?: string | null }): Permission {
  return can(user, 'deleteUser', member, {
    action: 'delete members',
    ownAccount: 'You cannot delete your own account.',
    administrator: 'delete an administrator',
  });
}

/**
 * Adding members to groups (community/groups/<id>/addUsers): as documented, a group's owner and
 * managers add members to it, so a member who owns or manages one of `groups` may; adding to
 * others' groups needs portal:admin:assignToGroups.
 */
export function addToGroupsPermission(user: Member & Pick<PortalUser, 'orgId'>, groups: readonly GroupRecord[] = []): Permission {
  const asAdministrator = can(user, 'addGroupUsers', undefined, 'add members to groups');
  return asAdministrator.allowed || groupsToAddTo(user, groups).length ? ALLOWED : asAdministrator;
}

/** Of `groups`, those the member may add members to: their own and those they manage, or any with assignToGroups. */
export function groupsToAddTo<G extends GroupRecord>(user: Member & Pick<PortalUser, 'orgId'>, groups: readonly G[]): G[] {
  return groups.filter((g) => addUsersPermission(user, g).allowed);
}

/**
 * Setting a member's password (Update User's `password`): portal:admin:updateUsers, not one's own
 * account, and only for a member whose role holds nothing the one resetting lacks (signing in as
 * them would take those privileges: the role-giving rule).
 */
export function resetPasswordPermission(
  user: Member & { username: string },
  member: { username: string; role: string; roleId?: string | null },
  customRoles?: readonly Role[],
): Permission {
  if (member.username.toLowerCase() === user.username.toLowerCase())
    return { allowed: false, missing: 'another member', reason: 'You cannot reset your own password here: change it from your account.' };
  const may = can(user, 'updateUser', undefined, "reset a member's password");
  if (!may.allowed) return may;
  const grant = grantRolePermission(user, member.roleId ?? member.role, customRoles);
  return grant.allowed
    ? grant
    : {
        allowed: false,
        missing: grant.missing,
        reason: `You cannot reset the password of ${member.username}: their role holds privileges you do not hold (${grant.note}).`,
      };
}

/**
 * Transferring a member's content, decided as the service decides reassignItems (canOn: an
 * administrator it admits, else the owner holding portal:user:reassignItems). Members listed are of
 * the caller's organization.
 */
export function transferPermission(user: Member & { username: string; orgId: string }, m: { username: string }): Permission {
  const own = m.username.toLowerCase() === user.username.toLowerCase();
  return canOn(user, 'reassignItems', { orgId: user.orgId, owned: own }, own ? 'transfer your content' : "transfer a member's content");
}
