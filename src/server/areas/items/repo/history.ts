/** SQL of what history records of an item before and after a change (historyState.ts). */
import type { Queryable } from '../../../store/db.ts';
import type { ItemRow } from '../repo.ts';

/** The item's access and the groups it is shared with (group ids, sorted; null: none). */
export async function itemAccessAndGroups(q: Queryable, itemId: string): Promise<{ access: ItemRow['access']; groups: string[] | null } | undefined> {
  const [row] = await q.query<{ access: ItemRow['access']; groups: string[] | null }>(
    `SELECT i.access, (SELECT array_agg(s.group_id ORDER BY s.group_id) FROM item_shares s WHERE s.item_id = i.id) AS groups FROM items i WHERE i.id = $1`,
    [itemId],
  );
  return row;
}

/** The titles of the folders with these ids. */
export async function folderTitles(q: Queryable, ids: string[]): Promise<{ id: string; title: string }[]> {
  return q.query<{ id: string; title: string }>('SELECT id, title FROM folders WHERE id = ANY($1::text[])', [ids]);
}
