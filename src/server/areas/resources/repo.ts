/** SQL for item resources (migration 027). */
import type { ResourceAccess } from '../../../shared/contract/resources.ts';
import type { Queryable } from '../../store/db.ts';

export interface ResourceRow {
  item_id: string;
  path: string;
  blob_key: string;
  size: number;
  access: ResourceAccess;
  created: number;
  modified: number;
}

/** The item's resources (or the one at `path`), by path. */
export async function resourcesOf(q: Queryable, itemId: string, path?: string): Promise<ResourceRow[]> {
  return path === undefined
    ? q.query<ResourceRow>('SELECT * FROM item_resources WHERE item_id = $1 ORDER BY path', [itemId])
    : q.query<ResourceRow>('SELECT * FROM item_resources WHERE item_id = $1 AND path = $2', [itemId, path]);
}

/** One resource row, replacing one at the same path. */
export async function insertResource(q: Queryable, r: ResourceRow): Promise<void> {
  await q.query(
    `INSERT INTO item_resources (item_id, path, blob_key, size, access, created, modified) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (item_id, path) DO UPDATE SET blob_key = EXCLUDED.blob_key, size = EXCLUDED.size, access = EXCLUDED.access, modified = EXCLUDED.modified`,
    [r.item_id, r.path, r.blob_key, r.size, r.access, r.created, r.modified],
  );
}

/** Removes the resource at `path`, or every resource of the item; answers the removed rows (their files leave the store afterwards). */
export async function deleteResourceRows(q: Queryable, itemId: string, path?: string): Promise<ResourceRow[]> {
  return path === undefined
    ? q.query<ResourceRow>('DELETE FROM item_resources WHERE item_id = $1 RETURNING *', [itemId])
    : q.query<ResourceRow>('DELETE FROM item_resources WHERE item_id = $1 AND path = $2 RETURNING *', [itemId, path]);
}

export async function resourceTotals(q: Queryable, itemId: string): Promise<{ count: number; bytes: number }> {
  const [row] = await q.query<{ count: number; bytes: number }>(
    'SELECT count(*)::int AS count, COALESCE(sum(size), 0)::bigint AS bytes FROM item_resources WHERE item_id = $1',
    [itemId],
  );
  return { count: Number(row.count), bytes: Number(row.bytes) };
}

/** Locks item `itemId` for the rest of the transaction: one change to its resources at a time. */
export async function lockItem(q: Queryable, itemId: string): Promise<void> {
  await q.query('SELECT 1 FROM items WHERE id = $1 FOR UPDATE', [itemId]);
}

export async function setResourceAccess(q: Queryable, itemId: string, path: string, access: string, now: number): Promise<void> {
  await q.query('UPDATE item_resources SET access = $3, modified = $4 WHERE item_id = $1 AND path = $2', [itemId, path, access, now]);
}

/** Records the bytes an item's resources hold (part of its size) and that it changed. */
export async function setItemResourcesSize(q: Queryable, itemId: string, bytes: number, now: number): Promise<void> {
  await q.query('UPDATE items SET resources_size = $2, modified = $3 WHERE id = $1', [itemId, bytes, now]);
}
