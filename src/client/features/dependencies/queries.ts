/**
 * The dependency answers every page and confirm step reads. Where they come from is chosen here,
 * once: a portal that offers the local extras (portals/self `localExtras`) answers with its own
 * operations over its reference index; any other portal (ArcGIS Online or Enterprise, or the local
 * one with LOCAL_EXTRAS=off) has no such operations, and the console builds the same answers in
 * this browser (src/client/lib/dependencies). Both give the shapes of
 * src/shared/contract/dependencies.ts; `graph.source` says which.
 */
import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { DependencyAnswer, DependencySummaryAnswer } from '../../../shared/contract/dependencies.ts';
import type { DependencySummaryReadParams } from '../../api/index.ts';
import { usePortalCapabilities } from '../../lib/capabilities.ts';
import { dependencyAnswerOf, dependencySummaryOf, type GraphIndex } from '../../lib/dependencies/answers.ts';
import { browserGraphQuery, useBuildProgress, type GraphOwner } from '../../lib/dependencies/graph.ts';
import { useSession } from '../../lib/session.ts';
import { dependencyKeys, dependencySummaryQuery, impactQuery, itemDependenciesQuery } from '../../api/queries/dependencies.ts';

type Source = 'portal' | 'browser' | 'unknown';

/** Which source answers, and whose browser graph it would be. */
function useSource(): { source: Source; owner?: GraphOwner } {
  const caps = usePortalCapabilities();
  const session = useSession();
  const portalUrl = session?.portalUrl;
  const username = session?.user.username;
  const orgId = session?.user.orgId;
  const owner = useMemo(() => (portalUrl && username && orgId ? { portalUrl, username, orgId } : undefined), [portalUrl, username, orgId]);
  if (!caps.known) return { source: 'unknown', owner };
  return { source: caps.localExtras ? 'portal' : 'browser', owner };
}

/** The browser graph, answered through `select` (the graph is built once, each answer computed from it). */
function useBrowserAnswer<T>(owner: GraphOwner | undefined, enabled: boolean, select: (graph: GraphIndex) => T): UseQueryResult<T, Error> {
  const options = owner ? browserGraphQuery(owner) : browserGraphQuery({ portalUrl: '', username: '', orgId: '' });
  return useQuery({ ...options, enabled: enabled && !!owner, select });
}

/** A list held in a key as comma-joined text (usernames and item types hold no commas), back as a list. */
const listOf = (key: string | undefined) => (key ? key.split(',') : undefined);

/** What an item uses ('uses') or what uses it ('usedBy'); transitive = everything further along. */
export function useItemDependencies(
  itemId: string | undefined,
  direction: 'uses' | 'usedBy',
  options?: { transitive?: boolean; enabled?: boolean },
): UseQueryResult<DependencyAnswer, Error> {
  const { source, owner } = useSource();
  const transitive = options?.transitive === true;
  const enabled = (options?.enabled ?? true) && !!itemId;
  const portal = useQuery({
    ...itemDependenciesQuery(itemId, direction, transitive),
    enabled: enabled && source === 'portal',
  });
  const select = useCallback((graph: GraphIndex) => dependencyAnswerOf(graph, itemId!, direction, { transitive }), [itemId, direction, transitive]);
  const browser = useBrowserAnswer(owner, enabled && source === 'browser', select);
  return source === 'browser' ? browser : portal;
}

/** The organization view: clean-up candidates (unused) and most used items. */
export function useDependencySummary(params: DependencySummaryReadParams, options?: { enabled?: boolean }): UseQueryResult<DependencySummaryAnswer, Error> {
  const { source, owner } = useSource();
  const enabled = options?.enabled ?? true;
  const { view, owners, types, modifiedBefore, start, num } = params;
  const ownersKey = owners?.join(',');
  const typesKey = types?.join(',');
  const portal = useQuery({
    ...dependencySummaryQuery(owner?.orgId, { view, owners: listOf(ownersKey), types: listOf(typesKey), modifiedBefore, start, num }),
    enabled: enabled && source === 'portal',
  });
  const select = useCallback(
    (graph: GraphIndex) => dependencySummaryOf(graph, { view, owners: listOf(ownersKey), types: listOf(typesKey), modifiedBefore, start, num }),
    [view, ownersKey, typesKey, modifiedBefore, start, num],
  );
  const browser = useBrowserAnswer(owner, enabled && source === 'browser', select);
  return source === 'browser' ? browser : portal;
}

