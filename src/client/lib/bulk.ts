/**
 * Bulk work: one operation per item (or per batch of items), a few at a time, with progress, and
 * an outcome for every item — a failure of one never stops the others. The console previews a bulk
 * action, runs it with this, reports per row and offers to retry the failed ones.
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
