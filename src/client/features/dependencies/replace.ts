/**
 * "Deprecate and point to a replacement", planned without React or requests: which maps and apps
 * name the old item in their data, which of them the caller may rewrite (and why not), the swaps
 * (the item id, and the service root when both items are services), and the rewritten data.
 *
 * Only references in item data are rewritten: an explicit relationship or an item whose own `url`
 * points at the service are not changed by updating a dependent's data, so they are not offered.
 */
import type { DependencyAnswer, DependencyEdge, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { serviceRootText } from '../../../shared/references/normalize.ts';
import { replaceReference } from '../../../shared/references/references.ts';
import type { ReplacedReference } from '../../../shared/references/replaced.ts';
import type { PortalUser } from '../../api/index.ts';
import { canOn } from '../../lib/can.ts';
import { describePrivilege } from '../../lib/privileges.ts';

/** Edge kinds that are not in a dependent's data: updating its data cannot change them. */
const NOT_IN_DATA = new Set<DependencyEdge['kind']>(['relationship', 'serviceUrl']);

export interface ReplaceTarget {
  id: string;
  title: string;
  type: string;
  url: string | null;
}

export interface Referrer {
  item: DependencyNode;
  /** The data references to the old item (where, and what is written there). */
  edges: DependencyEdge[];
}

/** The direct dependents that name `oldId` in their data, each once, in the answer's order. */
export function dataReferrers(answer: DependencyAnswer, oldId: string): Referrer[] {
  const old = oldId.toLowerCase();
  const byFrom = new Map<string, DependencyEdge[]>();
  for (const e of answer.edges) {
    if (e.to.toLowerCase() !== old || NOT_IN_DATA.has(e.kind)) continue;
    byFrom.set(e.from, [...(byFrom.get(e.from) ?? []), e]);
  }
  return answer.items.filter((i) => byFrom.has(i.id)).map((item) => ({ item, edges: byFrom.get(item.id)! }));
}

/**
 * The swaps that point a dependent at the replacement: the item id, and, when both items are
 * services (or any web address), the old service root to the new one — a map names a layer by
 * both, and would keep calling the old address otherwise.
 */
export function replacementSwaps(oldItem: Pick<ReplaceTarget, 'id' | 'url'>, newItem: Pick<ReplaceTarget, 'id' | 'url'>): ReplacedReference[] {
  const swaps: ReplacedReference[] = [{ from: oldItem.id, to: newItem.id }];
  const from = oldItem.url ? serviceRootText(oldItem.url) : undefined;
  const to = newItem.url ? serviceRootText(newItem.url) : undefined;
  if (from && to && from.toLowerCase() !== to.toLowerCase()) swaps.push({ from, to });
  return swaps;
}

/** The dependent's data with every swap applied, and how many places changed (0: nothing to write). */
export function rewriteReferences(itemType: string, data: unknown, swaps: readonly ReplacedReference[]): { data: unknown; changed: number } {
  let out = data;
  let changed = 0;
  for (const s of swaps) {
    const r = replaceReference(out, s.from, s.to, { itemType });
    out = r.data;
    changed += r.paths.length;
  }
  return { data: out, changed };
}

type Caller = Pick<PortalUser, 'username' | 'role' | 'privileges' | 'orgId'> & { roleId?: string | null };

export type ReplaceStep = { referrer: Referrer; action: 'update' } | { referrer: Referrer; action: 'skip'; reason: string };

/**
 * What will be done with each referrer: updated, or skipped with why (the portal would refuse:
 * someone else's item without the privilege to update any item). The portal still decides; a
 * refusal it gives is reported per item.
 */
export function planReplacement(referrers: readonly Referrer[], caller: Caller, newId: string): ReplaceStep[] {
  return referrers.map((referrer): ReplaceStep => {
    if (referrer.item.id.toLowerCase() === newId.toLowerCase())
      return { referrer, action: 'skip', reason: 'It is the replacement itself: it is left as it is.' };
    const mine = referrer.item.owner.toLowerCase() === caller.username.toLowerCase();
    // Rewriting a referrer's data is updateItem, decided as the service decides it. A walk's items do
    // not say their organization: one of another organization's is refused by the portal, per item.
    const may = canOn(caller, 'updateItem', { orgId: caller.orgId, owned: mine });
    if (may.allowed) return { referrer, action: 'update' };
    const needs = describePrivilege(may.missing);
    return {
      referrer,
      action: 'skip',
      reason: mine
        ? `Changing your items needs ${needs}.`
        : `It belongs to ${referrer.item.owner}: changing someone else's item needs ${needs}. Ask its owner to switch.`,
    };
  });
}
