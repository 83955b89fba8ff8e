/** SQL of an item's sharing: its access and the groups it is shared to (item_shares). */
import type { Queryable } from '../../../store/db.ts';
import type { ItemRow } from '../repo.ts';

/** Shares the item to the group; false when it already was. */
export async function shareItemToGroup(q: Queryable, itemId: string, groupId: string, now: number): Promise<boolean> {
  const inserted = await q.query('INSERT INTO item_shares (item_id, group_id, shared) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING 1', [
    itemId,
    groupId,
    now,
  ]);
  return inserted.length > 0;
}

/** Takes the item out of the group; false when it was not shared to it. */
export async function unshareItemFromGroup(q: Queryable, itemId: string, groupId: string): Promise<boolean> {
  const deleted = await q.query('DELETE FROM item_shares WHERE item_id = $1 AND group_id = $2 RETURNING 1', [itemId, groupId]);
  return deleted.length > 0;
}

/** Sets the item's access, and its content status as the new access leaves it. */
export async function setItemAccess(q: Queryable, itemId: string, access: ItemRow['access'], status: ItemRow['content_status'], now: number): Promise<void> {
  await q.query('UPDATE items SET access = $2, content_status = $3, modified = $4 WHERE id = $1', [itemId, access, status, now]);
}

/** The destination takes the origin's access and every group share of it (spec §4.1 rule 5). */
export async function copySharing(q: Queryable, originId: string, destinationId: string, now: number): Promise<void> {
  await q.query(`UPDATE items SET access = (SELECT access FROM items WHERE id = $1) WHERE id = $2`, [originId, destinationId]);
  await q.query(`INSERT INTO item_shares (item_id, group_id, shared) SELECT $2, group_id, $3 FROM item_shares WHERE item_id = $1 ON CONFLICT DO NOTHING`, [
    originId,
    destinationId,
    now,
  ]);
}
