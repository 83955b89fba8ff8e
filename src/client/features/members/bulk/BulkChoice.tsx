/** What a bulk action sets, where it sets something: the role, the user type, or the groups to join. */
import { MultiSelect, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RoleRecord } from '../../../api/index.ts';
import { orgGroupsQuery } from '../../../api/queries/groups.ts';
import { LICENSE_SELECT_DATA } from '../../../lib/licenses.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { groupsToAddTo } from '../permissions.ts';
import { roleChoices, toSelectData } from '../roleChoices.ts';
import type { BulkAction, BulkKind } from './plan.ts';

export interface BulkChoiceProps {
  kind: BulkKind;
  action: BulkAction | null;
  onChange: (action: BulkAction | null) => void;
  customRoles: readonly RoleRecord[] | undefined;
  rolesNote?: string;
}

export function BulkChoice({ kind, action, onChange, customRoles, rolesNote }: BulkChoiceProps) {
  const user = useCurrentUser();
  const groups = useQuery({ ...orgGroupsQuery(user.orgId), enabled: kind === 'groups' });
  if (kind === 'role')
    return (
      <>
        <Select
          label="New role"
          placeholder="Pick the role to give"
          description="Members whose user type does not allow it are skipped, and the preview says so."
          data={toSelectData(roleChoices(user, customRoles))}
          value={action?.kind === 'role' ? action.role : null}
          onChange={(role) => onChange(role ? { kind: 'role', role } : null)}
          allowDeselect={false}
          searchable
          data-autofocus
        />
        {rolesNote ? (
          <Text size="xs" c="dimmed">
            {rolesNote}
          </Text>
        ) : null}
      </>
    );
  if (kind === 'userType')
    return (
      <Select
        label="New user type"
        placeholder="Pick the user type"
        description="Members whose role the user type does not allow are skipped, and the preview says so."
        data={LICENSE_SELECT_DATA}
        value={action?.kind === 'userType' ? action.userLicenseType : null}
        onChange={(t) => onChange(t ? { kind: 'userType', userLicenseType: t } : null)}
        allowDeselect={false}
        data-autofocus
      />
    );
  if (kind === 'groups') {
    // Only the groups the member may add to: all of them with assignToGroups, else their own and those they manage.
    const data = groupsToAddTo(user, groups.data?.results ?? []).map((g) => ({ value: g.id, label: g.title }));
    const titleOf = (id: string) => data.find((d) => d.value === id)?.label ?? id;
    return (
      <MultiSelect
        label="Groups to join"
        placeholder={groups.isPending ? 'Loading groups…' : 'Pick one or more groups'}
        description="Members join as members (not managers); those already in a group stay as they are."
        data={data}
        value={action?.kind === 'groups' ? action.groupIds : []}
        onChange={(ids) => onChange(ids.length ? { kind: 'groups', groupIds: ids, groupTitles: ids.map(titleOf) } : null)}
        error={groups.isError ? 'The groups could not be read.' : undefined}
        searchable
        data-autofocus
      />
    );
  }
  return null;
}
