/**
 * The groups items are shared with, for the sharing and transfer impact checks: read for the few
 * items that need them (dependents shared with groups, the changed items), at most
 * MAX_GROUP_READS items, a few at a time. The public `content/items/<id>/groups` answers anyone who
 * can see the item (the groups they can see); where it is not offered, the owner's view of the
 * item (`content/users/<owner>/items/<id>`, owner and administrators) is tried. Unknown stays
 * unknown: the check then says it could not tell.
 */
import { useQuery } from '@tanstack/react-query';
import { getOwnedItem, request } from '../../api/index.ts';
import { itemKeys } from '../../api/queries/items.ts';

export const MAX_GROUP_READS = 50;
const CONCURRENCY = 4;

interface GroupRef {
  id: string;
  title?: string;
}
interface ItemGroupsAnswer {
  admin?: GroupRef[];
  member?: GroupRef[];
  other?: GroupRef[];
}

export interface SharingGroups {
  /** Item id → its group ids; an item missing here could not be read. */
  groups: Map<string, string[]>;
  /** Group id → title, where an answer named it. */
  titles: Map<string, string>;
}

async function groupsOf(item: { id: string; owner: string }, titles: Map<string, string>, signal: AbortSignal): Promise<string[] | undefined> {
  try {
    const a = await request<ItemGroupsAnswer>(`content/items/${encodeURIComponent(item.id)}/groups`, {}, { method: 'POST', signal });
    const all = [...(a.admin ?? []), ...(a.member ?? []), ...(a.other ?? [])];
    for (const g of all) if (g.title) titles.set(g.id, g.title);
    return all.map((g) => g.id);
  } catch {
    if (signal.aborted) throw signal.reason;
  }
  try {
    return (await getOwnedItem(item.owner, item.id, { signal })).sharing.groups;
  } catch {
    if (signal.aborted) throw signal.reason;
    return undefined;
  }
}

/** Reads the groups of `items` (the first MAX_GROUP_READS), CONCURRENCY at a time. */
export async function readSharingGroups(items: readonly { id: string; owner: string }[], signal: AbortSignal): Promise<SharingGroups> {
  const out: SharingGroups = { groups: new Map(), titles: new Map() };
  const queue = items.slice(0, MAX_GROUP_READS);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const ids = await groupsOf(next, out.titles, signal);
      if (ids) out.groups.set(next.id, ids);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

export function useSharingGroups(items: readonly { id: string; owner: string }[], enabled: boolean) {
  return useQuery({
    // By value: ids and owners (the owner's view is the fallback read).
    queryKey: itemKeys.sharingGroups(items),
    queryFn: ({ signal }) => readSharingGroups(items, signal),
    enabled: enabled && items.length > 0,
    staleTime: 30_000,
    retry: false,
  });
}
