/**
 * The recycle bin's SQL. A recycled item is its `items` row and the rows of every table that
 * references it (found from the schema's foreign keys, so a table added later is kept too), saved as
 * JSON in `recycled_items`; the rows then leave their tables, so no search, listing, group content
 * or dependency query needs to know about the bin. Restore inserts them back in the same order.
 */
import type { Queryable } from '../../store/db.ts';

/** Rows of an upload or a job in progress: not kept (only completed items are recycled). */
const TRANSIENT = new Set(['item_parts', 'item_store_uploads', 'item_jobs', 'proxy_hits']);
/** Columns that hold blob keys: the files a recycled item keeps. */
const BLOB_COLUMNS = ['data_blob', 'blob_key'];

type Snapshot = Record<string, Record<string, unknown>[]>;

export interface RecycledRow {
  id: string;
  org_id: string;
  owner_id: string;
  owner_username: string;
  title: string;
  type: string;
  folder_id: string | null;
  size: string | number;
  deleted: string | number;
  deleted_by: string | null;
  expires: string | number;
}

/** Tables (and their column) whose rows reference an item, from the schema's foreign keys. */
async function referencingTables(q: Queryable): Promise<{ tbl: string; col: string }[]> {
  const rows = await q.query<{ tbl: string; col: string }>(
    `SELECT cl.relname AS tbl, a.attname AS col
       FROM pg_constraint c
       JOIN pg_class cl ON cl.oid = c.conrelid
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'f' AND c.confrelid = 'items'::regclass
      ORDER BY cl.relname, a.attname`,
  );
  return rows.filter((r) => !TRANSIENT.has(r.tbl));
}

/** The item's rows and its dependants' rows, items first. */
export async function snapshotItem(q: Queryable, itemId: string): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  snapshot.items = (await q.query<{ r: Record<string, unknown> }>('SELECT to_jsonb(t) AS r FROM items t WHERE id = $1', [itemId])).map((x) => x.r);
  for (const { tbl, col } of await referencingTables(q)) {
    const rows = await q.query<{ r: Record<string, unknown> }>(`SELECT to_jsonb(t) AS r FROM ${tbl} t WHERE ${col} = $1`, [itemId]);
    const seen = new Set((snapshot[tbl] ?? []).map((r) => JSON.stringify(r)));
    snapshot[tbl] = [...(snapshot[tbl] ?? []), ...rows.map((x) => x.r).filter((r) => !seen.has(JSON.stringify(r)))];
  }
  return snapshot;
}

function blobKeysOf(snapshot: Snapshot): string[] {
  const keys = new Set<string>();
  for (const rows of Object.values(snapshot)) {
    for (const row of rows) for (const c of BLOB_COLUMNS) if (typeof row[c] === 'string') keys.add(row[c]);
  }
  return [...keys];
}

