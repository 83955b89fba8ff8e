/**
 * Items (`content/items`, `search`): the one key factory and the read options for every item read.
 * Every key starts with `items`, so invalidating `itemKeys.all` refreshes searches, single items,
 * related items, folders and pickers at once.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { RELATIONSHIP_TYPES } from '../../../shared/relationships.ts';
import {
  getItem,
  getItemStatus,
  getOwnedItem,
  getRelatedItems,
  getUserContent,
  searchItems,
  type Item,
  type RelationshipDirection,
  type SearchItemsParams,
} from '../items.ts';

export const itemKeys = {
  all: ['items'] as const,
  search: (params: SearchItemsParams) => ['items', 'search', params] as const,
  picker: (q: string) => ['items', 'picker', q] as const,
  /** A batch of ids looked up for their titles (history lists). */
  names: (ids: readonly string[]) => ['items', 'names', ids] as const,
  folders: (username: string) => ['items', 'folders', username] as const,
  ownedBy: (username: string) => ['items', 'owned-by', username] as const,
  sharedWith: (groupId: string, params: Omit<SearchItemsParams, 'q'>) => ['items', 'group', groupId, params] as const,
  detail: (itemId: string) => ['items', 'detail', itemId] as const,
  owned: (itemId: string, owner: string) => ['items', 'detail', itemId, 'owned', owner] as const,
  related: (itemId: string, direction: RelationshipDirection) => ['items', 'detail', itemId, 'related', direction] as const,
  status: (itemId: string) => ['items', 'detail', itemId, 'status'] as const,
  /** The groups each item is shared with, read for an impact check (not refreshed by item changes: a dialog reads it once). */
  sharingGroups: (items: readonly { id: string; owner: string }[]) => ['itemSharing', items] as const,
  /** An image, not item data: outside `items` so that item changes do not fetch it again. */
  thumbnail: (portalUrl: string, itemId: string, thumbnail: Item['thumbnail'], modified: number | undefined, width: number) =>
    ['itemThumbnail', portalUrl, itemId, thumbnail, modified, width] as const,
};

export const itemQuery = (itemId: string) =>
  queryOptions({
    queryKey: itemKeys.detail(itemId),
    queryFn: ({ signal }) => getItem(itemId, { signal }),
  });

/** One page of a search (the previous page stays shown while the next loads). */
export const itemSearchQuery = (params: SearchItemsParams) =>
  queryOptions({
    queryKey: itemKeys.search(params),
    queryFn: ({ signal }) => searchItems(params, { signal }),
    placeholderData: keepPreviousData,
  });

/** One search per text (an id search is `id:<id>`): the same key for the list and the id lookup, so each is asked once. */
export const itemPickerQuery = (q: string) =>
  queryOptions({
    queryKey: itemKeys.picker(q),
    queryFn: ({ signal }) => searchItems({ q, num: 20, sortField: 'title', sortOrder: 'asc' }, { signal }),
  });

/** A member's folders (the root listing carries them). */
export const foldersQuery = (username: string) =>
  queryOptions({
    queryKey: itemKeys.folders(username),
    queryFn: ({ signal }) => getUserContent(username, undefined, { num: 1 }, { signal }).then((c) => c.folders),
  });

/** The item through its owner's content path: with its sharing and info files. */
export const ownedItemQuery = (owner: string, itemId: string) =>
  queryOptions({
    queryKey: itemKeys.owned(itemId, owner),
    queryFn: ({ signal }) => getOwnedItem(owner, itemId, { signal }),
  });

const ALL_TYPES = RELATIONSHIP_TYPES.map((r) => r.name);

export const relatedItemsQuery = (itemId: string, direction: RelationshipDirection) =>
  queryOptions({
    queryKey: itemKeys.related(itemId, direction),
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
    queryKey: itemKeys.status(itemId),
    queryFn: ({ signal }) => getItemStatus(username, itemId, { signal }),
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'completed' || q.state.data.status === 'failed') ? false : 1500),
  });

/**
 * One page of the items shared with a group: the portal search `group:<id>` (the local portal does
 * not offer `content/groups/<id>/search`), which returns only what the member may see. Kept under
 * the items' keys, so sharing and unsharing refresh it.
 */
export const groupContentQuery = (groupId: string, params: Omit<SearchItemsParams, 'q'>) =>
  queryOptions({
    queryKey: itemKeys.sharedWith(groupId, params),
    queryFn: ({ signal }) => searchItems({ ...params, q: `group:${groupId}` }, { signal }),
    placeholderData: keepPreviousData,
  });

/** Enough for any member's content in one wizard; a member with more is transferred in several runs. */
export const MAX_OWNED_ITEMS = 5000;

/** Every item a member owns (search `owner:`), read 100 at a time. */
export const ownedItemsQuery = (username: string) =>
  queryOptions({
    queryKey: itemKeys.ownedBy(username),
    queryFn: async ({ signal }) => {
      const items: Item[] = [];
      let start = 1;
      let total = 0;
      let totalEstimated = false;
      do {
        const page = await searchItems({ q: `owner:${username}`, start, num: 100, sortField: 'title' }, { signal });
        items.push(...page.results);
        total = page.total;
        totalEstimated = !!page.totalEstimated;
        start = page.nextStart;
      } while (start > 0 && items.length < MAX_OWNED_ITEMS);
      return { items, total, totalEstimated };
    },
    enabled: !!username,
  });
