/**
 * `fn` over `items`, at most `limit` at a time, the answers in the items' order. Planning reads
 * several things of each item from both portals; one at a time, a 200-item plan waits out each
 * round trip in turn, while a portal answers a few at once as easily as one.
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** How many reads a plan keeps in flight against one portal. */
export const PLAN_CONCURRENCY = 6;
