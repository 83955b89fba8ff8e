/**
 * What the item picker asks the portal, and in which order it offers the answers. Typed text is a
 * search of the portal with the field's item types (not a filter of the first 20 titles): the
 * portal's own order (relevance on ArcGIS; the local portal's default order), then, within each
 * page, the titles that match the words best first — the title itself, a title that starts with
 * them, one that holds them as a phrase. Nothing typed lists the accepted items by title.
 */
import type { Item } from '../api/index.ts';

export const PICKER_PAGE_SIZE = 20;
export const ITEM_ID = /^[A-Za-z0-9]{32}$/;

const quote = (s: string) => `"${s.replace(/["\\]/g, ' ')}"`;

/** `type:"A" OR type:"B"`, grouped; '' when every type is accepted. */
export function typeClause(types: readonly string[] | undefined): string {
  if (!types?.length) return '';
  return `(${types.map((t) => `type:${quote(t)}`).join(' OR ')})`;
}

/** The search for typed text (or an id) within the accepted types; `sorted` when it lists by title (nothing typed). */
export function pickerSearch(text: string, types?: readonly string[]): { q: string; sorted: boolean } {
  const typed = text.trim();
  const byType = typeClause(types);
  if (ITEM_ID.test(typed)) return { q: `id:${typed}`, sorted: false };
  // Query syntax typed by accident ("(", a quote, a colon) is read as words.
  const words = typed.replace(/[()":\\]/g, ' ').trim();
  if (!words) return { q: byType || '*', sorted: true };
  return { q: byType ? `(${words}) AND ${byType}` : `(${words})`, sorted: false };
}

/** How well a title answers the typed words: 0 the title itself, 1 starts with them, 2 holds them as a phrase, 3 otherwise. */
export function titleMatch(title: string, text: string): number {
  const t = title.toLowerCase().replace(/\s+/g, ' ').trim();
  const w = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!w) return 3;
  if (t === w) return 0;
  if (t.startsWith(w)) return 1;
  if (t.includes(w)) return 2;
  return 3;
}

/** A page of answers, best title matches first, the portal's order kept among equals. */
export function rankPage(results: readonly Item[], text: string): Item[] {
  return results
    .map((item, at) => ({ item, at, rank: titleMatch(item.title, text) }))
    .sort((a, b) => a.rank - b.rank || a.at - b.at)
    .map((r) => r.item);
}
