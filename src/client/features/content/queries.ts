import { itemSearchQuery } from '../../api/queries/items.ts';
import { contentSearchQuery, type ContentListState } from './schemas.ts';

/** One page of the content list: the list's state and the member as search parameters. */
export const itemsQuery = (list: ContentListState, user: { username: string; orgId?: string }) =>
  itemSearchQuery({ q: contentSearchQuery(list, user), start: list.start, num: list.num, sortField: list.sortField || undefined, sortOrder: list.sortOrder });
