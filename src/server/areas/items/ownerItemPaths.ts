import { REST } from '../../http/operation.ts';

/** An item under its owner's content, at the root folder or in a folder: where the owner's item operations live. */
export const OWNER_ITEM_PATHS = [`${REST}/content/users/:username/items/:itemId`, `${REST}/content/users/:username/:folderId/items/:itemId`] as const;
