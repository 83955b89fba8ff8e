/**
 * Store part numbers of an item's upload in the object store (migration 025). The store joins parts
 * in the order of their numbers, so item part n owns a block of them, and the completed file keeps
 * the item parts' order whatever order they arrived in. Each attempt at an item part takes numbers
 * of its block that no earlier attempt had: a store part number is never sent twice, so an attempt
 * that failed halfway (the client gone after some of its store parts reached the store) leaves parts
 * that the commit simply does not list — the store drops them when it completes the upload — and
 * never bytes under a number the kept attempt uses.
 */
import type { PortalContext } from '../../context.ts';
import type { Queryable } from '../../store/db.ts';
import { ApiError } from '../../http/errors.ts';
import { itemNotFound } from './access.ts';
import { findUploadItem, type UploadItemRow } from './repo.ts';
import { findStoreUpload, insertStoreUpload, takeStoreNumberCount, type StoreUpload } from './repo/uploads.ts';

export type { StoreUpload };

/**
 * S3's highest part number, kept for the copy of a small last item part made at commit: the
 * highest number is always the last part of the completed file, whichever item part is last, and a
 * commit tried again copies over the same number (a stray small part anywhere else would make the
 * upload impossible to complete on Ceph, which insists on every part being listed). Blocks end below it.
 */
export const LAST_PART_COPY = 10_000;
/**
 * Store part numbers of each item part in uploads started now: room for a part of 96 MiB streamed
 * in 6 MiB store parts, or for a 32 MiB part sent three times, before an attempt must go another way.
 */
const STORE_PARTS_PER_ITEM_PART = 16;

export const notPartial = (row: UploadItemRow) =>
  new ApiError(400, 'This item has no multipart upload in progress.', [`Item '${row.id}' is ${row.status}, not a multipart upload in progress.`]);

/** The block of store part numbers item part `partNum` owns, or undefined past the store's 9,999 (LAST_PART_COPY). */
export function storeBlock(upload: StoreUpload, partNum: number): { first: number; last: number } | undefined {
  const first = (partNum - 1) * upload.parts_per_item_part + 1;
  const last = first + upload.parts_per_item_part - 1;
  return last < LAST_PART_COPY ? { first, last } : undefined;
}

/**
 * Takes `count` numbers of item part `partNum`'s block that no attempt had, under the item's lock
 * (two attempts at once get different numbers); undefined when the block has fewer left — the
 * attempt then goes another way (a file of its own, joined through the service at commit).
 */
async function takeStoreNumbers(
  q: Queryable,
  itemId: string,
  upload: StoreUpload,
  partNum: number,
  count: number,
): Promise<{ first: number; count: number } | undefined> {
  const block = storeBlock(upload, partNum);
  const size = block ? block.last - block.first + 1 : 0;
  if (!block || count > size) return undefined;
  const used = await takeStoreNumberCount(q, itemId, partNum, count, size);
  if (used === undefined) return undefined;
  return { first: block.first + used - count, count };
}

/**
 * The item's upload in the object store (started under the item's lock by the first part that needs
 * it, so two first parts at once start one), and `count` fresh numbers of part `partNum`'s block.
 */
export async function storeUploadWithNumbers(
  ctx: PortalContext,
  itemId: string,
  partNum: number,
  count: number,
): Promise<{ upload: StoreUpload; numbers: { first: number; count: number } | undefined }> {
  const multipart = ctx.blobs.multipart!;
  return ctx.db.tx(async (q) => {
    const row = await findUploadItem(q, itemId, true);
    if (!row) throw itemNotFound(itemId);
    if (row.status !== 'partial') throw notPartial(row);
    let upload = await findStoreUpload(q, itemId);
    if (!upload) {
      upload = { blob_key: ctx.blobs.newKey(), upload_id: '', parts_per_item_part: STORE_PARTS_PER_ITEM_PART, completed_parts: null };
      upload.upload_id = await multipart.begin(upload.blob_key);
      await insertStoreUpload(q, itemId, upload, ctx.clock.now());
    }
    // upload_id '': a commit completed the store's upload and failed after it (joinParts.ts): the
    // upload takes no more parts, and this one goes another way.
    if (!upload.upload_id) return { upload, numbers: undefined };
    return { upload, numbers: await takeStoreNumbers(q, itemId, upload, partNum, count) };
  });
}
