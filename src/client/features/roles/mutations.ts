/** Saving and deleting roles; each mutation declares what it makes stale. */
import { useMutation, type Query } from '@tanstack/react-query';
import { createRole, deleteRole, setRolePrivileges, updateRole } from '../../api/index.ts';
import { userKeys } from '../../api/queries/users.ts';
import { roleKeys } from '../../api/queries/roles.ts';

export interface SaveRoleInput {
  /** Absent: create a new role. */
  roleId?: string;
  /** Name and description, when they changed (always for a new role). */
  details?: { name: string; description: string };
  /** The privileges the role names, when they changed. */
  privileges?: string[];
}

/** A new role was created, but setting its privileges failed: it exists with none. */
export class PrivilegesNotSavedError extends Error {
  constructor(
    readonly roleId: string,
    override readonly cause: unknown,
  ) {
    super('The role was created, but its privileges were not saved.');
  }
}

/**
 * Creates (createRole, then setPrivileges) or updates (update, then setPrivileges) a role, sending
 * only what changed. Holders' base role follows the privileges, so members are read again too.
 */
export function useSaveRole(orgId: string) {
  return useMutation({
    mutationFn: async (input: SaveRoleInput): Promise<{ roleId: string; created: boolean }> => {
      if (!input.roleId) {
        const { id } = await createRole(orgId, input.details!);
        if (input.privileges?.length) {
          try {
            await setRolePrivileges(orgId, id, input.privileges);
          } catch (err) {
            throw new PrivilegesNotSavedError(id, err);
          }
        }
        return { roleId: id, created: true };
      }
      if (input.details) await updateRole(orgId, input.roleId, input.details);
      if (input.privileges) await setRolePrivileges(orgId, input.roleId, input.privileges);
      return { roleId: input.roleId, created: false };
    },
    // On error too: a half-done save (details saved, privileges refused) changed things too.
    meta: { invalidates: [roleKeys.all(orgId), userKeys.members(orgId)], invalidatesOnError: true },
  });
}

export function useDeleteRole(orgId: string) {
  return useMutation({
    mutationFn: (roleId: string) => deleteRole(orgId, roleId),
    // The deleted role itself is not read again (it is gone: the page showing it moves on).
    meta: {
      invalidates: (roleId: string) => [{ queryKey: roleKeys.all(orgId), predicate: (q: Query) => !(q.queryKey[2] === 'detail' && q.queryKey[3] === roleId) }],
    },
  });
}
