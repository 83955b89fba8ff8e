import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listMembers } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { orgRolesQuery } from '../../lib/roles.ts';
import type { MemberListState } from './schemas.ts';

/** One page of the organization's members (the previous page stays shown while the next loads). */
export const membersQuery = (orgId: string, list: MemberListState) =>
  queryOptions({
    queryKey: [...queryKeys.members(orgId), 'list', list],
    queryFn: ({ signal }) =>
      listMembers(
        orgId,
        {
          start: list.start,
          num: list.num,
          sortField: list.sortField,
          sortOrder: list.sortOrder,
          q: list.q || undefined,
          role: list.role || undefined,
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/**
 * The organization's custom roles. Optional: when the portal refuses or lacks the operation the
 * console offers the base roles only, so this query does not retry.
 */
export const rolesQuery = (orgId: string) => queryOptions({ ...orgRolesQuery(orgId), retry: false, staleTime: 5 * 60_000 });
