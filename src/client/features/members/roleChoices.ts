/**
 * The roles a member can be given: the base roles, plus the organization's custom roles when they
 * could be read. A role the giver may not give, or the member's user type does not allow, is offered
 * disabled with the reason.
 */
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { BASE_ROLE_LABELS, BASE_ROLES } from '../../lib/roles.ts';
import { pairNote, pairRefusal } from './compatibility.ts';
import { assignRolePermission } from './permissions.ts';

export interface RoleChoice {
  value: string;
  label: string;
  disabled?: boolean;
  /** Why it is disabled, in full (the portal's own words). */
  reason?: string;
  /** The same, short enough to follow the label in a list. */
  note?: string;
}

export interface RoleChoiceGroup {
  group: string;
  items: RoleChoice[];
}

export function roleChoices(
  user: Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string },
  customRoles: readonly RoleRecord[] | undefined,
  /** The member's user type, when the role is for one member (or a new one): roles it does not allow are disabled. */
  userLicenseType?: string,
): RoleChoiceGroup[] {
  const choice = (value: string, label: string): RoleChoice => {
    const permission = assignRolePermission(user, value, customRoles);
    if (!permission.allowed) return { value, label, disabled: true, reason: permission.reason, note: permission.note };
    const refusal = pairRefusal(userLicenseType, value, customRoles);
    return refusal ? { value, label, disabled: true, reason: refusal, note: pairNote(userLicenseType!) } : { value, label };
  };
  const groups: RoleChoiceGroup[] = [{ group: 'Base roles', items: BASE_ROLES.map((role) => choice(role, BASE_ROLE_LABELS[role])) }];
  if (customRoles?.length) {
    groups.push({ group: 'Custom roles', items: [...customRoles].sort((a, b) => a.name.localeCompare(b.name)).map((r) => choice(r.id, r.name)) });
  }
  return groups;
}

/** Select data, with the short reason appended to disabled choices. */
export function toSelectData(groups: RoleChoiceGroup[]) {
  return groups.map((g) => ({
    group: g.group,
    items: g.items.map((i) => ({ value: i.value, label: i.disabled ? `${i.label} (${i.note ?? i.reason})` : i.label, disabled: i.disabled })),
  }));
}
