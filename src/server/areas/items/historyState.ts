/** An item's state as history records it before and after a change (docs/history.md). */
import type { Queryable } from '../../store/db.ts';

export type ItemSharingState = {
  access: 'private' | 'org' | 'public';
  groups: string[];
};

/** The item's access and the groups it is shared with (group ids, sorted). */
export async function itemSharingState(q: Queryable, itemId: string): Promise<ItemSharingState> {
  const [row] = await q.query<{ access: ItemSharingState['access']; groups: string[] | null }>(
    `SELECT i.access, (SELECT array_agg(s.group_id ORDER BY s.group_id) FROM item_shares s WHERE s.item_id = i.id) AS groups FROM items i WHERE i.id = $1`,
    [itemId],
  );
  return { access: row?.access ?? 'private', groups: row?.groups ?? [] };
}

/** Folder titles by id (null: the root). */
export async function folderNames(q: Queryable, folderIds: readonly (string | null)[]): Promise<Map<string, string>> {
  const ids = [...new Set(folderIds.filter((f): f is string => !!f))];
  if (!ids.length) return new Map();
  const rows = await q.query<{ id: string; title: string }>('SELECT id, title FROM folders WHERE id = ANY($1::text[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.title]));
}
