/** Roles (`portals/<org>/roles`): the one key factory and the read options for every role read. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getRole, getRolePrivileges, listRoles } from '../roles.ts';
import type { PagingParams } from '../types.ts';

export const roleKeys = {
  all: (orgId: string) => ['roles', orgId] as const,
  list: (orgId: string) => ['roles', orgId, 'list'] as const,
  page: (orgId: string, params: PagingParams) => ['roles', orgId, 'page', params] as const,
  detail: (orgId: string, roleId: string) => ['roles', orgId, 'detail', roleId] as const,
};

/**
 * The organization's roles with their privileges (the first 100; the portal lists custom roles
 * only). Shared by every place that names or offers roles, so they read one cached list.
 */
export const orgRolesQuery = (orgId: string) =>
  queryOptions({
    queryKey: roleKeys.list(orgId),
    queryFn: ({ signal }) => listRoles(orgId, { num: 100 }, { signal }),
  });

/** One page of the organization's roles, with privileges and member counts. */
export const rolesPageQuery = (orgId: string, params: PagingParams) =>
  queryOptions({
    queryKey: roleKeys.page(orgId, params),
    queryFn: ({ signal }) => listRoles(orgId, params, { signal }),
    placeholderData: keepPreviousData,
  });

/** One role and its privileges. */
export const roleQuery = (orgId: string, roleId: string) =>
  queryOptions({
    queryKey: roleKeys.detail(orgId, roleId),
    queryFn: async ({ signal }) => {
      const [role, { privileges }] = await Promise.all([getRole(orgId, roleId, { signal }), getRolePrivileges(orgId, roleId, { signal })]);
      return { ...role, privileges };
    },
  });
