import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getGroup, getGroupUserlist, searchGroups, type GroupUserlistParams } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { groupSearchQuery, type GroupListState } from './schemas.ts';

/** One page of the groups the member may see. */
export const groupsQuery = (list: GroupListState, username: string) =>
  queryOptions({
    queryKey: [...queryKeys.groups, 'search', list, username],
    queryFn: ({ signal }) =>
      searchGroups({ q: groupSearchQuery(list, username), start: list.start, num: list.num, sortField: list.sortField, sortOrder: list.sortOrder }, { signal }),
    placeholderData: keepPreviousData,
  });

export const groupQuery = (groupId: string) =>
  queryOptions({
    queryKey: queryKeys.group(groupId),
    queryFn: ({ signal }) => getGroup(groupId, { signal }),
  });

/** One page of a group's members (owner and managers included). */
export const groupUserlistQuery = (groupId: string, params: GroupUserlistParams) =>
  queryOptions({
    queryKey: [...queryKeys.group(groupId), 'userlist', params],
    queryFn: ({ signal }) => getGroupUserlist(groupId, params, { signal }),
    placeholderData: keepPreviousData,
  });
