/** SQL for items and folders: the pieces every content operation shares. */
import type { Queryable } from '../../store/db.ts';

export interface ItemRow {
  id: string;
  org_id: string;
  owner_id: string;
  owner_username: string;
  folder_id: string | null;
  title: string;
  type: string;
  name: string | null;
  type_keywords: string[];
  description: string | null;
  tags: string[];
  snippet: string | null;
  thumbnail: string | null;
  documentation: string | null;
  extent: number[][];
  spatial_reference: string | null;
  access_information: string | null;
  license_info: string | null;
  culture: string | null;
  properties: Record<string, unknown> | null;
  url: string | null;
  categories: string[];
  app_categories: string[];
  industries: string[];
  languages: string[];
  large_thumbnail: string | null;
  banner: string | null;
  screenshots: string[];
  listing: Record<string, unknown> | null;
  access: 'private' | 'org' | 'public';
  content_status: 'org_authoritative' | 'public_authoritative' | 'deprecated' | null;
  /** Local extra: the item that replaces this deprecated one (migration 035). */
  replaced_by: string | null;
  protected: boolean;
  status: 'partial' | 'processing' | 'completed' | 'failed';
  status_message: string | null;
  data_kind: 'none' | 'text' | 'file';
  data_text: string | null;
  data_blob: string | null;
  data_mime: string | null;
  size: number;
  /** Bytes of the item's resources (item_resources); the reported size adds them to `size`. */
  resources_size: number;
  service_credentials: { username: string; password: string } | null;
  service_proxy: { hitsPerInterval: number; intervalSeconds: number; referrers: string[] } | null;
  num_views: number;
  created: number;
  modified: number;
  /** Ids of the groups the item is shared to. */
  group_ids: string[];
}

/** The item columns a listing shows (toItem reads them): not the item's data, credentials or state. */
// prettier-ignore
const LISTED_ITEM_COLUMNS = [
  'id', 'org_id', 'owner_id', 'folder_id', 'title', 'type', 'name', 'type_keywords', 'description', 'tags', 'snippet',
  'thumbnail', 'documentation', 'extent', 'spatial_reference', 'access_information', 'license_info', 'culture', 'properties',
  'url', 'categories', 'app_categories', 'industries', 'languages', 'large_thumbnail', 'banner', 'screenshots', 'access',
  'content_status', 'replaced_by', 'protected', 'status', 'size', 'resources_size', 'num_views', 'created', 'modified',
] as const satisfies readonly (keyof ItemRow)[];

/**
 * Every stored column of an item but the copies kept for search (migration 016: `search_text`, four
 * fields lower-cased and as long as they are, and `tags_lower`). Named rather than `i.*`, so a reader
 * never carries them; a test checks this list against the table.
 */
// prettier-ignore
export const ITEM_COLUMNS = [
  ...LISTED_ITEM_COLUMNS, 'listing', 'status_message', 'data_kind', 'data_text', 'data_blob', 'data_mime', 'service_credentials',
  'service_proxy',
] as const satisfies readonly (keyof ItemRow)[];

export type ListedItemRow = Pick<ItemRow, (typeof LISTED_ITEM_COLUMNS)[number] | 'owner_username' | 'group_ids'>;

const selectItem = (columns: readonly string[]) => `
  SELECT ${columns.map((c) => `i.${c}`).join(', ')}, o.username AS owner_username,
         COALESCE((SELECT array_agg(s.group_id ORDER BY s.group_id) FROM item_shares s WHERE s.item_id = i.id), '{}') AS group_ids
    FROM items i
    JOIN users o ON o.id = i.owner_id`;

export const SELECT_ITEM = selectItem(ITEM_COLUMNS);
/**
 * For lists of items (search, a member's content): the columns of ListedItemRow. An item's data can
 * be megabytes of text (a web map's JSON), which a list never shows.
 */
export const SELECT_LISTED_ITEM = selectItem(LISTED_ITEM_COLUMNS);

export async function findItem(q: Queryable, id: string): Promise<ItemRow | undefined> {
  const [row] = await q.query<ItemRow>(`${SELECT_ITEM} WHERE i.id = $1`, [id]);
  return row;
}

/** The whole rows of the items of `ids` that exist, in no particular order. */
export async function findItems(q: Queryable, ids: readonly string[]): Promise<ItemRow[]> {
  return q.query<ItemRow>(`${SELECT_ITEM} WHERE i.id = ANY ($1::text[])`, [ids]);
}

