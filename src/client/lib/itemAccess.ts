/**
 * The one set of words for who can see an item (`access`), so the content list, its filter, the
 * sharing panel and the undo summaries never call the same setting "Owner only" in one place and
 * "private" in another.
 */
export type ItemAccessLevel = 'private' | 'shared' | 'org' | 'public';

/** Short labels: badges, filters, radio buttons. */
export const ITEM_ACCESS_LABELS: Record<ItemAccessLevel, string> = {
  private: 'Owner only',
  shared: 'Groups',
  org: 'Organization',
  public: 'Everyone',
};

/** Whether a value read from a record or a history event is one of the four levels. */
export function isItemAccessLevel(value: unknown): value is ItemAccessLevel {
  return typeof value === 'string' && Object.hasOwn(ITEM_ACCESS_LABELS, value);
}
