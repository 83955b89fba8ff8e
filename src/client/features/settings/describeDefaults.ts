/** How the new-member defaults read in words: the summary table and the before/after of "Clear all". */
import type { GroupRecord, RoleRecord, UserDefaultSettings } from '../../api/index.ts';
import { licenseLabel } from '../../lib/licenses.ts';
import { roleLabel } from '../../lib/roles.ts';
import { USER_TYPE_LABELS } from './schemas.ts';

export const NOT_SET = 'Not set';

/** Each default in words, for the summary and the before/after of "Clear all". */
export function describeDefaults(d: UserDefaultSettings, roles: readonly RoleRecord[], groups: readonly GroupRecord[]) {
  const groupTitle = (id: string) => groups.find((g) => g.id === id)?.title ?? id;
  return [
    {
      key: 'role',
      label: 'Role',
      value: d.role ? roleLabel(d.role.startsWith('org_') ? { role: d.role } : { role: 'org_user', roleId: d.role }, roles) : null,
    },
    { key: 'userLicenseType', label: 'User type', value: d.userLicenseType ? licenseLabel(d.userLicenseType) : null },
    { key: 'groups', label: 'Groups', value: d.groups.length ? d.groups.map(groupTitle) : null },
    { key: 'userType', label: 'Apps', value: d.userType ? USER_TYPE_LABELS[d.userType] : null },
  ] as const;
}

export type DefaultsRows = ReturnType<typeof describeDefaults> | readonly never[];
