/**
 * The reference index (migration 020, docs/dependencies.md "On the local portal"): an item's
 * references, read with the shared extractor from its data and URL, stored one row each, and its
 * service key, so that dependents are an index lookup. `indexItemReferences` runs inside the
 * transaction of every change that can alter them; `indexPendingItems` reads, at start-up, the
 * items no change has indexed yet (a database from before migration 020, an older extractor).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  MAX_REFERENCE_DATA_BYTES,
  referenceScanSlices,
  scanReferences,
  serviceKeyOf,
  TYPES_WITH_REFERENCES,
  type Reference,
  type ReferenceScan,
} from '../../../shared/references/references.ts';
import type { PortalContext } from '../../context.ts';
import { readBlob } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import { REFERENCE_PARSE_ON_THREAD_BYTES, scanOffThread } from './scanOffThread.ts';
import { foldTally } from './tally.ts';

/**
 * The extractor's version. Bump it whenever src/shared/references reads something new (or
 * differently): every item indexed with an older one is read again at the next start.
 */
export const REFERENCE_INDEX_VERSION = 1;

interface IndexedItemRow {
  id: string;
  org_id: string;
  type: string;
  url: string | null;
  type_keywords: string[];
  data_kind: 'none' | 'text' | 'file';
  data_text: string | null;
  data_blob: string | null;
  size: number;
}

const SELECT_INDEXED = `SELECT id, org_id, type, url, type_keywords, data_kind,
  CASE WHEN data_kind = 'text' AND type = ANY($2::text[]) AND size <= $3 THEN data_text END AS data_text,
  data_blob, size FROM items`;

type ItemFields = { id: string; type: string; url: string | null; typeKeywords: string[] };

/** The item's data text when it is read for references (its type may name items; not over LIMITS.referenceDataBytes). */
async function readItemText(ctx: PortalContext, row: IndexedItemRow): Promise<string | null> {
  if (!TYPES_WITH_REFERENCES.has(row.type) || row.size > MAX_REFERENCE_DATA_BYTES) return null;
  let text: string | null = null;
  if (row.data_kind === 'text') text = row.data_text;
  else if (row.data_kind === 'file' && row.data_blob) {
    try {
      text = (await readBlob(ctx.blobs, row.data_blob, MAX_REFERENCE_DATA_BYTES)).toString('utf8');
    } catch (err) {
      ctx.log.warn({ err, itemId: row.id }, 'could not read an item file for its references');
      return null;
    }
  }
  return text && text.length <= MAX_REFERENCE_DATA_BYTES ? text : null;
}

function parsed(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Data that is no JSON names nothing the extractor reads.
    return undefined;
  }
}

/**
 * The item's references. Text over REFERENCE_PARSE_ON_THREAD_BYTES is parsed and read on the
 * worker thread (scanOffThread.ts); shorter text is parsed here and read in slices with other work
 * let in between: item data is request data, and the walk (bounded in steps, LIMITS) must not hold
 * the event loop for the whole of it.
 */
async function scanItem(ctx: PortalContext, row: IndexedItemRow, item: ItemFields): Promise<ReferenceScan> {
  const text = await readItemText(ctx, row);
  if (text && text.length > REFERENCE_PARSE_ON_THREAD_BYTES) {
    try {
      return await scanOffThread(item, text);
    } catch (err) {
      // Not read again on this thread (that is what the worker is for): the item's own URL only, and the reason in the log.
      ctx.log.warn({ err, itemId: row.id }, 'could not read item data for its references on the worker thread');
      return scanReferences(item, undefined);
    }
  }
  // Larger text: other work first, so that parses of a batch's items do not run back to back.
  if (text && text.length > 64 * 1024) await nextTurn();
  const slices = referenceScanSlices(item, parsed(text));
  for (let r = slices.next(); ; r = slices.next()) {
    if (r.done) return r.value;
    await nextTurn();
  }
}

