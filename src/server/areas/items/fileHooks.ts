/**
 * What happens after an item's file is stored (by addItem, commit of a multipart upload, an async
 * dataUrl download, or update with a new file): package info (esriinfo) extraction and thumbnails.
 * Called inside the transaction that records the file; answers the item fields the file sets.
 */
import type { PortalContext } from '../../context.ts';
import type { Queryable } from '../../store/db.ts';

export interface StoredFile {
  itemId: string;
  blobKey: string;
  fileName: string;
  size: number;
}

export interface FileDerivedFields {
  name?: string;
  title?: string;
  thumbnail?: string;
  documentation?: string;
}

export async function afterItemFileStored(_ctx: PortalContext, _q: Queryable, _file: StoredFile): Promise<FileDerivedFields> {
  return {};
}
