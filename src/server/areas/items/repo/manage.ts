/** SQL of managing an item: moving it between folders, its delete protection, what goes with it when deleted. */
import type { Queryable } from '../../../store/db.ts';

export async function updateItemFolder(q: Queryable, itemId: string, folderId: string | null, now: number): Promise<void> {
  await q.query('UPDATE items SET folder_id = $2, modified = $3 WHERE id = $1', [itemId, folderId, now]);
}

export async function updateItemProtection(q: Queryable, itemId: string, value: boolean, now: number): Promise<void> {
  await q.query('UPDATE items SET protected = $2, modified = $3 WHERE id = $1', [itemId, value, now]);
}

/** The ids of the code attachments (WMA2Code, MobileApp2Code) of the app `originId` that `ownerId` owns. */
export async function codeAttachmentIdsOf(q: Queryable, originId: string, ownerId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `SELECT d.id FROM relationships r JOIN items d ON d.id = r.destination_id
      WHERE r.origin_id = $1 AND r.type IN ('WMA2Code', 'MobileApp2Code') AND d.owner_id = $2 AND d.type = 'Code Attachment'`,
    [originId, ownerId],
  );
  return rows.map((r) => r.id);
}
