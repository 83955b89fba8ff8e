import { groupSearchQuery } from '../../api/queries/groups.ts';
import { groupSearchQuery as groupSearchText, type GroupListState } from './schemas.ts';

/** One page of the groups the member may see: the list's state as search parameters. */
export const groupsQuery = (list: GroupListState, username: string) =>
  groupSearchQuery({ q: groupSearchText(list, username), start: list.start, num: list.num, sortField: list.sortField, sortOrder: list.sortOrder });
