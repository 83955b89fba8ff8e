/**
 * Giving a role: resolving what the wire names, and the rule for who may give it
 * (src/shared/roleGrant.ts; docs/security.md, "Role assignment"). Below both users and
 * userDefaultSettings, so each uses it without importing the other.
 */
import { isAdministratorAccount, isBaseRole } from '../../../shared/contract/users.ts';
import { BASE_ROLE_LABELS, baseRoleForPrivileges, type BaseRole } from '../../../shared/privileges.ts';
import { grantRefusal, OWN_ROLE_REFUSAL, rolePrivileges } from '../../../shared/roleGrant.ts';
import type { Caller } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { findRole } from './repo.ts';

export interface ResolvedRole {
  role: BaseRole;
  roleId: string | null;
  /** "Publisher", or the custom role's name. */
  name: string;
  /** What a member holding it may do, implied privileges included. */
  privileges: Set<string>;
}

/** `role` as the wire gives it: a base role, or the id of a custom role of the organization. */
export async function resolveRole(q: Queryable, orgId: string, role: string, param = 'role'): Promise<ResolvedRole> {
  if (isBaseRole(role)) return { role, roleId: null, name: BASE_ROLE_LABELS[role], privileges: rolePrivileges(role, null) };
  const custom = await findRole(q, orgId, role);
  if (!custom) throw badParam(param, `'${role}' is neither a base role (org_admin, org_publisher, org_user) nor a role of this organization`);
  const privileges = rolePrivileges('org_user', custom.privileges);
  return { role: baseRoleForPrivileges(privileges), roleId: custom.id, name: custom.name, privileges };
}

/** The base administrator role (shared isAdministratorAccount: org_admin without a custom role). */
export const isAdministratorRole = (r: Pick<ResolvedRole, 'role' | 'roleId'>) => isAdministratorAccount(r);

/** 403 unless the caller may give this role (to another member, or as the new-member default). */
export function assertMayGrantRole(caller: Caller, role: ResolvedRole): void {
  const refusal = grantRefusal(caller, { name: role.name, administrator: isAdministratorRole(role), privileges: role.privileges });
  if (refusal) throw forbidden(refusal);
}

/** Nobody changes their own role: a member could otherwise keep what they were about to lose, or take more. */
export function assertNotOwnRole(caller: Caller, targetUserId: string): void {
  if (caller.userId === targetUserId) throw forbidden(OWN_ROLE_REFUSAL);
}
