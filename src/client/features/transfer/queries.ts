import { queryOptions } from '@tanstack/react-query';
import { searchItems, type Item } from '../../api/index.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

/** Enough for any member's content in one wizard; a member with more is transferred in several runs. */
export const MAX_ITEMS = 5000;

/** Every item a member owns (search `owner:`), read 100 at a time. */
export const ownedItemsQuery = (username: string) =>
  queryOptions({
    queryKey: [...queryKeys.items, 'owned-by', username],
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
      } while (start > 0 && items.length < MAX_ITEMS);
      return { items, total, totalEstimated };
    },
    enabled: !!username,
  });
