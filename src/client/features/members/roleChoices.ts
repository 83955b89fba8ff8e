/** The roles a member can be given: the base roles, plus the organization's custom roles when they could be read. */
import type { PortalUser, RoleRecord } from '../../api/index.ts';
import { BASE_ROLE_LABELS, BASE_ROLES } from '../../lib/roles.ts';
import { assignRolePermission } from './permissions.ts';

export interface RoleChoice {
  value: string;
  label: string;
  disabled?: boolean;
  reason?: string;
}

export interface RoleChoiceGroup {
  group: string;
  items: RoleChoice[];
}

export function roleChoices(user: Pick<PortalUser, 'role' | 'privileges'> & { roleId?: string }, customRoles: readonly RoleRecord[] | undefined): RoleChoiceGroup[] {
  const base: RoleChoice[] = BASE_ROLES.map((role) => {
    const permission = assignRolePermission(user, role);
    return {
      value: role,
      label: BASE_ROLE_LABELS[role],
      ...(permission.allowed ? {} : { disabled: true, reason: permission.reason }),
    };
  });
  const groups: RoleChoiceGroup[] = [{ group: 'Base roles', items: base }];
  if (customRoles?.length) {
    groups.push({ group: 'Custom roles', items: [...customRoles].sort((a, b) => a.name.localeCompare(b.name)).map((r) => ({ value: r.id, label: r.name })) });
  }
  return groups;
}

/** Select data, with the reason appended to disabled choices. */
export function toSelectData(groups: RoleChoiceGroup[]) {
  return groups.map((g) => ({
    group: g.group,
    items: g.items.map((i) => ({ value: i.value, label: i.disabled ? `${i.label} (default administrators only)` : i.label, disabled: i.disabled })),
  }));
}
