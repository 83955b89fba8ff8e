import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getItemStatus, getOwnedItem, getRelatedItems, getUserContent, searchGroups, searchItems, type RelationshipDirection } from '../../api/index.ts';
import { RELATIONSHIP_TYPES } from '../../../shared/relationships.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { contentSearchQuery, type ContentListState } from './schemas.ts';

/** One page of the content list. */
export const itemsQuery = (list: ContentListState, user: { username: string; orgId?: string }) =>
  // The key holds both fields of `user` the search reads.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: [...queryKeys.items, 'search', list, user.username, user.orgId],
    queryFn: ({ signal }) =>
      searchItems(
        { q: contentSearchQuery(list, user), start: list.start, num: list.num, sortField: list.sortField || undefined, sortOrder: list.sortOrder },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** A member's folders (the root listing carries them). */
export const foldersQuery = (username: string) =>
  queryOptions({
    queryKey: [...queryKeys.items, 'folders', username],
    queryFn: ({ signal }) => getUserContent(username, undefined, { num: 1 }, { signal }).then((c) => c.folders),
  });

/** The item through its owner's content path: with its sharing and info files. */
export const ownedItemQuery = (owner: string, itemId: string) =>
  queryOptions({
    queryKey: [...queryKeys.item(itemId), 'owned', owner],
    queryFn: ({ signal }) => getOwnedItem(owner, itemId, { signal }),
  });

const ALL_TYPES = RELATIONSHIP_TYPES.map((r) => r.name);

export const relatedItemsQuery = (itemId: string, direction: RelationshipDirection) =>
  queryOptions({
    queryKey: [...queryKeys.item(itemId), 'related', direction],
    queryFn: async ({ signal }) => {
      const all = await getRelatedItems(itemId, ALL_TYPES, direction, { signal });
      if (all.relatedItems.every((r) => r.relationshipTypes)) return all;
      // `relationshipTypes` on each item is a local extra: without it, ask type by type so every
      // row still names the relationship that links it (and can be removed).
      const perType = await Promise.all(
        ALL_TYPES.map(async (type) => ({ type, items: (await getRelatedItems(itemId, [type], direction, { signal })).relatedItems })),
      );
      const types = new Map<string, string[]>();
      for (const { type, items } of perType) for (const r of items) types.set(r.id, [...(types.get(r.id) ?? []), type]);
      return { ...all, relatedItems: all.relatedItems.map((r) => ({ ...r, relationshipTypes: types.get(r.id) })) };
    },
  });

/** An async addItem job: polled until it completes or fails. */
export const itemJobQuery = (username: string, itemId: string) =>
  // An item id names the item; its owner only builds the URL.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  queryOptions({
    queryKey: [...queryKeys.item(itemId), 'status'],
    queryFn: ({ signal }) => getItemStatus(username, itemId, { signal }),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'completed' || q.state.data.status === 'failed') ? false : 1500),
  });

/** The groups the member may see (first 100 by title), for the group filter and the sharing panel. */
export const groupChoicesQuery = (username: string) =>
  queryOptions({
    queryKey: [...queryKeys.groups, 'picker', username],
    queryFn: ({ signal }) => searchGroups({ q: '*', num: 100, sortField: 'title' }, { signal }),
  });
