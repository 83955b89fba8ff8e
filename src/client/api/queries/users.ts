/**
 * Users (`community/self`, `community/users`, `portals/<org>/users`): the one key factory and the
 * read options for the signed-in member, single users and the organization's member lists.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getUser, listMembers, type ListMembersParams } from '../users.ts';

export const userKeys = {
  /** The signed-in member's own record (`community/self`). */
  self: ['self'] as const,
  one: (username: string) => ['users', username] as const,
  /** Every member list of the organization: pages and pickers. */
  members: (orgId: string) => ['members', orgId] as const,
  memberList: (orgId: string, params: ListMembersParams) => ['members', orgId, 'list', params] as const,
  memberPicker: (orgId: string, q: string, num: number) => ['members', orgId, 'picker', q, num] as const,
  memberCount: (orgId: string, params: ListMembersParams) => ['members', orgId, 'count', params] as const,
};

export const userQuery = (username: string) =>
  queryOptions({
    queryKey: userKeys.one(username),
    queryFn: ({ signal }) => getUser(username, { signal }),
  });

/** One page of the organization's members (the previous page stays shown while the next loads). */
export const memberListQuery = (orgId: string, params: ListMembersParams) =>
  queryOptions({
    queryKey: userKeys.memberList(orgId, params),
    queryFn: ({ signal }) => listMembers(orgId, params, { signal }),
    placeholderData: keepPreviousData,
  });

/** Members whose name or username matches `q`, by full name (the member pickers). */
export const memberPickerQuery = (orgId: string, q: string, num: number) =>
  queryOptions({
    queryKey: userKeys.memberPicker(orgId, q, num),
    queryFn: ({ signal }) => listMembers(orgId, { q: q || undefined, num, sortField: 'fullname' }, { signal }),
    placeholderData: keepPreviousData,
  });

/**
 * How many members match `params`: the exact total of a list asked for no rows (`num=0`), the
 * cheapest question the portal answers (the Members page counts each user type this way).
 */
export const memberCountQuery = (orgId: string, params: ListMembersParams) =>
  queryOptions({
    queryKey: userKeys.memberCount(orgId, params),
    queryFn: ({ signal }) => listMembers(orgId, { ...params, start: 1, num: 0 }, { signal }).then((page) => page.total),
    staleTime: 30_000,
  });
