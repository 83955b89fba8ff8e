/**
 * What a bulk action on members would do to each one, before anything is sent: the change, or why
 * the member is skipped (already so, not allowed for the one acting, or a role and user type that
 * do not go together — src/shared/userTypes.ts, the rule the portal applies too).
 */
import type { PortalUser, RoleRecord } from '../../../api/index.ts';
import { userLicenseTypeLabel } from '../../../../shared/userTypes.ts';
import type { Permission } from '../../../lib/privileges.ts';
import { isBaseRole, roleLabel } from '../../../lib/roles.ts';
import { pairRefusal } from '../compatibility.ts';
import { changeRoleOfPermission, deleteMemberPermission, disableMemberPermission } from '../permissions.ts';

export type BulkAction =
  | { kind: 'role'; role: string }
  | { kind: 'userType'; userLicenseType: string }
  | { kind: 'disable' }
  | { kind: 'enable' }
  | { kind: 'groups'; groupIds: string[]; groupTitles: string[] }
  | { kind: 'delete' };
export type BulkKind = BulkAction['kind'];

export const BULK_TITLES: Record<BulkKind, string> = {
  role: 'Change role',
  userType: 'Change user type',
  disable: 'Disable',
  enable: 'Enable',
  groups: 'Add to groups',
  delete: 'Delete',
};

export interface PlanRow {
  member: PortalUser;
  /** What changes for this member ("User → Publisher"). */
  change: string;
  /** Why this member is left out, or undefined when the action is sent for them. */
  skip?: string;
}

type Actor = Parameters<typeof changeRoleOfPermission>[0];

const roleText = (role: string, customRoles: readonly RoleRecord[] | undefined) =>
  roleLabel(isBaseRole(role) ? { role } : { role: 'org_user', roleId: role }, customRoles ?? []);

/** Why a new role cannot go with the member's user type, as a result the member reads on its own. */
function notCompatible(userLicenseType: string, refusal: string): string {
  return `Not compatible with the ${userLicenseTypeLabel(userLicenseType)} user type. ${refusal}`;
}

function planOne(action: BulkAction, m: PortalUser, user: Actor, customRoles: readonly RoleRecord[] | undefined): PlanRow {
  const refused = (p: Permission) => (p.allowed ? undefined : p.reason);
  const current = m.roleId ?? m.role;
  switch (action.kind) {
    case 'role': {
      const change = `${roleLabel(m, customRoles ?? [])} → ${roleText(action.role, customRoles)}`;
      if (current === action.role) return { member: m, change, skip: 'Already has this role.' };
      const refusal = pairRefusal(m.userLicenseTypeId, action.role, customRoles);
      return { member: m, change, skip: refused(changeRoleOfPermission(user, m)) ?? (refusal ? notCompatible(m.userLicenseTypeId, refusal) : undefined) };
    }
    case 'userType': {
      const change = `${userLicenseTypeLabel(m.userLicenseTypeId)} → ${userLicenseTypeLabel(action.userLicenseType)}`;
      if (m.userLicenseTypeId === action.userLicenseType) return { member: m, change, skip: 'Already has this user type.' };
      const refusal = pairRefusal(action.userLicenseType, current, customRoles);
      return { member: m, change, skip: refusal ? notCompatible(action.userLicenseType, refusal) : undefined };
    }
    case 'disable':
    case 'enable': {
      const disable = action.kind === 'disable';
      const change = disable ? 'Active → Disabled' : 'Disabled → Active';
      if (!!m.disabled === disable) return { member: m, change, skip: disable ? 'Already disabled.' : 'Already active.' };
      return { member: m, change, skip: refused(disableMemberPermission(user, m)) };
    }
    case 'groups':
      return { member: m, change: `Joins ${action.groupTitles.join(', ')}` };
    case 'delete':
      return { member: m, change: 'Account deleted', skip: refused(deleteMemberPermission(user, m)) };
  }
}

export function planBulk(action: BulkAction, members: readonly PortalUser[], user: Actor, customRoles: readonly RoleRecord[] | undefined): PlanRow[] {
  return members.map((m) => planOne(action, m, user, customRoles));
}
