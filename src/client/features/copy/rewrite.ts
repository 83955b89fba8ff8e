/** An item's data as it will be in the target: the ids of copied items swapped, the source portal's address replaced. */
import { replaceReference } from '../../../shared/references/references.ts';

/**
 * Swaps each `from → to` of `idMap` at the places the references module reads (an `itemId`, an
 * app's `webmap`, a portal URL holding the id), then, between two portals, every string that
 * starts with the source portal's REST address gets the target's. Never mutates `data`.
 */
export function rewriteData(itemType: string, data: unknown, idMap: ReadonlyMap<string, string>, sourcePortalUrl: string, targetPortalUrl: string): unknown {
  let out = data;
  for (const [from, to] of idMap) out = replaceReference(out, from, to, { itemType }).data;
  if (sourcePortalUrl.toLowerCase() === targetPortalUrl.toLowerCase()) return out;
  return swapPrefix(out, sourcePortalUrl, targetPortalUrl);
}

function swapPrefix(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.toLowerCase().startsWith(from.toLowerCase()) ? to + value.slice(from.length) : value;
  if (Array.isArray(value)) return value.map((v) => swapPrefix(v, from, to));
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(copy, k, { value: swapPrefix(v, from, to), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}
