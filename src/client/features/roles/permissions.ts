/** Who may do what with roles: the service's own table (ROLE_OPERATIONS), asked through can(). */
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { can } from '../../lib/can.ts';
import type { Permission } from '../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

const MANAGE = 'create, change or delete roles';

/** Creating roles (and, with the same authority, changing and deleting them). */
export function manageRolesPermission(user: Member): Permission {
  return can(user, 'createRole', undefined, MANAGE);
}

/** Changing or deleting this role: built-in roles are read-only for everyone. */
export function changeRolePermission(user: Member, role: Pick<RoleRecord, 'builtIn' | 'name'>, action = 'change'): Permission {
  if (role.builtIn)
    return {
      allowed: false,
      missing: 'built-in role',
      reason: `${role.name} is a built-in role: it cannot be ${action === 'delete' ? 'deleted' : 'changed'}.`,
    };
  return can(user, action === 'delete' ? 'deleteRole' : 'updateRole', undefined, MANAGE);
}
