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
  type ReferenceScan,
} from '../../../shared/references/references.ts';
import type { PortalContext } from '../../context.ts';
import { readBlob } from '../../store/blobs.ts';
import type { Queryable } from '../../store/db.ts';
import {
  anyItemIndexedBefore,
  claimItemsIndexedBefore,
  deleteReferencesOf,
  insertReferences,
  itemsToIndex,
  itemToIndex,
  upsertReferenceStates,
  type HeldReference,
  type IndexedItemRow,
} from './repo.ts';
import { REFERENCE_PARSE_ON_THREAD_BYTES, scanOffThread } from './scanOffThread.ts';
import { foldTally } from './tally.ts';

/**
 * The extractor's version. Bump it whenever src/shared/references reads something new (or
 * differently): every item indexed with an older one is read again at the next start.
 */
export const REFERENCE_INDEX_VERSION = 1;

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
  const refs: HeldReference[] = [];
  const keys: (string | null)[] = [];
  for (const row of rows) {
    const item = { id: row.id, type: row.type, url: row.url, typeKeywords: row.type_keywords };
    const { references } = await scanItem(ctx, row, item);
    for (const ref of references) if (ref.source !== 'relationship') refs.push({ itemId: row.id, orgId: row.org_id, ref });
    keys.push(serviceKeyOf(item) ?? null);
  }
  const ids = rows.map((r) => r.id);
  await deleteReferencesOf(q, ids);
  if (refs.length) await insertReferences(q, refs);
  await upsertReferenceStates(
    q,
    ids,
    rows.map((r) => r.org_id),
    keys,
    REFERENCE_INDEX_VERSION,
  );
}

/**
 * Reads the item's references again, inside the caller's transaction: call it after the change's
 * last write to the item's url, type or data (a later write would mark the item unindexed again).
 */
export async function indexItemReferences(ctx: PortalContext, q: Queryable, itemId: string): Promise<void> {
  const row = await itemToIndex(q, itemId);
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
  if (!(await anyItemIndexedBefore(ctx.db, REFERENCE_INDEX_VERSION))) return 0;
  let done = 0;
  // Walks the items in id order, each batch starting after the last: every row is looked at once
  // (restarting from the first id would step over the rows already read, batch after batch).
  let after = '';
  for (;;) {
    const claimed = await ctx.db.tx(async (q) => {
      const ids = await claimItemsIndexedBefore(q, after, REFERENCE_INDEX_VERSION, batch);
      if (!ids.length) return ids;
      const rows = await itemsToIndex(
        q,
        ids.map((c) => c.item_id),
      );
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
