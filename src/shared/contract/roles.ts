/** Custom roles and their privileges (spec §4.6, §4.10; facts §3.5). */
import { z } from 'zod';
import { defaultAdmin, member, type Authority } from '../authority.ts';
import { LIMITS } from '../limits.ts';
import { pagingParams, wireBool } from './wire.ts';

export const roleName = z.string().trim().min(1, 'is required').max(LIMITS.roleNameChars, `must be at most ${LIMITS.roleNameChars} characters`);
export const roleDescription = z.string().trim().max(LIMITS.roleDescriptionChars, `must be at most ${LIMITS.roleDescriptionChars} characters`);

export const listRolesParams = pagingParams.extend({ returnPrivileges: wireBool.default(false) });
export const createRoleParams = z.object({ name: roleName, description: roleDescription.default('') });
/** Only the fields sent change. */
export const updateRoleParams = z.object({ name: roleName.optional(), description: roleDescription.optional() });

/**
 * `privileges` is JSON text of an object `{"privileges":[…]}` — a wrapped object, not a bare
 * array (facts §3.5). Identifiers are checked against the catalogue by the service, which names
 * every unknown one.
 */
export const setPrivilegesParams = z.object({
  privileges: z
    .string()
    .min(1, 'is required')
    .max(64 * 1024, 'is too long'),
});

export interface Role {
  id: string;
  name: string;
  description: string;
  created: number;
  modified: number;
  privileges?: string[];
  /** Local-portal extras. */
  builtIn?: boolean;
  memberCount?: number;
}

/**
 * Who may call each role operation (`portals/<orgId>/roles`, `…/roles/<roleId>/…`): any member of
 * the organization reads its roles; only default administrators create, change or delete them.
 * The service declares its routes with these entries; the console asks the same ones (lib/can.ts).
 */
export const ROLE_OPERATIONS = {
  listRoles: member(),
  role: member(),
  rolePrivileges: member(),
  createRole: defaultAdmin(),
  updateRole: defaultAdmin(),
  setRolePrivileges: defaultAdmin(),
  deleteRole: defaultAdmin(),
} as const satisfies Record<string, Authority>;
