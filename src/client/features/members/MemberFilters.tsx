/**
 * The Members page's filters: role, status, user type, last sign-in and creation dates. All but
 * the role are this portal's extras: on another portal they are disabled and say why.
 */
import { Select, Text, TextInput } from '@mantine/core';
import type { RoleRecord } from '../../api/index.ts';
import { LICENSE_SELECT_DATA } from '../../lib/licenses.ts';
import { roleLabel } from '../../lib/roles.ts';
import { useCurrentUser } from '../../lib/session.ts';
import { roleChoices } from './roleChoices.ts';
import type { MemberListState } from './schemas.ts';

export interface MemberFiltersProps {
  list: MemberListState;
  update: (patch: Partial<MemberListState>) => void;
  customRoles: readonly RoleRecord[] | undefined;
  /** Why the local filters are unavailable, or undefined when the portal offers them. */
  unavailable?: string;
}

const DATE_FIELDS = [
  ['lastLoginAfter', 'Signed in after'],
  ['lastLoginBefore', 'Not signed in since'],
  ['createdAfter', 'Added after'],
  ['createdBefore', 'Added before'],
] as const;

export function MemberFilters({ list, update, customRoles, unavailable }: MemberFiltersProps) {
  const user = useCurrentUser();
  const roleData = [
    { group: 'All', items: [{ value: '', label: 'All roles' }] },
    ...roleChoices(user, customRoles).map((g) => ({ group: g.group, items: g.items.map((i) => ({ value: i.value, label: i.label })) })),
  ];
  if (list.role && !roleData.some((g) => g.items.some((i) => i.value === list.role))) {
    roleData.push({
      group: 'Filter',
      items: [{ value: list.role, label: roleLabel({ role: list.role, roleId: list.role.startsWith('org_') ? undefined : list.role }) }],
    });
  }
  const local = !unavailable;
  return (
    <>
      <Select label="Role" data={roleData} value={list.role} onChange={(v) => update({ role: v ?? '' })} allowDeselect={false} w={180} />
      <Select
        label="Status"
        data={[
          { value: '', label: 'Any status' },
          { value: 'active', label: 'Active' },
          { value: 'disabled', label: 'Disabled' },
        ]}
        value={local ? list.status : ''}
        onChange={(v) => update({ status: v ?? '' })}
        allowDeselect={false}
        disabled={!local}
        w={140}
      />
      <Select
        label="User type"
        data={[{ value: '', label: 'Any user type' }, ...LICENSE_SELECT_DATA]}
        value={local ? list.userType : ''}
        onChange={(v) => update({ userType: v ?? '' })}
        allowDeselect={false}
        disabled={!local}
        w={200}
      />
      {DATE_FIELDS.map(([key, label]) => (
        <TextInput
          key={key}
          type="date"
          label={label}
          value={local ? list[key] : ''}
          onChange={(e) => update({ [key]: e.currentTarget.value })}
          disabled={!local}
          w={160}
        />
      ))}
      {unavailable ? (
        <Text size="xs" c="dimmed" w="100%">
          {unavailable}
        </Text>
      ) : null}
    </>
  );
}
