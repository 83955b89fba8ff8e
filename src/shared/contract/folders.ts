/** Folders of a member's content (content/users/<u>/createFolder, content/users/<u>/<folderId>/delete; spec §4.1). */
import { ownerOr, type Authority } from '../authority.ts';
import { content } from './items.ts';

/** Who may call each folder operation: the member (holding portal:user:createItem), or an administrator of their organization with portal:admin:updateItems. */
export const FOLDER_OPERATIONS = {
  createFolder: content(ownerOr('portal:admin:updateItems')),
  deleteFolder: content(ownerOr('portal:admin:updateItems')),
} as const satisfies Record<string, Authority>;
