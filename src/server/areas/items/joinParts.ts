/**
 * Commit's join of a multipart upload's parts into one stored file (uploads.ts commitUpload).
 * Without an upload in the object store, the part files are joined by the store (blobs.join). With
 * one, the store completes it, listing exactly the store parts of the kept attempt of each item part
 * in order (a small last part is copied in as LAST_PART_COPY, inside the store) — when that is all
 * the store holds. Two rarer cases take a slower way: small parts between large ones (S3 refuses
 * those), and store parts of attempts that were not kept (a part sent again, a client gone halfway;
 * Ceph refuses to complete an upload holding parts the completion leaves out). Then every part the
 * store holds is completed as one file, and the kept bytes are joined again in order, streamed
 * through this process (`leftover` is that intermediate file).
 * A failure before the store completes its upload leaves everything as it was, for another commit.
 */
import { Readable } from 'node:stream';
import type { PortalContext } from '../../context.ts';
import { removeBlobs } from './storedFile.ts';
import { markStoreUploadCompleted, type PartRow } from './repo/uploads.ts';
import { LAST_PART_COPY, type StoreUpload } from './storeNumbers.ts';

export type { PartRow };

/** The store parts holding an item part, in order (none for a file). */
const storePartsOf = (p: PartRow) => p.store_parts ?? (p.etag ? [{ n: p.part_num, etag: p.etag }] : []);

type Layout = { n: number; size: number }[];

export async function joinParts(
  ctx: PortalContext,
  itemId: string,
  parts: PartRow[],
  upload: StoreUpload | undefined,
): Promise<{ key: string; size: number; leftover: string[] }> {
  const size = parts.reduce((sum, p) => sum + Number(p.size), 0);
  if (!upload || !parts.some((p) => p.etag)) {
    const key = ctx.blobs.newKey();
    try {
      await ctx.blobs.join(
        key,
        parts.map((p) => ({ key: p.blob_key!, size: Number(p.size) })),
      );
    } catch (err) {
      await removeBlobs(ctx, [key]);
      throw err;
    }
    if (upload?.upload_id) await ctx.blobs.multipart?.abort(upload.blob_key, upload.upload_id).catch(() => undefined);
    // Every part sent again as a file after a failed commit completed the store's upload: that file goes.
    return { key, size, leftover: upload && !upload.upload_id ? [upload.blob_key] : [] };
  }
  const multipart = ctx.blobs.multipart!;
  const last = parts.at(-1)!;
  let layout = upload.completed_parts ?? undefined;
  // upload_id '' : an earlier commit completed the store's upload and failed after it.
  if (upload.upload_id) {
    const held = await multipart.listParts(upload.blob_key, upload.upload_id);
    const kept = parts.flatMap(storePartsOf);
    const keptNumbers = new Set(kept.map((p) => p.n));
    const copyLast = !last.etag;
    // An earlier commit's copy of the last part is copied over; anything else not kept is a stray.
    const strays = held.filter((h) => !keptNumbers.has(h.n) && !(copyLast && h.n === LAST_PART_COPY));
    if (!strays.length && parts.every((p) => p.etag || p === last)) {
      if (copyLast) kept.push({ n: LAST_PART_COPY, etag: await multipart.copyPart(upload.blob_key, upload.upload_id, LAST_PART_COPY, last.blob_key!) });
      await multipart.complete(upload.blob_key, upload.upload_id, kept);
      // Should the commit fail after this, the parts are ranges of this file: another commit (and
      // any part sent again, as a file of its own) joins from it.
      const sizeOf = new Map(held.map((h) => [h.n, h.size]));
      await markCompleted(
        ctx,
        itemId,
        kept.map((p) => ({ n: p.n, size: p.n === LAST_PART_COPY ? Number(last.size) : sizeOf.get(p.n)! })),
      );
      return { key: upload.blob_key, size, leftover: [] };
    }
    // Every store part is at least the store's minimum but LAST_PART_COPY, the last: all complete.
    await multipart.complete(upload.blob_key, upload.upload_id, held);
    layout = held.map((h) => ({ n: h.n, size: h.size }));
    await markCompleted(ctx, itemId, layout);
  }
  const key = ctx.blobs.newKey();
  try {
    await ctx.blobs.write(key, Readable.from(inOrder(ctx, parts, upload.blob_key, offsetsOf(parts, layout))));
  } catch (err) {
    await removeBlobs(ctx, [key]);
    throw err;
  }
  return { key, size, leftover: [upload.blob_key] };
}

/**
 * Where each store-held item part starts in the completed file: from the parts it was completed of
 * (in number order), or — completed before migration 025 recorded them — the kept parts alone.
 */
function offsetsOf(parts: PartRow[], layout: Layout | undefined): Map<number, number> {
  const at = new Map<number, number>();
  if (layout) {
    const startOf = new Map<number, number>();
    let offset = 0;
    for (const h of [...layout].sort((a, b) => a.n - b.n)) {
      startOf.set(h.n, offset);
      offset += h.size;
    }
    for (const p of parts) if (p.etag) at.set(p.part_num, startOf.get(storePartsOf(p)[0].n)!);
    return at;
  }
  let offset = 0;
  for (const p of parts.filter((q) => q.etag)) {
    at.set(p.part_num, offset);
    offset += Number(p.size);
  }
  return at;
}

/** The kept bytes in order: a store-held part is its range of the completed upload, a small part its own file. */
async function* inOrder(ctx: PortalContext, parts: PartRow[], completed: string, offsets: Map<number, number>): AsyncGenerator<Buffer> {
  for (const p of parts) {
    const size = Number(p.size);
    const start = offsets.get(p.part_num);
    const source = p.etag ? await ctx.blobs.open(completed, { start: start!, end: start! + size - 1 }) : await ctx.blobs.open(p.blob_key!);
    for await (const chunk of source) yield chunk as Buffer;
  }
}

/**
 * Done once: the store's upload is now a file laid out as `layout`. A commit tried again reads it
 * instead of completing again, and a part sent again meanwhile is stored as a file of its own
 * (storeNumbers.ts: no numbers in a completed upload).
 */
async function markCompleted(ctx: PortalContext, itemId: string, layout: Layout): Promise<void> {
  await markStoreUploadCompleted(ctx.db, itemId, layout);
}
