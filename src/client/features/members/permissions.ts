/** Who may do what on the Members page (the service enforces the same rules). */
import type { PortalUser } from '../../api/index.ts';
import { ALLOWED, requireDefaultAdmin, requireDefaultAdminOr, requirePrivilege, type Permission } from '../../lib/privileges.ts';
import { grantRolePermission, ownRolePermission, type GrantPermission } from '../../lib/roleGrant.ts';

export const INVITE_USERS = 'portal:admin:inviteUsers';
export const CHANGE_USER_ROLES = 'portal:admin:changeUserRoles';
export const DISABLE_USERS = 'portal:admin:disableUsers';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };
type Role = { id: string; name: string; privileges?: readonly string[] };

/** Adding members: default administrators, or holders of portal:admin:inviteUsers. */
export function addMembersPermission(user: Member): Permission {
  return requireDefaultAdminOr(user, INVITE_USERS, 'add members');
}

/** Changing roles at all: portal:admin:changeUserRoles. */
export function changeRolesPermission(user: Member): Permission {
  return requirePrivilege(user, CHANGE_USER_ROLES, "change members' roles");
}

/**
 * Changing this member's role: nobody changes their own; only a default administrator changes an
 * administrator's role.
 */
export function changeRoleOfPermission(user: Member & { username: string }, member: { username?: string; role: string; roleId?: string | null }): Permission {
  const base = changeRolesPermission(user);
  if (!base.allowed) return base;
  const own = ownRolePermission(user, member);
  if (!own.allowed) return own;
  if (member.role === 'org_admin' && !member.roleId) return requireDefaultAdmin(user, "change an administrator's role");
  return ALLOWED;
}

/**
 * Giving a role (when adding or changing): only a default administrator makes someone an
 * administrator; anyone else gives only roles whose privileges they hold (docs/security.md).
 */
export function assignRolePermission(user: Member, role: string, customRoles?: readonly Role[]): GrantPermission {
  return grantRolePermission(user, role, customRoles);
}

/**
 * Unlocking a member's sign-in (community/users/<user>/unlockSignIn): default administrators only,
 * as the service decides (docs/security.md "Sign-in throttling").
 */
export function unlockSignInPermission(user: Member): Permission {
  return requireDefaultAdmin(user, "unlock a member's sign-in");
}

/**
 * Disabling or enabling this member (community/users/<user>/disable|enable): portal:admin:disableUsers;
 * never one's own account; an administrator only by a default administrator.
 */
export function disableMemberPermission(
  user: Member & { username: string },
  member: { username: string; role: string; roleId?: string | null; disabled?: boolean },
): Permission {
  const action = member.disabled ? 'enable members' : 'disable members';
  const base = requirePrivilege(user, DISABLE_USERS, action);
  if (!base.allowed) return base;
  if (member.username.toLowerCase() === user.username.toLowerCase()) {
    return { allowed: false, missing: 'another member', reason: 'You cannot disable or enable your own account.' };
  }
  if (member.role === 'org_admin' && !member.roleId) return requireDefaultAdmin(user, member.disabled ? 'enable an administrator' : 'disable an administrator');
  return ALLOWED;
}
