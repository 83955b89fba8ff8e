/** SQL for a member's folders. */
import type { Queryable } from '../../store/db.ts';

/** Whether `ownerId` already has a folder titled `title` (compared case-insensitively). */
export async function folderTitleTaken(q: Queryable, ownerId: string, title: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM folders WHERE owner_id = $1 AND lower(title) = lower($2)', [ownerId, title]);
  return rows.length > 0;
}

export async function insertFolder(q: Queryable, folder: { id: string; orgId: string; ownerId: string; title: string; created: number }): Promise<void> {
  await q.query('INSERT INTO folders (id, org_id, owner_id, title, created) VALUES ($1, $2, $3, $4, $5)', [
    folder.id,
    folder.orgId,
    folder.ownerId,
    folder.title,
    folder.created,
  ]);
}

/**
 * `ownerId`'s folder `folderId`, locked for the rest of the transaction. The row's type is the items
 * area's FolderRow, named by the caller: a repository imports no service.
 */
export async function lockOwnedFolder<Row>(q: Queryable, ownerId: string, folderId: string): Promise<Row | undefined> {
  const [folder] = await q.query<Row>('SELECT * FROM folders WHERE owner_id = $1 AND id = $2 FOR UPDATE', [ownerId, folderId]);
  return folder;
}

export async function countItemsInFolder(q: Queryable, folderId: string): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*) AS n FROM items WHERE folder_id = $1', [folderId]);
  return Number(n);
}

export async function deleteFolderRow(q: Queryable, folderId: string): Promise<void> {
  await q.query('DELETE FROM folders WHERE id = $1', [folderId]);
}