/** For confirm steps: what depends on each of these items, transitively (one answer per item, same order). */
export function useImpact(itemIds: readonly string[], options?: { enabled?: boolean }): UseQueryResult<DependencyAnswer[], Error> {
  const { source, owner } = useSource();
  const enabled = (options?.enabled ?? true) && itemIds.length > 0;
  const idsKey = itemIds.join(',');
  const portal = useQuery({
    ...impactQuery(idsKey.split(',')),
    enabled: enabled && source === 'portal',
  });
  const select = useCallback((graph: GraphIndex) => idsKey.split(',').map((id) => dependencyAnswerOf(graph, id, 'usedBy', { transitive: true })), [idsKey]);
  const browser = useBrowserAnswer(owner, enabled && source === 'browser', select);
  return source === 'browser' ? browser : portal;
}

/** The answers of several queries as one (a stable function: TanStack keeps its result while they do not change). */
const combineAnswers = (results: readonly UseQueryResult<DependencyAnswer, Error>[]) => ({
  data: results.every((r) => r.data) ? results.map((r) => r.data!) : undefined,
  isPending: results.some((r) => r.isPending),
  error: results.find((r) => r.error)?.error ?? null,
});

/**
 * For a transfer's pre-check: what each of these items uses directly (one answer per item, same
 * order). The portal answers each item's `dependencies`; the browser graph answers them all at once.
 */
export function useItemsUse(
  itemIds: readonly string[],
  options?: { enabled?: boolean },
): { data?: DependencyAnswer[]; isPending: boolean; error: Error | null } {
  const { source, owner } = useSource();
  const enabled = (options?.enabled ?? true) && itemIds.length > 0;
  const idsKey = itemIds.join(',');
  const portal = useQueries({
    queries: itemIds.map((id) => ({ ...itemDependenciesQuery(id, 'uses', false), enabled: enabled && source === 'portal' })),
    combine: combineAnswers,
  });
  const select = useCallback((graph: GraphIndex) => idsKey.split(',').map((id) => dependencyAnswerOf(graph, id, 'uses', { transitive: false })), [idsKey]);
  const browser = useBrowserAnswer(owner, enabled && source === 'browser', select);
  if (source === 'browser') return { data: browser.data, isPending: browser.isPending, error: browser.error };
  return portal;
}

/** Where the answers come from and how fresh they are; for the browser graph, building progress and a refresh. */
export function useDependencyGraph(): {
  source: 'portal' | 'browser';
  building: boolean;
  progress?: { read: number; total: number };
  builtAt?: number;
  error?: Error;
  refresh(): void;
} {
  const { source, owner } = useSource();
  const queryClient = useQueryClient();
  const graph = useBrowserAnswer(owner, source === 'browser', selectGraph);
  const progress = useBuildProgress(source === 'browser' ? owner : undefined);
  const refresh = useCallback(() => {
    if (source === 'browser' && owner) void queryClient.refetchQueries({ queryKey: dependencyKeys.browserGraph(owner) });
    else void queryClient.invalidateQueries({ queryKey: dependencyKeys.all });
  }, [queryClient, source, owner]);
  if (source !== 'browser') return { source: 'portal', building: false, refresh };
  return {
    source: 'browser',
    building: graph.isFetching,
    progress: graph.isFetching && progress && progress.total ? progress : undefined,
    builtAt: graph.data?.meta.builtAt,
    error: graph.error ?? undefined,
    refresh,
  };
}

const selectGraph = (graph: GraphIndex) => graph.snapshot;
