/**
 * Folders (facts §4): one level deep under a member's root. createFolder (title unique per member,
 * case-insensitive) and delete. Deleting a folder that still holds items is refused: the items
 * must be moved or deleted first (a local choice — the hosted service deletes them with it; this
 * way no item, protected or not, disappears as a side effect).
 */
import type { PortalContext } from '../../context.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import { hexId } from '../../store/ids.ts';
import { folderRecord, type FolderRow } from '../items/service.ts';
import type { UserRow } from '../users/service.ts';
import { countItemsInFolder, deleteFolderRow, folderTitleTaken, insertFolder, lockOwnedFolder } from './repo.ts';

const titleTaken = (title: string) => badParam('title', `'${title}': a folder with this title already exists`, 'Unable to create the folder.');

/** Creates a folder for `user`, authorized by the operation (FOLDER_OWNER). */
export async function createFolder(ctx: PortalContext, user: UserRow, title: string) {
  const now = ctx.clock.now();
  try {
    return await ctx.db.tx(async (q) => {
      if (await folderTitleTaken(q, user.id, title)) throw titleTaken(title);
      const id = hexId();
      await insertFolder(q, { id, orgId: user.org_id, ownerId: user.id, title, created: now });
      return { success: true as const, folder: { username: user.username, id, title } };
    });
  } catch (err) {
    // The same title saved twice at once: the unique index refuses the second.
    if ((err as { code?: string }).code === '23505') throw titleTaken(title);
    throw err;
  }
}

/** Deletes `user`'s folder, authorized by the operation (FOLDER_OWNER). */
export async function deleteFolder(ctx: PortalContext, user: UserRow, folderId: string) {
  return ctx.db.tx(async (q) => {
    const folder = await lockOwnedFolder<FolderRow>(q, user.id, folderId);
    if (!folder) throw new ApiError(400, 'Folder does not exist or is inaccessible.', [`Folder '${folderId}' does not exist or is inaccessible.`]);
    const n = await countItemsInFolder(q, folder.id);
    if (n > 0) {
      throw new ApiError(400, 'Unable to delete the folder: it is not empty.', [`The folder holds ${n} item(s); move or delete them first.`]);
    }
    await deleteFolderRow(q, folder.id);
    return { success: true as const, folder: folderRecord(folder, user.username) };
  });
}
