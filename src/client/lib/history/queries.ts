/** The organization's history as pages read through `nextKey` (Activity and each object's History). */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { getHistory, isHistoryUnavailable, type HistoryQuery } from '../../api/index.ts';

export function historyPagesQuery(orgId: string, query: HistoryQuery, pageSize: number) {
  return infiniteQueryOptions({
    // Under ['history'], which the undo dialog refetches after it ran.
    queryKey: ['history', orgId, query, pageSize],
    queryFn: ({ pageParam, signal }) => getHistory(orgId, { ...query, num: pageSize, start: pageParam }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextKey,
    // A portal without the operation answers the same every time: no retries for that.
    retry: (count, err) => !isHistoryUnavailable(err) && count < 2,
  });
}
