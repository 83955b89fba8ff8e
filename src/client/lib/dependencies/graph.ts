/**
 * The browser graph as one React Query query per portal and member: React Query shares it between
 * every page that asks (one build at a time), keeps it between pages, cancels the build when the
 * last page using it goes away (the query's AbortSignal), and brings it up to date when the
 * dependency keys are invalidated (an item change) or refresh() is asked for. The build's
 * progress, which a query cannot report, is kept here beside it.
 */
import { queryOptions } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { indexGraph, type GraphIndex } from './answers.ts';
import { buildGraph, type BuildProgress } from './build.ts';
import type { GraphSnapshot } from './records.ts';
import { graphDatabaseName, openGraphStore } from './store.ts';
import { dependencyKeys } from '../../api/queries/dependencies.ts';

export interface GraphOwner {
  portalUrl: string;
  username: string;
  orgId: string;
}

/** The last graph built per database (member and portal), so the next build starts from it without reading IndexedDB. */
const lastBuilt = new Map<string, GraphSnapshot>();
const progressOf = new Map<string, BuildProgress | undefined>();
const listeners = new Set<() => void>();

function setProgress(database: string, progress: BuildProgress | undefined) {
  progressOf.set(database, progress);
  for (const listener of listeners) listener();
}

/** Forget the in-memory graphs and their progress (signing out; the stored ones are deleted by the sign-out). */
export function forgetBrowserGraphs(): void {
  lastBuilt.clear();
  progressOf.clear();
}

/** Items change while a page is open: an answer older than this is brought up to date when a page asks again. */
export const BROWSER_GRAPH_STALE_MS = 5 * 60_000;

export const browserGraphQuery = (owner: GraphOwner) =>
  queryOptions<GraphIndex, Error>({
    queryKey: dependencyKeys.browserGraph(owner),
    queryFn: ({ signal }) => bringUpToDate(owner, signal),
    staleTime: BROWSER_GRAPH_STALE_MS,
    gcTime: 30 * 60_000,
    // The graph is large and made anew by each build: comparing it with the last one is wasted work.
    structuralSharing: false,
    // A failing search is the portal's answer (or no network): refresh() asks again.
    retry: false,
  });

async function bringUpToDate(owner: GraphOwner, signal: AbortSignal): Promise<GraphIndex> {
  const database = graphDatabaseName(owner.portalUrl, owner.username);
  setProgress(database, { read: 0, total: 0 });
  const store = await openGraphStore(owner.portalUrl, owner.username);
  try {
    const snapshot = await buildGraph({
      orgId: owner.orgId,
      store,
      previous: lastBuilt.get(database),
      signal,
      onProgress: (p) => setProgress(database, p),
    });
    lastBuilt.set(database, snapshot);
    return indexGraph(snapshot);
  } finally {
    store.close();
    setProgress(database, undefined);
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The running build's progress for this member's graph (undefined when none runs). */
export function useBuildProgress(owner: GraphOwner | undefined): BuildProgress | undefined {
  const database = owner ? graphDatabaseName(owner.portalUrl, owner.username) : '';
  return useSyncExternalStore(
    subscribe,
    () => progressOf.get(database),
    () => undefined,
  );
}
