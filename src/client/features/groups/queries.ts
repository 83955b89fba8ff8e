import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getGroup, getGroupUserlist, searchGroups, searchItems, type GroupUserlistParams, type SearchItemsParams } from '../../api/index.ts';
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

/**
 * One page of the items shared with a group: the portal search `group:<id>` (the local portal does
 * not offer `content/groups/<id>/search`), which returns only what the member may see. Kept under
 * the items' keys, so sharing and unsharing refresh it.
 */
export const groupContentQuery = (groupId: string, params: Omit<SearchItemsParams, 'q'>) =>
  queryOptions({
    queryKey: [...queryKeys.items, 'group', groupId, params],
    queryFn: ({ signal }) => searchItems({ ...params, q: `group:${groupId}` }, { signal }),
    placeholderData: keepPreviousData,
  });
