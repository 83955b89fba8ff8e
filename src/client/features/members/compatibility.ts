/**
 * Role and user type together: the one rule (src/shared/userTypes.ts, which the portal applies too)
 * asked with a role the console knows by its value — a base role or a custom role's id.
 */
import type { RoleRecord } from '../../api/index.ts';
import { rolePrivileges } from '../../../shared/privileges.ts';
import { userTypeNote, userTypeRefusal } from '../../../shared/userTypes.ts';
import { BASE_ROLE_LABELS, isBaseRole } from '../../lib/roles.ts';

type Roles = readonly Pick<RoleRecord, 'id' | 'name' | 'privileges'>[] | undefined;

/** The role's name and privileges, or null when a custom role's privileges could not be read (the portal decides then). */
function roleFacts(role: string, customRoles: Roles): { name: string; privileges: Iterable<string> } | null {
  if (isBaseRole(role)) return { name: BASE_ROLE_LABELS[role], privileges: rolePrivileges(role, null) };
  const custom = customRoles?.find((r) => r.id === role);
  return custom?.privileges ? { name: custom.name, privileges: custom.privileges } : null;
}

/** Why a member of `userLicenseType` cannot hold `role`, in words, or null when they can (or it cannot be told). */
export function pairRefusal(userLicenseType: string | undefined, role: string, customRoles: Roles): string | null {
  if (!userLicenseType) return null;
  const facts = roleFacts(role, customRoles);
  return facts ? userTypeRefusal(userLicenseType, facts) : null;
}

/** The short note that follows a refused choice in a list ("not with the Viewer user type"). */
export function pairNote(userLicenseType: string): string {
  return userTypeNote(userLicenseType);
}
