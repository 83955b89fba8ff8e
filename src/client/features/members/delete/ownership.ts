/**
 * What a member owns, read before they are deleted: items (with how many items use each), groups,
 * folders, scheduled tasks and webhooks. Each kind is its own request, so one that fails (or that a
 * portal does not offer) says so without hiding the others. Items and groups block the delete (the
 * portal refuses it, as ArcGIS does); folders and scheduled tasks go with the account; webhooks stay.
 */
import { useQueries } from '@tanstack/react-query';
import { getDependencySummary, getUserContent, listOrgTasks, listWebhooks, searchGroups, searchItems, type PortalUser } from '../../../api/index.ts';

/** Rows read for each kind: the counts are exact; past this the list says how many more. */
const OWNED_SHOWN = 100;

interface OwnedEntry {
  id: string;
  title: string;
  /** Items: how many items use it. */
  dependents?: number;
  /** Where it opens in the console. */
  to?: string;
}

export interface OwnedKind {
  key: 'items' | 'groups' | 'folders' | 'tasks' | 'webhooks';
  label: string;
  /** What happens to them when the member goes. */
  fate: string;
  blocks: boolean;
  entries?: OwnedEntry[];
  total?: number;
  error?: unknown;
  pending: boolean;
}

const quoted = (u: string) => `"${u.replace(/"/g, '')}"`;

/** Everything read of what `username` owns, made stale together once something of it is given away. */
export const ownershipKey = (orgId: string, username: string) => ['memberOwnership', orgId, username] as const;

/** The groups `username` owns (the preview's Groups card and the group rows of the transfer plan). */
export const ownedGroupsQuery = (orgId: string, username: string) => ({
  queryKey: [...ownershipKey(orgId, username), 'groups'],
  queryFn: () => searchGroups({ q: `owner:${quoted(username)}`, num: OWNED_SHOWN, sortField: 'title' }),
});

export function useOwnership(orgId: string, member: Pick<PortalUser, 'username' | 'id'>): OwnedKind[] {
  const u = member.username;
  const [items, dependents, groups, folders, tasks, webhooks] = useQueries({
    queries: [
      { queryKey: ['memberOwnership', orgId, u, 'items'], queryFn: () => searchItems({ q: `owner:${quoted(u)}`, num: OWNED_SHOWN, sortField: 'title' }) },
      {
        queryKey: ['memberOwnership', orgId, u, 'dependents'],
        queryFn: () => getDependencySummary(orgId, { view: 'usedByMany', owners: [u], minDependents: 1, num: OWNED_SHOWN }),
      },
      ownedGroupsQuery(orgId, u),
      { queryKey: ['memberOwnership', orgId, u, 'folders'], queryFn: () => getUserContent(u, undefined, { num: 1 }) },
      { queryKey: ['memberOwnership', orgId, u, 'tasks'], queryFn: () => listOrgTasks(orgId, { userFilter: u, num: OWNED_SHOWN }) },
      { queryKey: ['memberOwnership', orgId, u, 'webhooks'], queryFn: () => listWebhooks(orgId, { num: OWNED_SHOWN }) },
    ],
  });
  const uses = new Map((dependents.data?.results ?? []).map((r) => [r.id, r.dependents]));
  const ownWebhooks = webhooks.data?.webhooks.filter((w) => w.ownerId === member.id);
  return [
    {
      key: 'items',
      label: 'Items',
      fate: 'The portal deletes no member who owns items: transfer or delete them first.',
      blocks: true,
      pending: items.isPending,
      error: items.error ?? undefined,
      total: items.data?.total,
      // A failed dependents read leaves the counts out rather than saying 0.
      entries: items.data?.results.map((i) => ({
        id: i.id,
        title: i.title,
        dependents: dependents.isSuccess ? (uses.get(i.id) ?? 0) : undefined,
        to: `/content/items/${i.id}`,
      })),
    },
    {
      key: 'groups',
      label: 'Groups',
      fate: 'The portal deletes no member who owns groups: give each to another member above, or delete it from its page.',
      blocks: true,
      pending: groups.isPending,
      error: groups.error ?? undefined,
      total: groups.data?.total,
      entries: groups.data?.results.map((g) => ({ id: g.id, title: g.title, to: `/groups/${g.id}` })),
    },
    {
      key: 'folders',
      label: 'Folders',
      fate: 'Go with the account once their items are transferred or deleted.',
      blocks: false,
      pending: folders.isPending,
      error: folders.error ?? undefined,
      total: folders.data?.folders.length,
      entries: folders.data?.folders.map((f) => ({ id: f.id, title: f.title })),
    },
    {
      key: 'tasks',
      label: 'Scheduled tasks',
      fate: 'Go with the account.',
      blocks: false,
      pending: tasks.isPending,
      error: tasks.error ?? undefined,
      total: tasks.data?.total,
      entries: tasks.data?.tasks.map((t) => ({ id: t.id, title: t.title })),
    },
    {
      key: 'webhooks',
      label: 'Webhooks',
      fate: 'Stay and keep delivering after the account goes: delete them on the Webhooks page if they should not.',
      blocks: false,
      pending: webhooks.isPending,
      error: webhooks.error ?? undefined,
      total: ownWebhooks?.length,
      entries: ownWebhooks?.map((w) => ({ id: w.id, title: w.name, to: `/webhooks/${w.id}` })),
    },
  ];
}