/** What a multipart upload's operations check of their item (findItem's whole row, read four times for each part, was most of a part's database time). */
export type UploadItemRow = Pick<ItemRow, 'id' | 'owner_id' | 'status'>;

/** The item's owner and status; `lock`: also locks its row for the rest of the transaction, as lockItem does. */
export async function findUploadItem(q: Queryable, id: string, lock = false): Promise<UploadItemRow | undefined> {
  const [row] = await q.query<UploadItemRow>(`SELECT id, owner_id, status FROM items WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

/** Locks the item's row for the rest of the transaction (changes to one item never interleave). */
export async function lockItem(q: Queryable, id: string): Promise<void> {
  await q.query('SELECT 1 FROM items WHERE id = $1 FOR UPDATE', [id]);
}

export interface FolderRow {
  id: string;
  org_id: string;
  owner_id: string;
  title: string;
  created: number;
}

export async function findFolder(q: Queryable, ownerId: string, idOrTitle: string): Promise<FolderRow | undefined> {
  const [row] = await q.query<FolderRow>(
    'SELECT * FROM folders WHERE owner_id = $1 AND (id = $2 OR lower(title) = lower($2)) ORDER BY (id = $2) DESC LIMIT 1',
    [ownerId, idOrTitle],
  );
  return row;
}

/** Group ids the user belongs to (for item visibility). */
export async function groupIdsOf(q: Queryable, userId: string): Promise<Set<string>> {
  const rows = await q.query<{ group_id: string }>('SELECT group_id FROM group_members WHERE user_id = $1', [userId]);
  return new Set(rows.map((r) => r.group_id));
}

/** A member's folders, oldest first. */
export async function foldersOf(q: Queryable, ownerId: string): Promise<FolderRow[]> {
  return q.query<FolderRow>('SELECT * FROM folders WHERE owner_id = $1 ORDER BY created, id', [ownerId]);
}

export async function itemExists(q: Queryable, id: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM items WHERE id = $1', [id])).length > 0;
}

/** Columns stored as jsonb: their values are JSON text, cast in the statement. */
export const JSONB_COLUMNS = new Set(['extent', 'properties', 'listing', 'service_proxy', 'service_credentials']);

export async function insertItemRow(q: Queryable, cols: Record<string, unknown>): Promise<void> {
  const names = Object.keys(cols);
  const values = names.map((n) => cols[n]);
  const placeholders = names.map((n, i) => (JSONB_COLUMNS.has(n) ? `$${i + 1}::jsonb` : `$${i + 1}`));
  await q.query(`INSERT INTO items (${names.join(', ')}) VALUES (${placeholders.join(', ')})`, values);
}

export async function updateItemRow(q: Queryable, id: string, cols: Record<string, unknown>): Promise<void> {
  const names = Object.keys(cols);
  if (!names.length) return;
  const sets = names.map((n, i) => `${n} = ${JSONB_COLUMNS.has(n) ? `$${i + 2}::jsonb` : `$${i + 2}`}`);
  await q.query(`UPDATE items SET ${sets.join(', ')} WHERE id = $1`, [id, ...names.map((n) => cols[n])]);
}

/**
 * Deletes an item row for good (its shares, parts, relationships cascade; its jobs outlive it, see
 * itemJobs.ts) and answers the blob keys to remove afterwards: its data, parts, info files, thumbnail
 * renditions and resources. Every path that removes an item (deleteItem past the recycle bin, a
 * cancelled upload, a failed download) collects the same keys; retention's stray sweep is only a
 * fallback.
 */
export async function deleteItemRow(q: Queryable, id: string): Promise<string[]> {
  const keys = await q.query<{ key: string }>(
    `SELECT data_blob AS key FROM items WHERE id = $1 AND data_blob IS NOT NULL
       UNION ALL SELECT blob_key FROM item_parts WHERE item_id = $1 AND blob_key IS NOT NULL
       UNION ALL SELECT blob_key FROM item_info_files WHERE item_id = $1
       UNION ALL SELECT blob_key FROM item_thumbnail_renditions WHERE item_id = $1
       UNION ALL SELECT blob_key FROM item_resources WHERE item_id = $1`,
    [id],
  );
  await q.query('DELETE FROM items WHERE id = $1', [id]);
  return keys.map((k) => k.key);
}
