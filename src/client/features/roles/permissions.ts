/** Who may do what with roles (the service enforces the same rules). */
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { requireDefaultAdmin, type Permission } from '../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

/** Creating, changing and deleting roles: default administrators only (org_admin without a custom role). */
export function manageRolesPermission(user: Member): Permission {
  return requireDefaultAdmin(user, 'create, change or delete roles');
}

/** Changing or deleting this role: built-in roles are read-only for everyone. */
export function changeRolePermission(user: Member, role: Pick<RoleRecord, 'builtIn' | 'name'>, action = 'change'): Permission {
  if (role.builtIn)
    return {
      allowed: false,
      missing: 'built-in role',
      reason: `${role.name} is a built-in role: it cannot be ${action === 'delete' ? 'deleted' : 'changed'}.`,
    };
  return manageRolesPermission(user);
}
