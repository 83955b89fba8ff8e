/**
 * What a write makes stale, declared on the mutation (`meta.invalidates`) and carried out once, by
 * the QueryClient's MutationCache (lib/queryClient.ts). A mutation names the reads it changes by
 * their resource's key factory (api/queries/*), so no feature imports another to refresh it.
 */
import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';

/** A read to refresh: its key (prefix), optionally narrowed, optionally left to refresh in the background. */
export type InvalidationTarget =
  | QueryKey
  | {
      queryKey: QueryKey;
      /** Leave out some queries under the key (a deleted record is not read again). */
      predicate?: (query: Query) => boolean;
      /** Not awaited by the mutation: a slow read (the browser graph) must not hold the form. */
      background?: boolean;
    };

export interface InvalidationMeta {
  /** The reads this write makes stale; as a function when they depend on what was written. */
  invalidates?: readonly (InvalidationTarget | undefined)[] | ((variables: never, data: never) => readonly (InvalidationTarget | undefined)[]);
  /** Refresh after a failure too: the write may have been partly done (batches, two-step saves). */
  invalidatesOnError?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: InvalidationMeta;
  }
}

/** Invalidates what `meta` names; resolves when the awaited reads answered. */
export function invalidateFor(client: QueryClient, meta: InvalidationMeta | undefined, variables: unknown, data: unknown): Promise<unknown> {
  const declared = meta?.invalidates;
  if (!declared) return Promise.resolve();
  const targets =
    typeof declared === 'function' ? (declared as (v: unknown, d: unknown) => readonly (InvalidationTarget | undefined)[])(variables, data) : declared;
  const awaited: Promise<unknown>[] = [];
  for (const target of targets) {
    if (!target) continue;
    if (Array.isArray(target)) {
      awaited.push(client.invalidateQueries({ queryKey: target }));
      continue;
    }
    const { queryKey, predicate, background } = target as Exclude<InvalidationTarget, QueryKey>;
    const done = client.invalidateQueries({ queryKey, predicate });
    if (!background) awaited.push(done);
  }
  return Promise.all(awaited);
}
