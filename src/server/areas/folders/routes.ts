/**
 * Folders (facts §4): one level deep under a member's root. createFolder (title unique per member,
 * case-insensitive) and delete. Deleting a folder that still holds items is refused: the items
 * must be moved or deleted first (a local choice — the hosted service deletes them with it; this
 * way no item, protected or not, disappears as a side effect).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PortalContext } from '../../context.ts';
import { ApiError, badParam, userNotFound } from '../../http/errors.ts';
import type { Target } from '../../http/target.ts';
import { operation, REST } from '../../http/operation.ts';
import { hexId } from '../../store/ids.ts';
import { folderRecord } from '../items/read.ts';
import type { FolderRow } from '../items/service.ts';
import { findUser, type UserRow } from '../users/service.ts';
import { FOLDER_OPERATIONS } from '../../../shared/contract/folders.ts';
import { FOLDER_TITLE_MAX_CHARS, FOLDER_TITLE_RULE, folderTitleProblem } from '../../../shared/folderTitle.ts';

export const createFolderParams = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(FOLDER_TITLE_MAX_CHARS, `must be at most ${FOLDER_TITLE_MAX_CHARS} characters`)
    .refine((t) => !folderTitleProblem(t), FOLDER_TITLE_RULE),
});

const NOT_THEIRS = "Only the owner or an administrator (portal:admin:updateItems) can change a member's folders.";

/**
 * The member named in the path, whose folders the operation changes: decided by operation() with
 * FOLDER_OPERATIONS — the member themself (holding portal:user:createItem) or an administrator of
 * their organization (portal:admin:updateItems).
 */
export const FOLDER_OWNER: Target<UserRow> = {
  refusals: { otherOrg: NOT_THEIRS, missing: () => NOT_THEIRS },
  ownerNeeds: 'portal:user:createItem',
  async load({ path, portal }) {
    const user = await findUser(portal.db, path.username);
    if (!user) throw userNotFound(path.username);
    return { value: user, orgId: user.org_id, ownerId: user.id };
  },
};

const titleTaken = (title: string) => badParam('title', `'${title}': a folder with this title already exists`, 'Unable to create the folder.');

/** Creates a folder for `user`, authorized by the operation (FOLDER_OWNER). */
export async function createFolder(ctx: PortalContext, user: UserRow, title: string) {
  const now = ctx.clock.now();
  try {
    return await ctx.db.tx(async (q) => {
      const taken = await q.query('SELECT 1 FROM folders WHERE owner_id = $1 AND lower(title) = lower($2)', [user.id, title]);
      if (taken.length) throw titleTaken(title);
      const id = hexId();
      await q.query('INSERT INTO folders (id, org_id, owner_id, title, created) VALUES ($1, $2, $3, $4, $5)', [id, user.org_id, user.id, title, now]);
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
    const [folder] = await q.query<FolderRow>('SELECT * FROM folders WHERE owner_id = $1 AND id = $2 FOR UPDATE', [user.id, folderId]);
    if (!folder) throw new ApiError(400, 'Folder does not exist or is inaccessible.', [`Folder '${folderId}' does not exist or is inaccessible.`]);
    const [{ n }] = await q.query<{ n: number }>('SELECT count(*) AS n FROM items WHERE folder_id = $1', [folder.id]);
    if (Number(n) > 0) {
      throw new ApiError(400, 'Unable to delete the folder: it is not empty.', [`The folder holds ${n} item(s); move or delete them first.`]);
    }
    await q.query('DELETE FROM folders WHERE id = $1', [folder.id]);
    return { success: true as const, folder: folderRecord(folder, user.username) };
  });
}

export function folderRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'write',
    path: `${REST}/content/users/:username/createFolder`,
    authority: FOLDER_OPERATIONS.createFolder,
    target: FOLDER_OWNER,
    params: createFolderParams,
    handler: ({ params, portal, target }) => createFolder(portal, target, params.title),
  });

  operation(app, {
    method: 'write',
    path: `${REST}/content/users/:username/:folderId/delete`,
    authority: FOLDER_OPERATIONS.deleteFolder,
    target: FOLDER_OWNER,
    params: z.object({}),
    handler: ({ path, portal, target }) => deleteFolder(portal, target, path.folderId),
  });
}
