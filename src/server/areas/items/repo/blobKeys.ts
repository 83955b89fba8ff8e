/**
 * Which blob store keys no row refers to, for the retention sweep of stray blob files. Most columns
 * holding a key are items' (the item's data, its parts and store upload, info files, thumbnail
 * renditions, resources); the recycle bin's and groups' info files hold keys too, and one query over
 * every such column answers a page of keys in one round trip.
 */
import type { Queryable } from '../../../store/db.ts';

/** Those of `keys` that no column holding a blob key refers to. */
export async function unreferencedBlobKeys(q: Queryable, keys: string[]): Promise<string[]> {
  // Every column that holds a blob key; a key in none of them belongs to nothing.
  const stray = await q.query<{ k: string }>(
    `SELECT k FROM unnest($1::text[]) AS k
      WHERE NOT EXISTS (SELECT 1 FROM items WHERE data_blob = k)
        AND NOT EXISTS (SELECT 1 FROM item_parts WHERE blob_key = k)
        AND NOT EXISTS (SELECT 1 FROM item_store_uploads WHERE blob_key = k)
        AND NOT EXISTS (SELECT 1 FROM item_info_files WHERE blob_key = k)
        AND NOT EXISTS (SELECT 1 FROM item_thumbnail_renditions WHERE blob_key = k)
        AND NOT EXISTS (SELECT 1 FROM item_resources WHERE blob_key = k)
        AND NOT EXISTS (SELECT 1 FROM recycled_item_blobs WHERE blob_key = k)
        AND NOT EXISTS (SELECT 1 FROM group_info_files WHERE blob_key = k)`,
    [keys],
  );
  return stray.map((r) => r.k);
}
