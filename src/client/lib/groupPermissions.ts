/**
 * Who may do what with a group: the service's own declarations (GROUP_OPERATIONS) decided as the
 * service decides them (canOn): its owner (and managers, where ArcGIS lets them act), else an
 * administrator of its organization whom the declaration admits. What a group's fields need (its
 * access, leaving disallowed) stays a field rule.
 */
import type { GroupRecord, PortalUser } from '../api/index.ts';
import type { OperationName } from '../../shared/contract/operations.ts';
import { canOn, declaredPrivilege } from './can.ts';
import { ALLOWED, describePrivilege, requirePrivilege, type Permission } from './privileges.ts';

type Member = Pick<PortalUser, 'role' | 'privileges' | 'orgId'> & { roleId?: string | null };
type Group = Pick<GroupRecord, 'orgId' | 'userMembership'> & { protected?: boolean };

export const membershipOf = (group: Pick<GroupRecord, 'userMembership'>) => group.userMembership?.memberType ?? 'none';
const isOwner = (group: Group) => membershipOf(group) === 'owner';
const isManager = (group: Group) => isOwner(group) || membershipOf(group) === 'admin';
/** The group's owner (or, with `managers`, one of its managers) or an administrator of its organization, as `operation` declares. */
function ownerManagerOrAdmin(user: Member, group: Group, operation: OperationName, action: string, managers = true): Permission {
  const owned = managers ? isManager(group) : isOwner(group);
  const notOwnerOrAdmin = `To ${action} you need to be the group's owner${managers ? ' or one of its managers' : ''}, or an administrator of its organization with ${describePrivilege(declaredPrivilege(operation))}.`;
  return canOn(user, operation, { orgId: group.orgId, owned }, { action, notOwnerOrAdmin });
}

export function createGroupPermission(user: Member): Permission {
  return requirePrivilege(user, 'portal:user:createGroup', 'create groups');
}

/** addUsers: the owner, a manager, or an administrator of the group's organization with portal:admin:assignToGroups. */
export function addUsersPermission(user: Member, group: Group): Permission {
  return ownerManagerOrAdmin(user, group, 'addGroupUsers', 'add users to this group');
}

export function removeMembersPermission(user: Member, group: Group): Permission {
  return ownerManagerOrAdmin(user, group, 'removeGroupUsers', 'remove members from this group');
}

export function editGroupPermission(user: Member, group: Group): Permission {
  return ownerManagerOrAdmin(user, group, 'updateGroup', 'edit this group');
}

/** updateUsers (make managers / members) and protect: the owner or an administrator. */
export function changeManagersPermission(user: Member, group: Group): Permission {
  return ownerManagerOrAdmin(user, group, 'updateGroupUsers', "change the group's managers", false);
}

export function protectGroupPermission(user: Member, group: Group): Permission {
  return ownerManagerOrAdmin(user, group, 'protectGroup', "change the group's protection", false);
}

export function deleteGroupPermission(user: Member, group: Group): Permission {
  const who = ownerManagerOrAdmin(user, group, 'deleteGroup', 'delete this group', false);
  if (!who.allowed) return who;
  if (group.protected) return { allowed: false, missing: 'unprotected group', reason: 'The group is protected from deletion: unprotect it first.' };
  return ALLOWED;
}

/**
 * Reassign Group: only an administrator of the group's organization with the declared privilege
 * (portal:admin:reassignGroups), as ArcGIS documents it; owning the group is not enough.
 */
export function changeOwnerPermission(user: Member, group: Group): Permission {
  const privilege = declaredPrivilege('reassignGroup');
  const notOwnerOrAdmin = `To change the group's owner you need to be an administrator of its organization with ${describePrivilege(privilege)}.`;
  return canOn(user, 'reassignGroup', { orgId: group.orgId, owned: isOwner(group) }, { action: "change the group's owner", notOwnerOrAdmin });
}

/** Who may see the group: private needs nothing; org and public need the sharing privileges. */
export function accessPermission(user: Member, access: GroupRecord['access']): Permission {
  if (access === 'org') return requirePrivilege(user, 'portal:user:shareGroupToOrg', 'make a group visible to the organization');
  if (access === 'public') return requirePrivilege(user, 'portal:user:shareGroupToPublic', 'make a group visible to everyone');
  return ALLOWED;
}

export function leavingDisallowedPermission(user: Member): Permission {
  return requirePrivilege(user, 'portal:admin:createLeavingDisallowedGroup', 'stop members from leaving a group');
}