async function insertableColumns(q: Queryable, table: string): Promise<string[]> {
  const rows = await q.query<{ name: string }>(
    `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

async function insertRows(q: Queryable, table: string, rows: Record<string, unknown>[]): Promise<void> {
  const cols = (await insertableColumns(q, table)).map((c) => `"${c}"`).join(', ');
  await q.query(`INSERT INTO ${table} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb) ON CONFLICT DO NOTHING`, [
    JSON.stringify(rows),
  ]);
}

/**
 * Puts the rows back: the item first, then each table's. A row whose other end is gone (a group
 * deleted since, a related item still in the bin) cannot come back and is left out; the rest of its
 * table still does. Answers how many rows were left out.
 */
export async function restoreSnapshot(q: Queryable, snapshot: Snapshot, folderId: string | null): Promise<number> {
  const [item] = snapshot.items;
  await insertRows(q, 'items', [{ ...item, folder_id: folderId }]);
  let skipped = 0;
  for (const [table, rows] of Object.entries(snapshot)) {
    if (table === 'items' || !rows.length) continue;
    await q.query('SAVEPOINT recycle_table');
    try {
      await insertRows(q, table, rows);
      await q.query('RELEASE SAVEPOINT recycle_table');
      continue;
    } catch {
      await q.query('ROLLBACK TO SAVEPOINT recycle_table');
    }
    for (const row of rows) {
      await q.query('SAVEPOINT recycle_row');
      try {
        await insertRows(q, table, [row]);
        await q.query('RELEASE SAVEPOINT recycle_row');
      } catch {
        await q.query('ROLLBACK TO SAVEPOINT recycle_row');
        skipped++;
      }
    }
  }
  // The item's insert trigger starts its reference state at "not read yet"; the saved one was read.
  const [state] = snapshot.item_reference_state ?? [];
  if (state) {
    await q.query('UPDATE item_reference_state SET service_key = $2, version = $3 WHERE item_id = $1', [state.item_id, state.service_key, state.version]);
  }
  return skipped;
}

export async function insertRecycled(
  q: Queryable,
  r: Omit<RecycledRow, 'size' | 'deleted' | 'expires'> & { size: number; deleted: number; expires: number },
  snapshot: Snapshot,
): Promise<void> {
  await q.query(
    `INSERT INTO recycled_items (id, org_id, owner_id, owner_username, title, type, folder_id, size, deleted, deleted_by, expires, snapshot)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)`,
    [r.id, r.org_id, r.owner_id, r.owner_username, r.title, r.type, r.folder_id, r.size, r.deleted, r.deleted_by, r.expires, JSON.stringify(snapshot)],
  );
  const keys = blobKeysOf(snapshot);
  if (keys.length) {
    await q.query('INSERT INTO recycled_item_blobs (item_id, blob_key) SELECT $1, k FROM unnest($2::text[]) AS k ON CONFLICT DO NOTHING', [r.id, keys]);
  }
}

/** The recycled item, locked for the transaction (restore, permanent delete). */
export async function lockRecycled(q: Queryable, id: string): Promise<(RecycledRow & { snapshot: Snapshot }) | undefined> {
  const [row] = await q.query<RecycledRow & { snapshot: Snapshot }>('SELECT * FROM recycled_items WHERE id = $1 FOR UPDATE', [id]);
  return row;
}

export async function findRecycled(q: Queryable, id: string): Promise<RecycledRow | undefined> {
  const [row] = await q.query<RecycledRow>(
    'SELECT id, org_id, owner_id, owner_username, title, type, folder_id, size, deleted, deleted_by, expires FROM recycled_items WHERE id = $1',
    [id],
  );
  return row;
}

/** Removes the entry; answers the blob keys no other row (a restored copy, another entry) still holds. */
export async function removeRecycled(q: Queryable, id: string): Promise<string[]> {
  const keys = await q.query<{ blob_key: string }>('DELETE FROM recycled_item_blobs WHERE item_id = $1 RETURNING blob_key', [id]);
  await q.query('DELETE FROM recycled_items WHERE id = $1', [id]);
  return keys.map((k) => k.blob_key);
}

interface RecycledPageQuery {
  orgId: string;
  now: number;
  ownerId?: string;
  types?: string[];
  desc: boolean;
  start: number;
  num: number;
}

export async function listRecycled(q: Queryable, p: RecycledPageQuery): Promise<{ total: number; rows: RecycledRow[] }> {
  const where = ['org_id = $1', 'expires > $2'];
  const args: unknown[] = [p.orgId, p.now];
  if (p.ownerId) where.push(`owner_id = $${args.push(p.ownerId)}`);
  if (p.types?.length) where.push(`type = ANY($${args.push(p.types)}::text[])`);
  const sql = where.join(' AND ');
  const [{ n }] = await q.query<{ n: string }>(`SELECT count(*) AS n FROM recycled_items WHERE ${sql}`, args);
  const rows = await q.query<RecycledRow>(
    `SELECT id, org_id, owner_id, owner_username, title, type, folder_id, size, deleted, deleted_by, expires FROM recycled_items
      WHERE ${sql} ORDER BY deleted ${p.desc ? 'DESC' : 'ASC'}, id LIMIT $${args.push(p.num)} OFFSET $${args.push(p.start - 1)}`,
    args,
  );
  return { total: Number(n), rows };
}

/** Entries past their retention, claimed so two instances never purge the same one. */
export async function claimExpired(q: Queryable, now: number, batch: number): Promise<RecycledRow[]> {
  return q.query<RecycledRow>(
    `SELECT id, org_id, owner_id, owner_username, title, type, folder_id, size, deleted, deleted_by, expires FROM recycled_items
      WHERE expires <= $1 ORDER BY expires LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, batch],
  );
}

/** Deletes the live item row (its referencing rows go with it by their foreign keys), once it is saved in the bin. */
export async function deleteItemRow(q: Queryable, itemId: string): Promise<void> {
  await q.query('DELETE FROM items WHERE id = $1', [itemId]);
}

export async function userExists(q: Queryable, userId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  return rows.length > 0;
}

export async function itemExists(q: Queryable, itemId: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM items WHERE id = $1', [itemId]);
  return rows.length > 0;
}

/** The id of the member of `orgId` named `username` (any case). */
export async function findMemberIdByUsername(q: Queryable, orgId: string, username: string): Promise<string | undefined> {
  const [u] = await q.query<{ id: string }>('SELECT id FROM users WHERE org_id = $1 AND lower(username) = lower($2)', [orgId, username]);
  return u?.id;
}
