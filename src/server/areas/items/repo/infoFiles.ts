/** SQL of an item's info files (esriinfo: metadata, thumbnails) and the thumbnail renditions made of them. */
import type { Queryable } from '../../../store/db.ts';

/** One info file row (replacing one at the same path); renditions of the old file are dropped. */
export async function putInfoFile(q: Queryable, itemId: string, path: string, key: string, size: number): Promise<void> {
  await q.query('DELETE FROM item_thumbnail_renditions WHERE item_id = $1 AND path = $2', [itemId, path]);
  await q.query(
    `INSERT INTO item_info_files (item_id, path, blob_key, size) VALUES ($1, $2, $3, $4)
     ON CONFLICT (item_id, path) DO UPDATE SET blob_key = EXCLUDED.blob_key, size = EXCLUDED.size`,
    [itemId, path, key, size],
  );
}

/** Drops every info file of the item and every rendition made of them (a new package replaces them). */
export async function deleteInfoFiles(q: Queryable, itemId: string): Promise<void> {
  await q.query('DELETE FROM item_info_files WHERE item_id = $1', [itemId]);
  await q.query('DELETE FROM item_thumbnail_renditions WHERE item_id = $1', [itemId]);
}

/** The rendition of the info file at `path` made `width` wide, if one was made. */
export async function findRendition(q: Queryable, itemId: string, path: string, width: number): Promise<{ blob_key: string; size: number } | undefined> {
  const [hit] = await q.query<{ blob_key: string; size: number }>(
    'SELECT blob_key, size FROM item_thumbnail_renditions WHERE item_id = $1 AND path = $2 AND width = $3',
    [itemId, path, width],
  );
  return hit;
}

/** Records a rendition; false when one was recorded meanwhile (made twice at once), which is kept. */
export async function insertRendition(q: Queryable, itemId: string, path: string, width: number, key: string, size: number): Promise<boolean> {
  const inserted = await q.query(
    `INSERT INTO item_thumbnail_renditions (item_id, path, width, blob_key, size) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [itemId, path, width, key, size],
  );
  return inserted.length > 0;
}

/** The blob keys of the item's info files. */
export async function infoFileKeysOf(q: Queryable, itemId: string): Promise<string[]> {
  return (await q.query<{ blob_key: string }>('SELECT blob_key FROM item_info_files WHERE item_id = $1', [itemId])).map((r) => r.blob_key);
}

export interface InfoFileRow {
  path: string;
  blob_key: string;
  size: number;
}

export async function findInfoFile(q: Queryable, itemId: string, path: string): Promise<InfoFileRow | undefined> {
  const [file] = await q.query<InfoFileRow>('SELECT * FROM item_info_files WHERE item_id = $1 AND path = $2', [itemId, path]);
  return file;
}

/** The paths of the item's info files, in order (at most 1,000). */
export async function infoFilePathsOf(q: Queryable, itemId: string): Promise<string[]> {
  const info = await q.query<{ path: string }>('SELECT path FROM item_info_files WHERE item_id = $1 ORDER BY path LIMIT 1000', [itemId]);
  return info.map((f) => f.path);
}
