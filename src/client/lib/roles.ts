/** Role names for display: the three base roles, the built-in custom roles, and any others by id. */
import { BASE_ROLE_LABELS, BASE_ROLES, BUILT_IN_ROLE_IDS, BUILT_IN_ROLES, type BaseRole } from '../../shared/privileges.ts';

export { BASE_ROLES, BASE_ROLE_LABELS };
export type { BaseRole };

export function isBaseRole(role: string): role is BaseRole {
  return (BASE_ROLES as readonly string[]).includes(role);
}

export function baseRoleLabel(role: string): string {
  return isBaseRole(role) ? BASE_ROLE_LABELS[role] : role;
}

/** A custom role's name: from the roles the caller could read, else a built-in one, else its id. */
export function customRoleName(roleId: string, known: readonly { id: string; name: string }[] = []): string | undefined {
  return known.find((r) => r.id === roleId)?.name ?? BUILT_IN_ROLES.find((r) => r.id === roleId)?.name;
}

/** How a member's role reads: "Publisher", or the custom role's name (or id). */
export function roleLabel(user: { role: string; roleId?: string | null }, known: readonly { id: string; name: string }[] = []): string {
  if (user.roleId) return customRoleName(user.roleId, known) ?? user.roleId;
  return baseRoleLabel(user.role);
}

/** Whether naming this member's role needs the roles list (a custom role that is not built in). */
export function needsRoleName(user: { roleId?: string | null }): boolean {
  return !!user.roleId && !BUILT_IN_ROLE_IDS.has(user.roleId);
}
