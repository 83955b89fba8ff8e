/**
 * The portal's rule for giving a role (src/shared/roleGrant.ts; docs/security.md, "Role
 * assignment") as console permissions: the role changes and new-member defaults the service would
 * refuse are shown disabled, with its reason, before anything is sent.
 */
import type { PortalUser } from '../api/index.ts';
import { BASE_ROLE_LABELS, isBaseRole } from './roles.ts';
import { isDefaultAdmin } from './privileges.ts';
import { ADMINISTRATOR_REFUSAL, grantRefusal, listPrivileges, missingPrivileges, rolePrivileges } from '../../shared/roleGrant.ts';

type Grantor = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

/** A refusal also carries a short note, for a choice list ("Publisher (you lack …)"). */
export type GrantPermission = { allowed: true } | { allowed: false; reason: string; missing: string; note: string };
const GRANTABLE: GrantPermission = { allowed: true };

/**
 * Whether `user` may give `role` (a base role or a custom role's id). A custom role whose
 * privileges the console could not read is left to the portal to decide.
 */
export function grantRolePermission(
  user: Grantor,
  role: string,
  customRoles: readonly { id: string; name: string; privileges?: readonly string[] }[] | undefined,
): GrantPermission {
  if (isDefaultAdmin(user)) return GRANTABLE;
  let target: { name: string; administrator: boolean; privileges: Set<string> };
  if (isBaseRole(role)) {
    target = { name: BASE_ROLE_LABELS[role], administrator: role === 'org_admin', privileges: rolePrivileges(role, null) };
  } else {
    const custom = customRoles?.find((r) => r.id === role);
    if (!custom?.privileges) return GRANTABLE;
    target = { name: custom.name, administrator: false, privileges: rolePrivileges('org_user', custom.privileges) };
  }
  const reason = grantRefusal({ isDefaultAdmin: false, privileges: user.privileges }, target);
  if (!reason) return GRANTABLE;
  if (reason === ADMINISTRATOR_REFUSAL) return { allowed: false, reason, missing: 'default administrator', note: 'default administrators only' };
  const missing = missingPrivileges(user.privileges, target.privileges);
  return { allowed: false, reason, missing: missing[0], note: `you lack ${listPrivileges(missing, 2)}` };
}
