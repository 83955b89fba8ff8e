/**
 * Groups (`community/groups`): the one key factory and the read options for every group read.
 * Every key starts with `groups`; a single group's reads (its record, member lists) sit under
 * `groupKeys.detail(id)`.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getGroup, getGroupUserlist, getGroupUsers, searchGroups, type GroupUserlistParams, type SearchGroupsParams } from '../groups.ts';

export const groupKeys = {
  all: ['groups'] as const,
  search: (params: SearchGroupsParams) => ['groups', 'search', params] as const,
  /** The groups a member may pick from (the first 100 by title). */
  choices: (username: string) => ['groups', 'picker', username] as const,
  org: (orgId: string) => ['groups', 'org', orgId] as const,
  /** A batch of ids looked up for their titles (history lists). */
  names: (ids: readonly string[]) => ['groups', 'names', ids] as const,
  detail: (groupId: string) => ['groups', 'detail', groupId] as const,
  userlist: (groupId: string, params: GroupUserlistParams) => ['groups', 'detail', groupId, 'userlist', params] as const,
  users: (groupId: string) => ['groups', 'detail', groupId, 'users'] as const,
};

/** One page of a group search (the previous page stays shown while the next loads). */
export const groupSearchQuery = (params: SearchGroupsParams) =>
  queryOptions({
    queryKey: groupKeys.search(params),
    queryFn: ({ signal }) => searchGroups(params, { signal }),
    placeholderData: keepPreviousData,
  });

export const groupQuery = (groupId: string) =>
  queryOptions({
    queryKey: groupKeys.detail(groupId),
    queryFn: ({ signal }) => getGroup(groupId, { signal }),
  });

/** One page of a group's members (owner and managers included). */
export const groupUserlistQuery = (groupId: string, params: GroupUserlistParams) =>
  queryOptions({
    queryKey: groupKeys.userlist(groupId, params),
    queryFn: ({ signal }) => getGroupUserlist(groupId, params, { signal }),
    placeholderData: keepPreviousData,
  });

/** The group's owner, managers and members by name (`community/groups/<id>/users`). */
export const groupUsersQuery = (groupId: string) =>
  queryOptions({
    queryKey: groupKeys.users(groupId),
    queryFn: ({ signal }) => getGroupUsers(groupId, { signal }),
  });

/** The groups the member may see (first 100 by title), for the group filter and the sharing panel. */
export const groupChoicesQuery = (username: string) =>
  queryOptions({
    queryKey: groupKeys.choices(username),
    queryFn: ({ signal }) => searchGroups({ q: '*', num: 100, sortField: 'title' }, { signal }),
  });

/** The organization's groups, by title (the first 100): default groups of new members, collaboration pickers. */
export const orgGroupsQuery = (orgId: string) =>
  queryOptions({
    queryKey: groupKeys.org(orgId),
    queryFn: ({ signal }) => searchGroups({ q: `orgid:${orgId}`, num: 100, sortField: 'title', sortOrder: 'asc' }, { signal }),
  });
