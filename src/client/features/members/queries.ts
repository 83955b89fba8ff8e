import { queryOptions } from '@tanstack/react-query';
import { orgRolesQuery } from '../../api/queries/roles.ts';
import { memberListQuery } from '../../api/queries/users.ts';
import type { MemberListState } from './schemas.ts';

/** One page of the organization's members: the list's state as listing parameters. */
export const membersQuery = (orgId: string, list: MemberListState) =>
  memberListQuery(orgId, {
    start: list.start,
    num: list.num,
    sortField: list.sortField,
    sortOrder: list.sortOrder,
    q: list.q || undefined,
    role: list.role || undefined,
  });

/**
 * The organization's custom roles. Optional: when the portal refuses or lacks the operation the
 * console offers the base roles only, so this query does not retry.
 */
export const rolesQuery = (orgId: string) => queryOptions({ ...orgRolesQuery(orgId), retry: false, staleTime: 5 * 60_000 });
