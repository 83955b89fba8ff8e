/** The organization's history (`portals/<org>/history`): the one key factory and the read options. */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { getHistory, isHistoryUnavailable, type HistoryQuery } from '../history.ts';

export const historyKeys = {
  /** Every history read: Activity and each object's History section. */
  all: ['history'] as const,
  pages: (orgId: string, query: HistoryQuery, pageSize: number) => ['history', orgId, query, pageSize] as const,
  /** Whether the chosen events can still be undone (read once per dialog, never kept). */
  undoCheck: (orgId: string, eventKeys: readonly string[]) => ['undo-check', orgId, eventKeys] as const,
};

/** The history as pages read through `nextKey`. */
export function historyPagesQuery(orgId: string, query: HistoryQuery, pageSize: number) {
  return infiniteQueryOptions({
    queryKey: historyKeys.pages(orgId, query, pageSize),
    queryFn: ({ pageParam, signal }) => getHistory(orgId, { ...query, num: pageSize, start: pageParam }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextKey,
    // A portal without the operation answers the same every time: no retries for that.
    retry: (count, err) => !isHistoryUnavailable(err) && count < 2,
  });
}
