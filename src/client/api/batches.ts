/**
 * Work on many things at once from the console: one operation per item (runBulk), or one request per
 * slice of a list the portal takes in bounded requests (inBatches: 25 names a group request, 100
 * items a reassign request — the API function splits the list, as arcgis-rest-js's `addGroupUsers`
 * does, so no caller needs to know the limit). Every item or slice keeps its own outcome: one
 * failure never stops the others. The console previews a bulk action, runs it, reports per row and
 * offers to retry the failed ones.
 */

export type BulkOutcome<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

export interface BulkOptions {
  /** Items worked on at the same time (default 1: one after another). */
  concurrency?: number;
  /** Called after each item with the number done so far. */
  onProgress?: (done: number, total: number) => void;
}

/** Runs `work` for every item; the outcomes come back in the items' order. */
export async function runBulk<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
  options: BulkOptions = {},
): Promise<BulkOutcome<T, R>[]> {
  const outcomes = new Array<BulkOutcome<T, R>>(items.length);
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, items.length || 1));
  let next = 0;
  let done = 0;
  options.onProgress?.(0, items.length);
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      try {
        outcomes[index] = { item, ok: true, value: await work(item, index) };
      } catch (error) {
        outcomes[index] = { item, ok: false, error };
      }
      done++;
      options.onProgress?.(done, items.length);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/** One request's slice of the list (`item`) and its answer, or why the whole request failed. */
export type BatchOutcome<T, R> = BulkOutcome<T[], R>;

export interface BatchProgress {
  /** Requests answered so far, of `batches`. */
  batchesDone: number;
  batches: number;
  /** Entries of the list those requests carried, of `total`. */
  done: number;
  total: number;
}

export interface BatchOptions {
  /** Called before the first request and after each one. */
  onProgress?: (progress: BatchProgress) => void;
}

/** Sends `all` in requests of at most `size` entries, one after another; outcomes in the list's order. */
export async function inBatches<T, R>(
  all: readonly T[],
  size: number,
  send: (batch: T[]) => Promise<R>,
  { onProgress }: BatchOptions = {},
): Promise<BatchOutcome<T, R>[]> {
  if (size < 1) throw new Error('batch size must be at least 1');
  const batches: T[][] = [];
  for (let i = 0; i < all.length; i += size) batches.push(all.slice(i, i + size));
  // One after another, every slice but the last full: the entries sent are the slices answered × size.
  return runBulk(batches, send, {
    onProgress: (batchesDone) => onProgress?.({ batchesDone, batches: batches.length, done: Math.min(all.length, batchesDone * size), total: all.length }),
  });
}
