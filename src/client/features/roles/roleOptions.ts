/** Roles to compare with or start from: the three base roles and the organization's custom roles. */
import { BASE_ROLE_PRIVILEGES, baseRoleForPrivileges } from '../../../shared/privileges.ts';
import type { RoleRecord } from '../../api/index.ts';
import { BASE_ROLE_LABELS, BASE_ROLES, baseRoleLabel } from '../../lib/roles.ts';

export interface RoleOption {
  /** A base role (org_user…) or a custom role id. */
  value: string;
  label: string;
  privileges: readonly string[];
  group: string;
}

export function roleOptions(customRoles: readonly RoleRecord[] | undefined): RoleOption[] {
  return [
    ...BASE_ROLES.map((r) => ({ value: r, label: BASE_ROLE_LABELS[r], privileges: BASE_ROLE_PRIVILEGES[r], group: 'Base roles' })),
    ...[...(customRoles ?? [])]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((r) => ({ value: r.id, label: r.name, privileges: r.privileges ?? [], group: 'Custom roles' })),
  ];
}

/** Mantine Select data, grouped. */
export function toSelectData(options: readonly RoleOption[]) {
  const groups = [...new Set(options.map((o) => o.group))];
  return groups.map((group) => ({ group, items: options.filter((o) => o.group === group).map((o) => ({ value: o.value, label: o.label })) }));
}

/** The base role a custom role's members count as, in words ("Publisher"). */
export function actsAs(privileges: readonly string[]): string {
  return baseRoleLabel(baseRoleForPrivileges(privileges));
}
