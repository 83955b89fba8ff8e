import { queryOptions } from '@tanstack/react-query';
import type { ListMembersParams } from '../../api/index.ts';
import { orgRolesQuery } from '../../api/queries/roles.ts';
import { memberListQuery } from '../../api/queries/users.ts';

/** One page of the organization's members: the list's filters and sort, and the page. */
export const membersQuery = (orgId: string, filters: Omit<ListMembersParams, 'start' | 'num'>, start: number, num: number) =>
  memberListQuery(orgId, { ...filters, start, num });

/**
 * The organization's custom roles. Optional: when the portal refuses or lacks the operation the
 * console offers the base roles only, so this query does not retry.
 */
export const rolesQuery = (orgId: string) => queryOptions({ ...orgRolesQuery(orgId), retry: false, staleTime: 5 * 60_000 });
