/** SQL of a member's content listing (content/users/<user>[/<folder>]) and of an item's views. */
import type { Queryable } from '../../../store/db.ts';
import { SELECT_LISTED_ITEM, type ListedItemRow } from '../repo.ts';

/** The owner's items in the folder (null: the root), as a condition and its parameters. */
function inFolder(ownerId: string, folderId: string | null) {
  const where = folderId !== null ? 'i.owner_id = $1 AND i.folder_id = $2' : 'i.owner_id = $1 AND i.folder_id IS NULL';
  const params = folderId !== null ? [ownerId, folderId] : [ownerId];
  return { where, params };
}

export async function countItemsInFolder(q: Queryable, ownerId: string, folderId: string | null): Promise<number> {
  const { where, params } = inFolder(ownerId, folderId);
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*) AS n FROM items i WHERE ${where}`, params);
  return Number(n);
}

/** One page of the owner's items in the folder (null: the root), oldest first. */
export async function itemsInFolder(q: Queryable, ownerId: string, folderId: string | null, num: number, offset: number): Promise<ListedItemRow[]> {
  const { where, params } = inFolder(ownerId, folderId);
  return q.query<ListedItemRow>(`${SELECT_LISTED_ITEM} WHERE ${where} ORDER BY i.created, i.id LIMIT ${num} OFFSET ${offset}`, params);
}

/** One more view of the item. */
export async function countItemView(q: Queryable, itemId: string): Promise<void> {
  await q.query('UPDATE items SET num_views = num_views + 1 WHERE id = $1', [itemId]);
}
