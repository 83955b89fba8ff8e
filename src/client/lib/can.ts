/**
 * The console's one question about an operation: may this member call it, on this target? It reads
 * the table the service declares its routes with (src/shared/contract/operations.ts) through the
 * same authorityGrants, so an action is offered exactly when the service would accept it, and a
 * refusal names what is missing. No rule is stated here: only how a refusal reads.
 */
import type { PortalUser } from '../api/index.ts';
import { authorityGrants, mayActOn, ownerNeedsOf, type ActOnOptions, type Authority, type AuthorityHolder } from '../../shared/authority.ts';
import { OPERATIONS, type OperationName } from '../../shared/contract/operations.ts';
import { isAdministratorAccount, MEMBER_ACCOUNT_OPERATIONS, memberActionRefusal } from '../../shared/contract/users.ts';
import { ALLOWED, authorityHolder, describePrivilege, requirePrivilege, type Permission } from './privileges.ts';

type UserLike = Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string | null; username?: string };

/** The member account an operation of MEMBER_ACCOUNT_OPERATIONS acts on. */
export interface AccountTarget {
  username?: string;
  role: string;
  roleId?: string | null;
}

/** How a refusal words the action: "To <action> you need …", "Only a default administrator can <administrator>.". */
export interface Words {
  action: string;
  /** The whole refusal when the target is the member's own account (default "You cannot do this to your own account."). */
  ownAccount?: string;
  /** The action when the target is an administrator (default `action`). */
  administrator?: string;
  /**
   * canOn: the whole refusal when the member neither acts as the target's owner nor is an
   * administrator of its organization whom the declaration admits (it names the declared privilege).
   */
  notOwnerOrAdmin?: string;
}

const ACCOUNT_OPERATIONS = new Set<OperationName>(MEMBER_ACCOUNT_OPERATIONS);

/**
 * Whether `user` may call `operation` on another member's object of their organization (an
 * organization-wide object included), and, for an operation on a member's account, on `target`.
 * `words` words the refusal; by default the operation's name ("delete webhook").
 */
export function can(user: UserLike | null | undefined, operation: OperationName, target?: AccountTarget, words?: string | Words): Permission {
  const w = typeof words === 'string' ? { action: words } : (words ?? { action: nameAsWords(operation) });
  const authority = OPERATIONS[operation];
  const holder = authorityHolder(user);
  if (!user || !authorityGrants(authority, holder)) return refusal(authority, holder, w.action);
  if (target && ACCOUNT_OPERATIONS.has(operation)) {
    const own = target.username !== undefined && target.username.toLowerCase() === user.username?.toLowerCase();
    const refused = memberActionRefusal(holder, { own, administrator: isAdministratorAccount(target) });
    if (refused === 'ownAccount') return { allowed: false, missing: 'another member', reason: w.ownAccount ?? 'You cannot do this to your own account.' };
    if (refused === 'administrator')
      return { allowed: false, missing: 'default administrator', reason: `Only a default administrator can ${w.administrator ?? w.action}.` };
  }
  return ALLOWED;
}

/**
 * Whether `user` may call `operation` on their own object (adding an item, changing their own): what
 * its declaration asks of the owner (ownerNeeds; a member's content needs portal:user:createItem),
 * else allowed. Whose object it is, is the caller's to know.
 */
export function ownerPermission(user: UserLike | null | undefined, operation: OperationName, action: string): Permission {
  const ownerNeeds = ownerNeedsOf(OPERATIONS[operation]);
  return ownerNeeds ? requirePrivilege(user, ownerNeeds, action) : ALLOWED;
}

/** What canOn reads of the target: its organization, and whether the member acts on it as its owner (or one of a group's managers). */
export interface OwnedTarget {
  orgId: string;
  owned: boolean;
}

/**
 * Whether `user` may call `operation` on `target`, as the service decides it (mayActOn, the shared
 * decision behind its decide()): the owner holding what the declaration asks of owners, else an
 * administrator of the target's organization whom it admits. An owner lacking it reads as
 * ownerPermission does; the rest as can() does, or as `words.notOwnerOrAdmin` when given.
 */
export function canOn(
  user: (UserLike & { orgId: string }) | null | undefined,
  operation: OperationName,
  target: OwnedTarget,
  words?: string | Words,
  options?: ActOnOptions,
): Permission {
  const w = typeof words === 'string' ? { action: words } : (words ?? { action: nameAsWords(operation) });
  const authority = OPERATIONS[operation];
  const holder = authorityHolder(user);
  const verdict = user ? mayActOn(authority, { ...holder, orgId: user.orgId }, target, options) : undefined;
  if (verdict?.allowed) return ALLOWED;
  if (verdict?.refused === 'ownerLacks') return requirePrivilege(user, verdict.privilege, w.action);
  if (w.notOwnerOrAdmin !== undefined) return { allowed: false, missing: declaredPrivilege(operation), reason: w.notOwnerOrAdmin };
  if (verdict?.refused === 'otherOrg') return { allowed: false, missing: 'organization', reason: `Only a member of its organization can ${w.action}.` };
  return refusal(authority, holder, w.action);
}

/** Why `authority` refuses `holder`, naming the first privilege missing or whom it is reserved to. */
function refusal(authority: Authority, holder: AuthorityHolder, action: string): Permission {
  switch (authority.kind) {
    case 'privileges':
    case 'ownerOr':
    case 'visible': {
      const ids = authority.kind === 'visible' ? authority.widenedBy : authority.privileges;
      const missing = ids.find((p) => !holder.privileges.has(p)) ?? ids[0];
      if (missing) return { allowed: false, missing, reason: `To ${action} you need ${describePrivilege(missing)}.` };
      return { allowed: false, missing: 'owner', reason: `Only its owner can ${action}.` };
    }
    case 'defaultAdmin':
    case 'ownerOrDefaultAdmin':
      return { allowed: false, missing: 'default administrator', reason: `Only a default administrator can ${action}.` };
    case 'own':
      return { allowed: false, missing: 'owner', reason: `Only its owner can ${action}.` };
    case 'member':
      return { allowed: false, missing: 'member', reason: `Sign in to ${action}.` };
  }
}

/**
 * The privilege an operation's declaration asks of a member acting on another's object (the first
 * one listed), for a refusal that names it when can()'s own words do not fit; '' if it asks none.
 */
export function declaredPrivilege(operation: OperationName): string {
  const authority: Authority = OPERATIONS[operation];
  if (authority.kind === 'ownerOr' || authority.kind === 'privileges') return authority.privileges[0] ?? '';
  if (authority.kind === 'visible') return authority.widenedBy[0] ?? '';
  return '';
}

/** "deleteWebhook" → "delete webhook". */
const nameAsWords = (name: string) => name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
