/** Who may do what on the Members page (the service enforces the same rules). */
import type { PortalUser } from '../../api/index.ts';
import { ALLOWED, isDefaultAdmin, requireDefaultAdmin, requireDefaultAdminOr, requirePrivilege, type Permission } from '../../lib/privileges.ts';

export const INVITE_USERS = 'portal:admin:inviteUsers';
export const CHANGE_USER_ROLES = 'portal:admin:changeUserRoles';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

/** Adding members: default administrators, or holders of portal:admin:inviteUsers. */
export function addMembersPermission(user: Member): Permission {
  return requireDefaultAdminOr(user, INVITE_USERS, 'add members');
}

/** Changing roles at all: portal:admin:changeUserRoles. */
export function changeRolesPermission(user: Member): Permission {
  return requirePrivilege(user, CHANGE_USER_ROLES, "change members' roles");
}

/** Changing this member's role: also, only a default administrator may change an administrator's role. */
export function changeRoleOfPermission(user: Member, member: { role: string; roleId?: string | null }): Permission {
  const base = changeRolesPermission(user);
  if (!base.allowed) return base;
  if (member.role === 'org_admin' && !member.roleId) return requireDefaultAdmin(user, "change an administrator's role");
  return ALLOWED;
}

/** Giving a role (when adding or changing): only a default administrator may make someone an administrator. */
export function assignRolePermission(user: Member, role: string): Permission {
  if (role === 'org_admin' && !isDefaultAdmin(user)) return requireDefaultAdmin(user, 'make a member an administrator');
  return ALLOWED;
}