/** Replaces the items' rows with what their current data and URLs reference: three statements for the whole batch. */
async function writeReferences(ctx: PortalContext, q: Queryable, rows: readonly IndexedItemRow[]): Promise<void> {
  if (!rows.length) return;
  const refs: { itemId: string; orgId: string; ref: Reference }[] = [];
  const keys: (string | null)[] = [];
  for (const row of rows) {
    const item = { id: row.id, type: row.type, url: row.url, typeKeywords: row.type_keywords };
    const { references } = await scanItem(ctx, row, item);
    for (const ref of references) if (ref.source !== 'relationship') refs.push({ itemId: row.id, orgId: row.org_id, ref });
    keys.push(serviceKeyOf(item) ?? null);
  }
  const ids = rows.map((r) => r.id);
  await q.query('DELETE FROM item_references WHERE item_id = ANY($1::text[])', [ids]);
  if (refs.length) {
    await q.query(
      `INSERT INTO item_references (item_id, org_id, target_item, target_url, kind, path, value)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
      [
        refs.map((r) => r.itemId),
        refs.map((r) => r.orgId),
        refs.map(({ ref }) => (ref.target.type === 'item' ? ref.target.id : null)),
        refs.map(({ ref }) => (ref.target.type === 'url' ? ref.target.url : null)),
        refs.map(({ ref }) => ref.kind),
        refs.map(({ ref }) => ref.path),
        refs.map(({ ref }) => ref.value),
      ],
    );
  }
  await q.query(
    // A row is added with the item (migration 020's trigger); should it be missing, its modified is the item's (migration 024).
    `INSERT INTO item_reference_state (item_id, org_id, service_key, version, modified)
     SELECT t.item_id, t.org_id, t.service_key, $4, i.modified
       FROM unnest($1::text[], $2::text[], $3::text[]) AS t (item_id, org_id, service_key) JOIN items i ON i.id = t.item_id
     ON CONFLICT (item_id) DO UPDATE SET org_id = EXCLUDED.org_id, service_key = EXCLUDED.service_key, version = EXCLUDED.version`,
    [ids, rows.map((r) => r.org_id), keys, REFERENCE_INDEX_VERSION],
  );
}

const selectParams = () => [[...TYPES_WITH_REFERENCES], MAX_REFERENCE_DATA_BYTES];

/**
 * Reads the item's references again, inside the caller's transaction: call it after the change's
 * last write to the item's url, type or data (a later write would mark the item unindexed again).
 */
export async function indexItemReferences(ctx: PortalContext, q: Queryable, itemId: string): Promise<void> {
  const [row] = await q.query<IndexedItemRow>(`${SELECT_INDEXED} WHERE id = $1`, [itemId, ...selectParams()]);
  if (row) await writeReferences(ctx, q, [row]);
}

/** Items read per transaction at start-up. */
const START_BATCH = 500;

/**
 * Indexes every item whose references were not read with this extractor version, in batches of
 * START_BATCH, each its own transaction. Idempotent and safe with several instances on one
 * PostgreSQL: a batch claims its rows with FOR UPDATE SKIP LOCKED, so two instances never read the
 * same item and neither waits for the other. With nothing to do it costs one indexed query.
 * Answers how many items were indexed.
 */
export async function indexPendingItems(ctx: PortalContext, opts: { batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? START_BATCH;
  // Nothing to do (a fresh or up-to-date database): one look at the version index.
  const pending = await ctx.db.query('SELECT 1 FROM item_reference_state WHERE version < $1 LIMIT 1', [REFERENCE_INDEX_VERSION]);
  if (!pending.length) return 0;
  let done = 0;
  // Walks the items in id order, each batch starting after the last: every row is looked at once
  // (restarting from the first id would step over the rows already read, batch after batch).
  let after = '';
  for (;;) {
    const claimed = await ctx.db.tx(async (q) => {
      const ids = await q.query<{ item_id: string }>(
        `SELECT item_id FROM item_reference_state WHERE item_id > $1 AND version < $2 ORDER BY item_id LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [after, REFERENCE_INDEX_VERSION, batch],
      );
      if (!ids.length) return ids;
      const rows = await q.query<IndexedItemRow>(`${SELECT_INDEXED} WHERE id = ANY($1::text[])`, [ids.map((c) => c.item_id), ...selectParams()]);
      await writeReferences(ctx, q, rows);
      return ids;
    });
    if (!claimed.length) {
      // Each batch's recounts added to the organizations' tallies (migration 024): one row per count again.
      if (done) await foldTally(ctx.db, null);
      return done;
    }
    done += claimed.length;
    after = claimed[claimed.length - 1].item_id;
  }
}
