/**
 * The titles of the items a page of scheduled tasks runs on, read in one search for the page
 * (`id:a OR id:b …`) under the same key history lists use for ids (itemKeys.names), so a title read
 * there is not asked again. An item the member cannot read stays out of the map.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { searchItems, type TaskRecord } from '../../api/index.ts';
import { itemKeys } from '../../api/queries/items.ts';

/** Item ids are hex on the portal; anything else is left out of the query text rather than escaped. */
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export function useItemTitles(tasks: readonly TaskRecord[] | undefined): Map<string, string> {
  const ids = useMemo(() => [...new Set((tasks ?? []).map((t) => t.itemId).filter((id): id is string => !!id && SAFE_ID.test(id)))].sort(), [tasks]);
  const titles = useQuery({
    queryKey: itemKeys.names(ids),
    queryFn: ({ signal }) => searchItems({ q: ids.map((id) => `id:${id}`).join(' OR '), num: ids.length }, { signal }),
    enabled: ids.length > 0,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return useMemo(() => new Map((titles.data?.results ?? []).map((i) => [i.id, i.title])), [titles.data]);
}
