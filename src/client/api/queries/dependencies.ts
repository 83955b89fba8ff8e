/**
 * Dependencies: the one key factory for every dependency answer (the portal's operations and the
 * graph built in this browser) and the read options of the portal's operations. Item changes that
 * can alter references (data, sharing, status, owner, deletion) invalidate `dependencyKeys.all`.
 */
import { queryOptions } from '@tanstack/react-query';
import type { DependencyAnswer } from '../../../shared/contract/dependencies.ts';
import { getDependencySummary, getItemDependencies, getItemDependents, type DependencySummaryReadParams } from '../dependencies.ts';

type Direction = DependencyAnswer['direction'];

export const dependencyKeys = {
  all: ['dependencies'] as const,
  item: (itemId: string | undefined, direction: Direction, transitive: boolean) => ['dependencies', 'portal', 'item', itemId, direction, transitive] as const,
  summary: (orgId: string | undefined, params: DependencySummaryReadParams) => ['dependencies', 'portal', 'summary', orgId, params] as const,
  impact: (itemIds: readonly string[]) => ['dependencies', 'portal', 'impact', itemIds] as const,
  /** The graph built in this browser, one per portal and member. */
  browserGraph: (owner: { portalUrl: string; username: string; orgId: string }) =>
    ['dependencies', 'browserGraph', owner.portalUrl, owner.username, owner.orgId] as const,
};

function readItemAnswer(itemId: string, direction: Direction, transitive: boolean, signal?: AbortSignal): Promise<DependencyAnswer> {
  const read = direction === 'uses' ? getItemDependencies : getItemDependents;
  return read(itemId, { transitive }, { signal });
}

/** What an item uses ('uses') or what uses it ('usedBy'), as the portal answers it. */
export const itemDependenciesQuery = (itemId: string | undefined, direction: Direction, transitive: boolean) =>
  queryOptions({
    queryKey: dependencyKeys.item(itemId, direction, transitive),
    queryFn: ({ signal }) => readItemAnswer(itemId!, direction, transitive, signal),
  });

/** The organization view as the portal answers it: clean-up candidates (unused) and most used items. */
export const dependencySummaryQuery = (orgId: string | undefined, params: DependencySummaryReadParams) =>
  queryOptions({
    queryKey: dependencyKeys.summary(orgId, params),
    queryFn: ({ signal }) => getDependencySummary(orgId ?? 'self', params, { signal }),
  });

/** What depends on each of these items, transitively (one answer per item, same order). */
export const impactQuery = (itemIds: readonly string[]) =>
  queryOptions({
    queryKey: dependencyKeys.impact(itemIds),
    queryFn: ({ signal }) => Promise.all(itemIds.map((id) => readItemAnswer(id, 'usedBy', true, signal))),
  });
