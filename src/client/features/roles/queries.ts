import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getRole, getRolePrivileges, listRoles } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import type { RoleListState } from './schemas.ts';

/** One page of the organization's roles, with privileges and member counts. */
export const rolesPageQuery = (orgId: string, list: RoleListState) =>
  queryOptions({
    queryKey: [...queryKeys.roles(orgId), 'page', list],
    queryFn: ({ signal }) => listRoles(orgId, { start: list.start, num: list.num }, { signal }),
    placeholderData: keepPreviousData,
  });

/** One role and its privileges. */
export const roleQuery = (orgId: string, roleId: string) =>
  queryOptions({
    queryKey: [...queryKeys.roles(orgId), 'detail', roleId],
    queryFn: async ({ signal }) => {
      const [role, { privileges }] = await Promise.all([getRole(orgId, roleId, { signal }), getRolePrivileges(orgId, roleId, { signal })]);
      return { ...role, privileges };
    },
  });
