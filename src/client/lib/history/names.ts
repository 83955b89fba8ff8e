/**
 * Display names for the ids history events carry (roles, groups, items), read with what the
 * console may read anyway: the organization's roles list (orgRolesQuery, shared with every role
 * label), and group and item searches by id, a batch of ids per request (`id:a OR id:b`, as the
 * portal's search syntax allows). Each batch is a React Query query keyed by its sorted ids, so a
 * list that grows by "Load more" reuses the batches it already read. An id the caller cannot read
 * (deleted, not shared with them, another portal without search by id) keeps showing as the id.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { searchGroups, searchItems, type HistoryEvent } from '../../api/index.ts';
import { isBaseRole } from '../roles.ts';
import { orgRolesQuery } from '../../api/queries/roles.ts';
import { useCurrentUser } from '../session.ts';
import { operationOf, type Names } from './describe.ts';
import { itemKeys } from '../../api/queries/items.ts';
import { groupKeys } from '../../api/queries/groups.ts';

/** Ids per search request: well under the portal's query length and page size (100). */
const BATCH = 25;

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && !!x) : []);

export interface ReferencedIds {
  roles: string[];
  groups: string[];
  items: string[];
}

/** The role, group and item ids the events name (sharing targets like "Everyone" left out), untitled item targets included. */
export function referencedIds(events: readonly HistoryEvent[]): ReferencedIds {
  const roles = new Set<string>();
  const groups = new Set<string>();
  const items = new Set<string>();
  for (const e of events) {
    // An item event recorded without the item's title names it by id alone.
    if (e.idType === 'i' && !e.title && e.id) items.add(e.id);
    const sides = [fieldsOf(e.data?.before), fieldsOf(e.data?.after)];
    for (const side of sides) {
      for (const r of [side.roleId, side.role]) if (typeof r === 'string' && r && !isBaseRole(r)) roles.add(r);
      for (const g of strings(side.groups)) groups.add(g);
      for (const i of [side.destinationItemId, side.originItemId, side.replacedBy]) if (typeof i === 'string' && i) items.add(i);
    }
    // The items a reference swap names (pointed at a replacement): URLs are shown as they are.
    for (const s of Array.isArray(e.data?.replacedReferences) ? e.data.replacedReferences : [])
      for (const v of [fieldsOf(s).from, fieldsOf(s).to]) if (typeof v === 'string' && /^[0-9a-f]{32}$/i.test(v)) items.add(v);
    // The ids a share or unshare lists; a group's share event names the item by title already.
    if (operationOf(e) === 'shareItem' || operationOf(e) === 'unshareItem') for (const g of strings(e.data?.groups)) groups.add(g);
  }
  for (const special of ['Everyone', 'everyone', 'Organization', 'org']) groups.delete(special);
  return { roles: [...roles].sort(), groups: [...groups].sort(), items: [...items].sort() };
}

const batches = (ids: readonly string[]): string[][] => {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += BATCH) out.push(ids.slice(i, i + BATCH));
  return out;
};
/** Ids are hex on the portal; anything else is left out of the query text rather than escaped. */
const byIds = (ids: readonly string[]) =>
  ids
    .filter((id) => /^[A-Za-z0-9_-]+$/.test(id))
    .map((id) => `id:${id}`)
    .join(' OR ');

/** One search per batch of ids, each a query keyed by its batch (a grown list reuses what it read). */
function byIdQueries<R>(
  keyOf: (batch: readonly string[]) => readonly unknown[],
  ids: readonly string[],
  search: (p: { q: string; num: number }, o: { signal: AbortSignal }) => Promise<R>,
) {
  return batches(ids).map((batch) => ({
    queryKey: keyOf(batch),
    queryFn: ({ signal }: { signal: AbortSignal }) => search({ q: byIds(batch), num: batch.length }, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  }));
}

/** Names for the ids in `events`, filled in as the reads answer (ids until then, or for good). */
export function useHistoryNames(events: readonly HistoryEvent[] | undefined): Names {
  const user = useCurrentUser();
  const ids = useMemo(() => referencedIds(events ?? []), [events]);
  const roles = useQuery({ ...orgRolesQuery(user.orgId), enabled: ids.roles.length > 0, retry: false });
  const groups = useQueries({ queries: byIdQueries(groupKeys.names, ids.groups, searchGroups) });
  const items = useQueries({ queries: byIdQueries(itemKeys.names, ids.items, searchItems) });
  // Small maps (at most a page of roles and the batches read), built per render.
  const roleNames = new Map((roles.data?.roles ?? []).map((r) => [r.id, r.name]));
  const groupNames = new Map(groups.flatMap((q) => q.data?.results ?? []).map((g) => [g.id, g.title]));
  const itemNames = new Map(items.flatMap((q) => q.data?.results ?? []).map((i) => [i.id, i.title]));
  return { role: (id) => roleNames.get(id), group: (id) => groupNames.get(id), item: (id) => itemNames.get(id) };
}
