/**
 * What happens after an item's file is stored (by addItem, commit of a multipart upload, an async
 * dataUrl download, or update with a new file): the reference index, package info (esriinfo)
 * extraction and thumbnails.
 * Called inside the transaction that records the file; answers the item fields the file sets.
 */
import type { PortalContext } from '../../context.ts';
import type { Queryable } from '../../store/db.ts';
import { indexItemReferences } from '../dependencies/service.ts';
import { readBlob } from '../../store/blobs.ts';
import { extractEsriinfo, startsLikeZip } from './esriinfo.ts';

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

/**
 * A zip or a zip-based package (recognised by its first bytes, whatever its name) with an
 * `esriinfo/` folder: its files become the item's info files and its card sets name, title,
 * thumbnail and documentation. An unsafe archive is refused (400); any other file sets nothing.
 */
export async function afterItemFileStored(ctx: PortalContext, q: Queryable, file: StoredFile): Promise<FileDerivedFields> {
  // The reference index reads the new file (a web map's JSON sent as a file) in this transaction;
  // the item's type and URL are already written by every caller (what follows sets no indexed field).
  await indexItemReferences(ctx, q, file.itemId);
  if (file.size < 4 || !startsLikeZip(await readBlob(ctx.blobs, file.blobKey, 4, { start: 0, end: 3 }))) return {};
  // The archive reader needs a file it can seek in: the store's own on disk, a temporary copy from an object store.
  const { card } = await ctx.blobs.withLocalFile(file.blobKey, (path) => extractEsriinfo(ctx, q, file.itemId, path));
  return card;
}
