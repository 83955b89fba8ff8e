/** Who may do what with an item (the service enforces the same rules). */
import type { Item, PortalUser } from '../../api/index.ts';
import { ALLOWED, holds, describePrivilege, requirePrivilege, type Permission } from '../../lib/privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges' | 'orgId' | 'username'> & { roleId?: string | null };

export const CREATE_ITEM = 'portal:user:createItem';
export const VIEW_ORG_ITEMS = 'portal:admin:viewItems';
export const UPDATE_ITEMS = 'portal:admin:updateItems';
export const DELETE_ITEMS = 'portal:admin:deleteItems';
export const REASSIGN_ANY = 'portal:admin:reassignItems';
export const REASSIGN_OWN = 'portal:user:reassignItems';

const owns = (user: Member, item: Pick<Item, 'owner'>) => user.username.toLowerCase() === item.owner.toLowerCase();
const adminOf = (user: Member, item: Pick<Item, 'orgId'>, privilege: string) => user.orgId === item.orgId && holds(user, privilege);

export const addItemPermission = (user: Member) => requirePrivilege(user, CREATE_ITEM, 'add items');
export const viewOrgContentPermission = (user: Member) => requirePrivilege(user, VIEW_ORG_ITEMS, "see the organization's content");

/** Owner holding createItem, or an administrator of the item's organization holding `adminPrivilege`. */
function ownerOrAdmin(user: Member, item: Pick<Item, 'owner' | 'orgId'>, adminPrivilege: string, action: string): Permission {
  if (owns(user, item)) return requirePrivilege(user, CREATE_ITEM, action);
  if (adminOf(user, item, adminPrivilege)) return ALLOWED;
  return {
    allowed: false,
    missing: adminPrivilege,
    reason: `To ${action} you need to own the item, or be an administrator of its organization with ${describePrivilege(adminPrivilege)}.`,
  };
}

export const editItemPermission = (user: Member, item: Item) => ownerOrAdmin(user, item, UPDATE_ITEMS, 'change this item');

export function deleteItemPermission(user: Member, item: Item): Permission {
  const who = ownerOrAdmin(user, item, DELETE_ITEMS, 'delete this item');
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

/** The levels of sharing: the owner needs portal:user:shareTo…, an administrator portal:admin:shareTo…. */
export function shareLevelPermission(user: Member, item: Item, level: 'Group' | 'Org' | 'Public'): Permission {
  const privilege = owns(user, item) ? `portal:user:shareTo${level}` : `portal:admin:shareTo${level}`;
  const what = level === 'Group' ? 'share to groups' : level === 'Org' ? 'share with the organization' : 'share with everyone';
  if (!owns(user, item) && user.orgId !== item.orgId)
    return { allowed: false, missing: privilege, reason: 'Only the owner or an administrator of its organization can share this item.' };
  return requirePrivilege(user, privilege, what);
}

/** Deprecated: owner or administrator; the authoritative statuses (and removing them): administrators only. */
export function contentStatusPermission(user: Member, item: Item, authoritative: boolean): Permission {
  if (adminOf(user, item, UPDATE_ITEMS)) return ALLOWED;
  if (authoritative) {
    return {
      allowed: false,
      missing: UPDATE_ITEMS,
      reason: `Only an administrator of the organization with ${describePrivilege(UPDATE_ITEMS)} can set or remove an authoritative status.`,
    };
  }
  return ownerOrAdmin(user, item, UPDATE_ITEMS, 'set the content status');
}

/** Change owner (the transfer wizard): the owner with "transfer own content", or an administrator of the item's organization. */
export function reassignItemPermission(user: Member, item: Pick<Item, 'owner' | 'orgId'>): Permission {
  if (adminOf(user, item, REASSIGN_ANY)) return ALLOWED;
  if (owns(user, item)) return requirePrivilege(user, REASSIGN_OWN, 'give this item to another member');
  return {
    allowed: false,
    missing: REASSIGN_ANY,
    reason: `To give this item to another member you need to own it, or be an administrator of its organization with ${describePrivilege(REASSIGN_ANY)}.`,
  };
}
