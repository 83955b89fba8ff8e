/**
 * Who sees a dependent (a map, an app) but not the item it uses: the people who will see a broken
 * layer when the item's sharing is narrower than the dependent's. Pure, so the confirm steps of a
 * sharing change and of a transfer (whose new owner may not keep the sharing) say the same thing.
 *
 * Audiences nest: public ⊃ organization ⊃ groups. An item's owner and the organization's
 * administrators always see it, so they are never a gap.
 */
import { accessOwnerMayGive } from '../../../shared/contract/reassign.ts';
import type { ItemAccessLevel } from '../../lib/itemAccess.ts';

export interface Audience {
  access: ItemAccessLevel;
  /** Group ids the item is shared with; undefined when they could not be read. */
  groups?: readonly string[];
  /** The owner's username, when known. */
  owner?: string;
}

export type AudienceGap =
  /** Everyone, signed in or not, outside the organization too. */
  | { kind: 'public' }
  /** Members of the organization. */
  | { kind: 'org' }
  /** Members of one of the dependent's groups the item is not shared with. */
  | { kind: 'group'; groupId: string }
  /** The dependent is shared with groups, but which could not be read. */
  | { kind: 'groupsUnknown' }
  /** The dependent's owner, who is not the item's owner (unless a group of the item holds them). */
  | { kind: 'owner'; username: string };

const RANK: Record<ItemAccessLevel, number> = { private: 0, shared: 0, org: 1, public: 2 };

/** The audiences of `dependent` that `item` does not reach, widest first; [] when the item reaches them all. */
export function audienceGaps(dependent: Audience, item: Audience): AudienceGap[] {
  const itemRank = RANK[item.access];
  const dependentRank = RANK[dependent.access];
  if (itemRank === 2) return [];
  const gaps: AudienceGap[] = [];
  if (dependentRank === 2) gaps.push({ kind: 'public' });
  // An item shared with the organization reaches every member; below that only its groups do.
  if (itemRank === 1) return gaps;
  if (dependentRank >= 1) {
    gaps.push({ kind: 'org' });
    return gaps;
  }
  if (dependent.groups === undefined) {
    if (dependent.access === 'shared') gaps.push({ kind: 'groupsUnknown' });
  } else {
    const itemGroups = new Set((item.groups ?? []).map((g) => g.toLowerCase()));
    for (const g of dependent.groups) if (!itemGroups.has(g.toLowerCase())) gaps.push({ kind: 'group', groupId: g });
  }
  if (dependent.owner && item.owner && dependent.owner.toLowerCase() !== item.owner.toLowerCase()) gaps.push({ kind: 'owner', username: dependent.owner });
  return gaps;
}

/** True when `next` reaches fewer people than `previous` (a lower level, or a group dropped below the organization level). */
export function isNarrower(previous: Audience, next: Audience): boolean {
  if (RANK[next.access] < RANK[previous.access]) return true;
  if (RANK[next.access] >= 1) return false;
  const kept = new Set((next.groups ?? []).map((g) => g.toLowerCase()));
  return (previous.groups ?? []).some((g) => !kept.has(g.toLowerCase()));
}

/**
 * The access an item keeps after a transfer to a member with `privileges`, as the portal narrows it
 * (accessOwnerMayGive; group shares are kept, or the pre-check refuses the item). Undefined when the
 * new owner's privileges are unknown; an item shared only by group stays so.
 */
export function accessAfterTransfer(access: ItemAccessLevel, privileges: readonly string[] | undefined): ItemAccessLevel | undefined {
  if (!privileges) return undefined;
  return access === 'shared' ? access : accessOwnerMayGive((p) => privileges.includes(p), access);
}

/** A gap in words, for "<who> viewing '<title>' will see a broken layer". */
export function gapWho(gap: AudienceGap, groupTitle: (id: string) => string | undefined = () => undefined): string {
  switch (gap.kind) {
    case 'public':
      return 'Everyone (public)';
    case 'org':
      return 'Members of the organization';
    case 'group':
      return `Members of the group '${groupTitle(gap.groupId) ?? gap.groupId}'`;
    case 'groupsUnknown':
      return 'Members of its groups (which groups could not be read)';
    case 'owner':
      return `Its owner ${gap.username}`;
  }
}
