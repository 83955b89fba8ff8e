/**
 * A transfer's other direction: what the moved items USE that their new owner cannot see. A map
 * whose layer stays private with its old owner opens with a broken layer for the new owner — the
 * pre-check says so before the run ("share it or include it"). Pure, from the items' direct
 * 'uses' answers (the same dependency answers every check reads).
 */
import type { DependencyAnswer, DependencyNode } from '../../../shared/contract/dependencies.ts';

export interface NewOwner {
  username: string;
  /** Their privileges; undefined when they could not be read. */
  privileges?: readonly string[];
  /** Ids of their groups; undefined when they could not be read. */
  groupIds?: ReadonlySet<string>;
}

export interface UnseenUse {
  /** The moved item. */
  item: { id: string; title: string };
  /** The items it uses that the new owner cannot see. */
  unseen: DependencyNode[];
}

const lower = (s: string) => s.toLowerCase();

/** Whether `newOwner` may see `node` (canViewItem: public or organization, their own, a group of theirs, or viewItems). */
export function newOwnerSees(node: DependencyNode, newOwner: NewOwner, nodeGroups: ReadonlyMap<string, readonly string[]> | undefined): boolean {
  if (node.access === 'public' || node.access === 'org') return true;
  if (lower(node.owner) === lower(newOwner.username)) return true;
  if (newOwner.privileges?.includes('portal:admin:viewItems')) return true;
  if (node.access !== 'shared') return false;
  const groups = nodeGroups?.get(node.id);
  return !!groups && !!newOwner.groupIds && groups.some((g) => newOwner.groupIds!.has(g));
}

/** The items shared with groups whose groups decide whether the new owner sees them (read them before `unseenUses`). */
export function sharedUses(answers: readonly DependencyAnswer[], moved: readonly { id: string }[]): DependencyNode[] {
  const movedIds = new Set(moved.map((m) => lower(m.id)));
  const out = new Map<string, DependencyNode>();
  for (const a of answers) for (const n of a.items) if (n.access === 'shared' && !movedIds.has(lower(n.id))) out.set(n.id, n);
  return [...out.values()];
}

/** Per moved item, what it uses directly that the new owner cannot see; items moved in the same run travel together and are left out. */
export function unseenUses(
  answers: readonly DependencyAnswer[],
  moved: readonly { id: string; title: string }[],
  newOwner: NewOwner,
  nodeGroups: ReadonlyMap<string, readonly string[]> | undefined,
): UnseenUse[] {
  const movedIds = new Set(moved.map((m) => lower(m.id)));
  const rows: UnseenUse[] = [];
  for (const a of answers) {
    const item = moved.find((m) => lower(m.id) === lower(a.itemId));
    if (!item) continue;
    const direct = a.items.filter((n) => n.depth === 1 && !movedIds.has(lower(n.id)));
    const unseen = direct.filter((n) => !newOwnerSees(n, newOwner, nodeGroups));
    if (unseen.length) rows.push({ item, unseen });
  }
  return rows;
}
