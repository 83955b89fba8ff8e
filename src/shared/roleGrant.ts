/**
 * Who may give which role (docs/security.md, "Role assignment"). One rule for the service, which
 * enforces it on updateUserRole, createUser and setUserDefaultSettings, and for the console, which
 * disables the choices the service would refuse and says why:
 *
 * - nobody changes their own role (not even a default administrator: an organization never
 *   loses an administrator, or gains one, by a member's own hand);
 * - only default administrators make a member an administrator (org_admin without a custom role);
 * - anyone else gives only roles whose privileges, implied ones included, they hold themselves.
 *   A base role counts as the privileges it grants (org_user, org_publisher).
 */
import { PRIVILEGES, isAdministrativePrivilege } from './privileges.ts';

export interface Grantor {
  isDefaultAdmin: boolean;
  privileges: Iterable<string>;
}

export interface GrantedRole {
  /** How the role reads in messages: "Publisher", or the custom role's name. */
  name: string;
  /** The base administrator role (org_admin without a custom role). */
  administrator: boolean;
  /** What the role grants, implied privileges included (see rolePrivileges). */
  privileges: Iterable<string>;
}

export const OWN_ROLE_REFUSAL = 'You cannot change your own role.';
export const ADMINISTRATOR_REFUSAL = 'Only default administrators can make a member an administrator.';

export { rolePrivileges } from './privileges.ts';

// Administrative privileges first (they matter most in a refusal), then catalogue order.
const ORDER = new Map<string, number>(PRIVILEGES.map((p, i) => [p.id, (isAdministrativePrivilege(p.id) ? 0 : PRIVILEGES.length) + i]));

/** The role's privileges the grantor lacks, administrative ones first. */
export function missingPrivileges(grantor: Iterable<string>, role: Iterable<string>): string[] {
  const held = new Set(grantor);
  return [...new Set(role)].filter((p) => !held.has(p)).sort((a, b) => (ORDER.get(a) ?? Infinity) - (ORDER.get(b) ?? Infinity) || a.localeCompare(b));
}

/** "a, b, c" — the first few and how many more, so a message stays readable for a role of forty privileges. */
export function listPrivileges(ids: readonly string[], shown = 6): string {
  const head = ids.slice(0, shown).join(', ');
  return ids.length > shown ? `${head} and ${ids.length - shown} more` : head;
}

/** Why the grantor may not give this role, or null when they may. */
export function grantRefusal(grantor: Grantor, role: GrantedRole): string | null {
  if (grantor.isDefaultAdmin) return null;
  if (role.administrator) return ADMINISTRATOR_REFUSAL;
  const missing = missingPrivileges(grantor.privileges, role.privileges);
  if (!missing.length) return null;
  return `You cannot assign the role '${role.name}': it holds privileges you do not hold (${listPrivileges(missing)}).`;
}
