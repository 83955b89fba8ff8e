/**
 * SQL of multipart uploads: the item's parts (item_parts), its upload in the object store
 * (item_store_uploads, migration 025) and the store part numbers each item part has used.
 */
import type { Queryable } from '../../../store/db.ts';

export interface PartRow {
  part_num: number;
  blob_key: string | null;
  etag: string | null;
  /** The store parts holding it; null (with an etag) on parts recorded as store part part_num before migration 025. */
  store_parts: { n: number; etag: string }[] | null;
  size: number;
}

export interface StoreUpload {
  blob_key: string;
  upload_id: string;
  /** Store part numbers each item part owns (1 in uploads started before streamed parts). */
  parts_per_item_part: number;
  /** Once a commit completed the store's upload with parts not kept: the parts it was completed of. */
  completed_parts: { n: number; size: number }[] | null;
}

/** The item's upload in the object store, if one was started. */
export async function findStoreUpload(q: Queryable, itemId: string): Promise<StoreUpload | undefined> {
  const [upload] = await q.query<StoreUpload>('SELECT blob_key, upload_id, parts_per_item_part, completed_parts FROM item_store_uploads WHERE item_id = $1', [
    itemId,
  ]);
  return upload;
}

export async function insertStoreUpload(q: Queryable, itemId: string, upload: StoreUpload, created: number): Promise<void> {
  await q.query('INSERT INTO item_store_uploads (item_id, blob_key, upload_id, created, parts_per_item_part) VALUES ($1, $2, $3, $4, $5)', [
    itemId,
    upload.blob_key,
    upload.upload_id,
    created,
    upload.parts_per_item_part,
  ]);
}

/**
 * Adds `count` to the store numbers item part `partNum` has used, only if the total stays within
 * `size`: the new total, or undefined when the block has fewer left.
 */
export async function takeStoreNumberCount(q: Queryable, itemId: string, partNum: number, count: number, size: number): Promise<number | undefined> {
  // One statement (each is a round trip on every part): the count taken only if the block holds it.
  const [row] = await q.query<{ used: number }>(
    `INSERT INTO item_part_store_numbers (item_id, part_num, used) VALUES ($1, $2, $3)
     ON CONFLICT (item_id, part_num) DO UPDATE SET used = item_part_store_numbers.used + EXCLUDED.used
     WHERE item_part_store_numbers.used + EXCLUDED.used <= $4
     RETURNING used`,
    [itemId, partNum, count, size],
  );
  return row?.used;
}

/** The store's upload is now one file laid out as `layout` (joinParts.ts): it takes no more parts. */
export async function markStoreUploadCompleted(q: Queryable, itemId: string, layout: { n: number; size: number }[]): Promise<void> {
  await q.query(`UPDATE item_store_uploads SET upload_id = '', completed_parts = $2::jsonb WHERE item_id = $1`, [itemId, JSON.stringify(layout)]);
}

/**
 * Records part `partNum` (replacing an earlier attempt's): the earlier attempt's file key, read in
 * the same statement (as it was before it), for removal after.
 */
export async function upsertPart(
  q: Queryable,
  itemId: string,
  partNum: number,
  part: { blobKey: string | null; etag: string | null; storeParts: string | null; size: number },
): Promise<string | null | undefined> {
  const [written] = await q.query<{ old: string | null }>(
    `WITH prev AS (SELECT blob_key FROM item_parts WHERE item_id = $1 AND part_num = $2)
         INSERT INTO item_parts (item_id, part_num, blob_key, etag, store_parts, size) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
         ON CONFLICT (item_id, part_num) DO UPDATE SET blob_key = EXCLUDED.blob_key, etag = EXCLUDED.etag, store_parts = EXCLUDED.store_parts, size = EXCLUDED.size
         RETURNING (SELECT blob_key FROM prev) AS old`,
    [itemId, partNum, part.blobKey, part.etag, part.storeParts, part.size],
  );
  return written?.old;
}

/** The numbers of the parts added so far, in order. */
export async function partNumbersOf(q: Queryable, itemId: string): Promise<number[]> {
  const rows = await q.query<{ part_num: number }>('SELECT part_num FROM item_parts WHERE item_id = $1 ORDER BY part_num', [itemId]);
  return rows.map((r) => r.part_num);
}

/** The parts added so far, in order. */
export async function partsOf(q: Queryable, itemId: string): Promise<PartRow[]> {
  return q.query<PartRow>('SELECT part_num, blob_key, etag, store_parts, size FROM item_parts WHERE item_id = $1 ORDER BY part_num', [itemId]);
}

/** What the streamed-part tests check of each part row, in order. */
export function storedPartsOf(q: Queryable, itemId: string) {
  return q.query<{ part_num: number; blob_key: string | null; store_parts: { n: number }[] | null; size: number }>(
    'SELECT part_num, blob_key, store_parts, size FROM item_parts WHERE item_id = $1 ORDER BY part_num',
    [itemId],
  );
}

/** Commit has started: no part may change while the file is joined. */
export async function markJoiningParts(q: Queryable, itemId: string): Promise<void> {
  await q.query(`UPDATE items SET status = 'processing', status_message = 'Joining uploaded parts.' WHERE id = $1`, [itemId]);
}

/** The join failed: still partial with every part kept, so the owner can commit again. */
export async function markJoinFailed(q: Queryable, itemId: string, message: string): Promise<void> {
  await q.query(`UPDATE items SET status = 'partial', status_message = $2 WHERE id = $1`, [itemId, message]);
}

/** Recording the joined file failed: back to partial, unless something else moved the item on. */
export async function markCommitFailed(q: Queryable, itemId: string): Promise<void> {
  await q.query(`UPDATE items SET status = 'partial', status_message = null WHERE id = $1 AND status = 'processing'`, [itemId]);
}

/** The upload is committed: its parts and its upload in the store are no longer needed. */
export async function deleteUploadParts(q: Queryable, itemId: string): Promise<void> {
  await q.query('DELETE FROM item_parts WHERE item_id = $1', [itemId]);
  await q.query('DELETE FROM item_store_uploads WHERE item_id = $1', [itemId]);
}

/** Uploads begun before `before` and never committed (the oldest `limit`): the retention sweep ends them. */
export async function abandonedUploads(q: Queryable, before: number, limit: number): Promise<{ id: string }[]> {
  return q.query<{ id: string }>(`SELECT id FROM items WHERE status = 'partial' AND created < $1 ORDER BY created LIMIT $2`, [before, limit]);
}

/** The object store's upload ids of items still being uploaded. */
export async function activeStoreUploadIds(q: Queryable): Promise<string[]> {
  return (await q.query<{ upload_id: string }>(`SELECT upload_id FROM item_store_uploads WHERE upload_id <> ''`)).map((r) => r.upload_id);
}
