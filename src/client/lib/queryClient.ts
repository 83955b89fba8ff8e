/**
 * The React Query client: no retries for answers the portal gave on purpose (4xx), and any
 * 498/499 from any query or mutation (one the request core could not cure with a token refresh) ends
 * that portal's session (the app then sends the member to sign-in). A mutation's `meta.invalidates`
 * (lib/invalidation.ts) is carried out here, once for every mutation.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isSessionInvalid, NETWORK_ERROR } from '../api/index.ts';
import { invalidateFor } from './invalidation.ts';
import { expireSession, sessionPortalOf } from './session.ts';

export interface QueryClientOptions {
  onSessionInvalid?: (err: ApiError) => void;
  /** Tests turn retries off. */
  retry?: boolean;
}

export function shouldRetry(failureCount: number, err: unknown): boolean {
  if (err instanceof ApiError) {
    // Network failures and server faults may pass; the portal's refusals will not.
    return (err.code === NETWORK_ERROR || err.code >= 500) && failureCount < 2;
  }
  return failureCount < 1;
}

export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  const onSessionInvalid =
    options.onSessionInvalid ??
    ((err: ApiError) => {
      // The session of the portal the refused request went to: after a portal switch a late answer
      // from the previous portal must not end the new one; a portal without a session has none to end.
      const portal = sessionPortalOf(err.url);
      if (err.url && !portal) return;
      expireSession(undefined, portal);
    });
  const onError = (err: unknown) => {
    if (isSessionInvalid(err)) onSessionInvalid(err as ApiError);
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({
      // Awaited by the mutation: what it changed is read again before its own callbacks and `mutateAsync` resolve.
      onSuccess: (data, variables, _context, mutation) => invalidateFor(client, mutation.meta, variables, data),
      onError: (err, variables, _context, mutation) => {
        onError(err);
        return mutation.meta?.invalidatesOnError ? invalidateFor(client, mutation.meta, variables, undefined) : undefined;
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: options.retry === false ? false : shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
