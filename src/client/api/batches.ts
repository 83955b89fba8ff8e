/**
 * Operations the portal takes a bounded list for (25 names a group request, 100 items a reassign
 * request): the API function splits the list and sends the requests one after another, so no
 * caller needs to know the limit — as arcgis-rest-js's `addGroupUsers` does. Each request keeps its
 * own outcome: one refused batch never stops the others.
 */

/** One request's slice of the list (`item`) and its answer, or why the whole request failed. */
export type BatchOutcome<T, R> = { item: T[]; ok: true; value: R } | { item: T[]; ok: false; error: unknown };

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
  const outcomes: BatchOutcome<T, R>[] = [];
  let done = 0;
  onProgress?.({ batchesDone: 0, batches: batches.length, done: 0, total: all.length });
  for (const batch of batches) {
    try {
      outcomes.push({ item: batch, ok: true, value: await send(batch) });
    } catch (error) {
      outcomes.push({ item: batch, ok: false, error });
    }
    done += batch.length;
    onProgress?.({ batchesDone: outcomes.length, batches: batches.length, done, total: all.length });
  }
  return outcomes;
}
