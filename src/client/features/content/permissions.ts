/**
 * Who may do what with an item: the service's own declarations (ITEM_OPERATIONS, REASSIGN_OPERATIONS)
 * decided as the service decides them (canOn): the owner holding what they ask of owners (content
 * creation), else an administrator of the item's organization whom they admit.
 */
import type { Item, PortalUser } from '../../api/index.ts';
import type { OperationName } from '../../../shared/contract/operations.ts';
import { can, canOn, declaredPrivilege, ownerPermission } from '../../lib/can.ts';
import { ALLOWED, describePrivilege, requirePrivilege, type Permission } from '../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges' | 'orgId' | 'username'> & { roleId?: string | null };

export const REASSIGN_ANY = declaredPrivilege('reassignItem');

const owns = (user: Member, item: Pick<Item, 'owner'>) => user.username.toLowerCase() === item.owner.toLowerCase();
const on = (user: Member, item: Pick<Item, 'owner' | 'orgId'>) => ({ orgId: item.orgId, owned: owns(user, item) });

export const addItemPermission = (user: Member) => ownerPermission(user, 'addItem', 'add items');
export const viewOrgContentPermission = (user: Member) => can(user, 'userContent', undefined, "see the organization's content");

/** The owner holding what `operation` asks of owners, or an administrator of the item's organization whom it admits. */
function ownerOrAdmin(user: Member, item: Pick<Item, 'owner' | 'orgId'>, operation: OperationName, action: string): Permission {
  const notOwnerOrAdmin = `To ${action} you need to own the item, or be an administrator of its organization with ${describePrivilege(declaredPrivilege(operation))}.`;
  return canOn(user, operation, on(user, item), { action, notOwnerOrAdmin });
}

export const editItemPermission = (user: Member, item: Item) => ownerOrAdmin(user, item, 'updateItem', 'change this item');

export function deleteItemPermission(user: Member, item: Item): Permission {
  const who = ownerOrAdmin(user, item, 'deleteItem', 'delete this item');
  if (!who.allowed) return who;
  if (item.protected) return { allowed: false, missing: 'unprotect', reason: 'The item is protected from deletion: turn protection off first.' };
  if (item.contentStatus === 'org_authoritative' || item.contentStatus === 'public_authoritative') {
    return {
      allowed: false,
      missing: 'authoritative',
      reason: 'Authoritative items cannot be deleted: an administrator must remove the authoritative status first.',
    };
  }
  return ALLOWED;
}

/** The levels of sharing: the owner needs portal:user:shareTo…, an administrator portal:admin:shareTo… (the level is the request's, not the operation's). */
export function shareLevelPermission(user: Member, item: Item, level: 'Group' | 'Org' | 'Public'): Permission {
  const privilege = owns(user, item) ? `portal:user:shareTo${level}` : `portal:admin:shareTo${level}`;
  const what = level === 'Group' ? 'share to groups' : level === 'Org' ? 'share with the organization' : 'share with everyone';
  if (!owns(user, item) && user.orgId !== item.orgId)
    return { allowed: false, missing: privilege, reason: 'Only the owner or an administrator of its organization can share this item.' };
  return requirePrivilege(user, privilege, what);
}

/** Deprecated: owner or administrator; the authoritative statuses (and removing them): administrators only. */
export function contentStatusPermission(user: Member, item: Item, authoritative: boolean): Permission {
  // An administrator of the item's organization, owning it or not (the owner alone may not set the authoritative statuses).
  if (canOn(user, 'setContentStatus', { orgId: item.orgId, owned: false }).allowed) return ALLOWED;
  if (authoritative) {
    const privilege = declaredPrivilege('setContentStatus');
    return {
      allowed: false,
      missing: privilege,
      reason: `Only an administrator of the organization with ${describePrivilege(privilege)} can set or remove an authoritative status.`,
    };
  }
  return ownerOrAdmin(user, item, 'setContentStatus', 'set the content status');
}

/** Change owner (the transfer wizard): the owner with "transfer own content", or an administrator of the item's organization. */
export function reassignItemPermission(user: Member, item: Pick<Item, 'owner' | 'orgId'>): Permission {
  const action = 'give this item to another member';
  const notOwnerOrAdmin = `To ${action} you need to own it, or be an administrator of its organization with ${describePrivilege(REASSIGN_ANY)}.`;
  return canOn(user, 'reassignItem', on(user, item), { action, notOwnerOrAdmin });
}
