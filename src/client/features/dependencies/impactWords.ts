/** The impact check's words: counts, an item as it is named in a list, and the one-line summary that is also announced. */
import type { ImpactChange } from '../../components/ImpactSlot.tsx';
import { ITEM_ACCESS_LABELS } from '../../lib/itemAccess.ts';
import type { Impact, ImpactEntry } from './impact.ts';

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const hiddenWords = (n: number) => (n ? ` and ${plural(n, 'item')} you cannot see` : '');

export function describeNode(e: ImpactEntry): string {
  return `${e.node.title || e.node.id} (${e.node.type}, ${e.node.owner}, ${ITEM_ACCESS_LABELS[e.node.access] ?? e.node.access})`;
}
export function usesWords(e: ImpactEntry): string {
  return e.uses.length ? `uses ${e.uses.map((u) => `'${u.title}' ${u.how}`).join('; ')}` : 'uses it through items you cannot see';
}

export function summarize(
  change: ImpactChange,
  r: Impact,
  audienceCount: number,
  urlCount: number,
  subject: string,
  newOwner: string,
  ownerKnown: boolean,
): string {
  const n = r.entries.length;
  if (!n) return `Nothing that you can see uses ${subject}${hiddenWords(r.hidden)}.`;
  switch (change.kind) {
    case 'delete':
      return `${plural(n, 'item')} will stop working${hiddenWords(r.hidden)}.`;
    case 'deprecate':
      return `${plural(n, 'map or app', 'maps and apps')} will show a deprecated item${hiddenWords(r.hidden)}.`;
    case 'transfer':
      if (!ownerKnown) return `${plural(n, 'item')} use ${subject}; what ${newOwner} may share could not be read.`;
      return audienceCount
        ? `${plural(audienceCount, 'item')} will show broken layers to some of their viewers after the transfer.`
        : `${plural(n, 'item')} use ${subject}; all their viewers keep seeing it after the transfer.`;
    case 'sharing':
      return audienceCount
        ? `${plural(audienceCount, 'item')} will show broken layers to some of their viewers.`
        : `${plural(n, 'item')} use ${subject}; all their viewers keep seeing it.`;
    case 'url':
      return urlCount
        ? `${plural(urlCount, 'item')} name the old address and will keep calling it.`
        : `${plural(n, 'item')} use ${subject}; none names the old address.`;
  }
}
