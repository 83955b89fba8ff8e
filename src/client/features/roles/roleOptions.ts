/** Roles to compare with or start from: the three base roles and the organization's custom roles. */
import { BASE_ROLE_PRIVILEGES, baseRoleForPrivileges } from '../../../shared/privileges.ts';
import type { RoleRecord } from '../../api/index.ts';
import { BASE_ROLE_LABELS, BASE_ROLES, baseRoleLabel, type BaseRole } from '../../lib/roles.ts';

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

/** The base roles are no rows of the portal's roles list: shown from the catalogue, read-only. */
const BASE_ROLE_DESCRIPTIONS: Record<BaseRole, string> = {
  org_admin: 'Every privilege, administrative ones included. Default administrators also manage roles.',
  org_publisher: 'User privileges plus publishing hosted layers and running analysis.',
  org_user: 'Create content, join and create groups, share and edit.',
};

export function baseRoleRecord(role: BaseRole): RoleRecord & { privileges: string[] } {
  return {
    id: role,
    name: BASE_ROLE_LABELS[role],
    description: BASE_ROLE_DESCRIPTIONS[role],
    created: 0,
    modified: 0,
    privileges: [...BASE_ROLE_PRIVILEGES[role]],
    builtIn: true,
  };
}

/** The default roles as rows of the roles page (read-only, like the built-in ones). */
export const BASE_ROLE_RECORDS = BASE_ROLES.map(baseRoleRecord);
