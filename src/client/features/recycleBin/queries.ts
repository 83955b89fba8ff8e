/** The recycle bin's reads: one page of recycled items, under the items key root (a delete or restore anywhere refreshes it). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { getRecycledItems } from '../../api/index.ts';
import { itemKeys } from '../../api/queries/items.ts';

const recycleBinKeys = {
  all: [...itemKeys.all, 'recycleBin'] as const,
  page: (start: number, num: number) => [...itemKeys.all, 'recycleBin', start, num] as const,
};

export const recycleBinQuery = (start: number, num: number) =>
  queryOptions({
    queryKey: recycleBinKeys.page(start, num),
    queryFn: ({ signal }) => getRecycledItems({ start, num }, { signal }),
    placeholderData: keepPreviousData,
  });

/** Days left before the purge, a started day counted whole (14 just after the delete, 1 on its last day). */
export const daysLeft = (expires: number, now: number) => Math.max(0, Math.ceil((expires - now) / 86_400_000));
