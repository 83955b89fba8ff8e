/** Folders (facts §4): the createFolder and delete operations; the rules are in service.ts. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Target } from '../../http/target.ts';
import { operation, REST } from '../../http/operation.ts';
import { pathMemberTarget, type UserRow } from '../users/service.ts';
import { createFolder, deleteFolder } from './service.ts';
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
export const FOLDER_OWNER: Target<UserRow> = pathMemberTarget({ otherOrg: NOT_THEIRS, missing: () => NOT_THEIRS });

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
