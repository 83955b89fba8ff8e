/**
 * Privilege checks for the console. Every action a member may not take is shown disabled with the
 * missing privilege named, so each check answers with a reason, not just a boolean.
 */
import type { PortalUser } from '../api/index.ts';
import type { AuthorityHolder } from '../../shared/authority.ts';
import { isPrivilege, privilegeById } from '../../shared/privileges.ts';

type UserLike = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null };

/** Whether the member holds `privilege`. Whether they may call an operation is can()'s question (lib/can.ts). */
export function holds(user: UserLike | null | undefined, privilege: string): boolean {
  return !!user && user.privileges.includes(privilege);
}

/** A default administrator: role org_admin without a custom role (facts §1.9). */
export function isDefaultAdmin(user: UserLike | null | undefined): boolean {
  return !!user && user.role === 'org_admin' && !user.roleId;
}

/** The signed-in member as the shared authority table reads them (src/shared/authority.ts). */
export function authorityHolder(user: UserLike | null | undefined): AuthorityHolder {
  // The wire's list narrowed once to the catalogue's ids (an id the console does not know grants nothing here).
  return { privileges: new Set((user?.privileges ?? []).filter(isPrivilege)), isDefaultAdmin: isDefaultAdmin(user) };
}

export type Permission = { allowed: true } | { allowed: false; reason: string; missing: string };

export const ALLOWED: Permission = { allowed: true };

export function privilegeLabel(id: string): string {
  return privilegeById(id)?.label ?? id;
}

/** "the privilege “Add and invite members” (portal:admin:inviteUsers)". */
export function describePrivilege(id: string): string {
  const def = privilegeById(id);
  return def ? `the privilege “${def.label}” (${id})` : `the privilege ${id}`;
}

/** Allowed when the member holds `privilege`; else the reason names it. */
export function requirePrivilege(user: UserLike | null | undefined, privilege: string, action: string): Permission {
  if (holds(user, privilege)) return ALLOWED;
  return { allowed: false, missing: privilege, reason: `To ${action} you need ${describePrivilege(privilege)}.` };
}
