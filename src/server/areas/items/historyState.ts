/** An item's state as history records it before and after a change (docs/history.md). */
import type { Queryable } from '../../store/db.ts';
import { folderTitles, itemAccessAndGroups } from './repo/history.ts';

export type ItemSharingState = {
  access: 'private' | 'org' | 'public';
  groups: string[];
};

/** The item's access and the groups it is shared with (group ids, sorted). */
export async function itemSharingState(q: Queryable, itemId: string): Promise<ItemSharingState> {
  const row = await itemAccessAndGroups(q, itemId);
  return { access: row?.access ?? 'private', groups: row?.groups ?? [] };
}

/** Folder titles by id (null: the root). */
export async function folderNames(q: Queryable, folderIds: readonly (string | null)[]): Promise<Map<string, string>> {
  const ids = [...new Set(folderIds.filter((f): f is string => !!f))];
  if (!ids.length) return new Map();
  const rows = await folderTitles(q, ids);
  return new Map(rows.map((r) => [r.id, r.title]));
}
