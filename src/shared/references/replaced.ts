/**
 * Recognising a data change that only swapped references ("point this map at the replacement
 * layer"), so that history can record it in a form that can be undone: the reverse swap applied to
 * the data as it is then. Used by the portal when it records an item update, and by the console's
 * undo to apply the reverse.
 */
import { serviceRootText } from './normalize.ts';
import { extractReferences, replaceReference, type ReferenceTarget } from './references.ts';

/** One swap: every reference to `from` became a reference to `to` (both item ids or both URLs). */
export interface ReplacedReference {
  from: string;
  to: string;
}

const keyOf = (t: ReferenceTarget) => (t.type === 'item' ? `item:${t.id}` : `url:${t.url}`);

interface Found {
  target: ReferenceTarget;
  /** As written the first time it was found (a URL's service root keeps its case, which undo must give back). */
  written: string;
}

function targets(itemType: string, data: unknown): Map<string, Found> {
  const out = new Map<string, Found>();
  for (const ref of extractReferences({ type: itemType }, data)) {
    if (ref.source !== 'data' || out.has(keyOf(ref.target))) continue;
    const written = ref.target.type === 'item' ? ref.target.id : (serviceRootText(ref.value) ?? ref.value);
    out.set(keyOf(ref.target), { target: ref.target, written });
  }
  return out;
}

/** Applies the swaps in order; the data is never mutated. */
export function applyReplacements(itemType: string, data: unknown, swaps: readonly ReplacedReference[]): unknown {
  let out = data;
  for (const s of swaps) out = replaceReference(out, s.from, s.to, { itemType }).data;
  return out;
}

/**
 * The swaps that turn `before` into `after` when that is all that changed: at most one item id and
 * one service URL replaced (a layer is usually named by both), every other byte the same. Anything
 * else (an edit beside the swap, two ids swapped, no reference changed) gives undefined, so history
 * records it as an ordinary data change, which is not undone.
 */
export function replacedReferences(itemType: string, before: unknown, after: unknown): ReplacedReference[] | undefined {
  const was = targets(itemType, before);
  const now = targets(itemType, after);
  const removed = [...was].filter(([k]) => !now.has(k)).map(([, f]) => f);
  const added = [...now].filter(([k]) => !was.has(k)).map(([, f]) => f);
  const swaps: ReplacedReference[] = [];
  for (const kind of ['item', 'url'] as const) {
    const r = removed.filter((f) => f.target.type === kind);
    const a = added.filter((f) => f.target.type === kind);
    if (r.length !== a.length || r.length > 1) return undefined;
    if (r.length === 1) swaps.push({ from: r[0].written, to: a[0].written });
  }
  if (!swaps.length) return undefined;
  // Only a swap if undoing it gives back exactly what was there.
  const reversed = applyReplacements(
    itemType,
    after,
    swaps.map((s) => ({ from: s.to, to: s.from })),
  );
  return JSON.stringify(reversed) === JSON.stringify(before) ? swaps : undefined;
}
