/**
 * What travels with the items besides their content: the relationships among the copied items, the
 * groups they are shared with (matched in the target by a `source-<group id>` tag, or created there),
 * and their access level (org or public), narrowed to what the target member may share to.
 */
import type { Item } from '../../api/index.ts';
import { mapLimited, PLAN_CONCURRENCY } from './limited.ts';
import type { PortalConnection } from './portal.ts';
import { findGroupCopy, forwardRelationships, groupsOfItem, whyNotShareableTo, type GroupRights, type GroupSummary, type SharingRights } from './sharing.ts';

export type ShareLevel = 'private' | 'org' | 'public';

export interface AccessPlan {
  /** The source item's access. */
  source: Item['access'];
  /** What the copy is shared to. */
  copied: ShareLevel;
  /** Why it is narrower than the source's, when it is. */
  narrowed?: string;
}

export interface RelationshipPlan {
  type: string;
  /** Source id of the destination item (copied by the same plan). */
  destinationId: string;
  destinationTitle: string;
}

export interface GroupPlan {
  source: GroupSummary;
  /** use: the copy already in the target; create: a new group there; skip: not shared to in the target. */
  action: 'use' | 'create' | 'skip';
  existing?: GroupSummary;
  /** Why the copies cannot be shared to the group already there (a skip the person did not choose). */
  reason?: string;
  /** The access a created group gets. */
  access: GroupSummary['access'];
}

/** The access a copy gets: org and public carried when the target member may share to them. */
export function accessFor(source: Item['access'], rights: SharingRights): AccessPlan {
  if (source === 'public') {
    if (rights.public) return { source, copied: 'public' };
    return rights.org
      ? { source, copied: 'org', narrowed: 'The target does not allow this member to share with everyone: shared with the organization.' }
      : { source, copied: 'private', narrowed: 'The target does not allow this member to share with everyone or the organization.' };
  }
  if (source === 'org')
    return rights.org ? { source, copied: 'org' } : { source, copied: 'private', narrowed: 'The target does not allow sharing with the organization.' };
  return { source, copied: 'private' };
}

/** A created group's access: the source group's, narrowed as items are. */
function groupAccessFor(g: GroupSummary, rights: SharingRights): GroupSummary['access'] {
  if (g.access === 'public' && !rights.public) return rights.org ? 'org' : 'private';
  return g.access;
}

/** The relationships of `item` whose destination is also copied. */
export async function relationshipsAmong(source: PortalConnection, item: Item, copied: ReadonlyMap<string, Item>): Promise<RelationshipPlan[]> {
  const rels = await forwardRelationships(source, item);
  return rels
    .filter((r) => copied.has(r.destinationId))
    .map((r) => ({ type: r.type, destinationId: copied.get(r.destinationId)!.id, destinationTitle: copied.get(r.destinationId)!.title }));
}

/**
 * The groups each item is shared with (source group ids, by item id), and the plan for each group:
 * its copy in the target, or a new group; a copy there the target member may not share to is
 * skipped with the reason, and the rest of the copy goes on without it. Only items shared with groups are asked for them.
 */
export async function planGroups(
  source: PortalConnection,
  target: PortalConnection,
  items: readonly Item[],
  rights: SharingRights & GroupRights,
): Promise<{ groupsOf: Map<string, string[]>; groups: GroupPlan[] }> {
  const groupsOf = new Map<string, string[]>();
  const seen = new Map<string, GroupSummary>();
  const shared = items.filter((i) => i.access !== 'private');
  const answers = await mapLimited(shared, PLAN_CONCURRENCY, (item) => groupsOfItem(source, item.id));
  shared.forEach((item, i) => {
    groupsOf.set(
      item.id,
      answers[i].map((g) => g.id),
    );
    for (const g of answers[i]) seen.set(g.id, g);
  });
  const groups = await mapLimited([...seen.values()], PLAN_CONCURRENCY, async (g): Promise<GroupPlan> => {
    const existing = await findGroupCopy(target, g.id);
    const access = groupAccessFor(g, rights);
    if (!existing) return { source: g, action: 'create', access };
    const reason = whyNotShareableTo(existing, rights);
    return reason ? { source: g, action: 'skip', existing, access, reason } : { source: g, action: 'use', existing, access };
  });
  return { groupsOf, groups };
}
