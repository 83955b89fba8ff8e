/**
 * portals/<orgId>/dependencies: the organization's clean-up candidates (`unused`: items nothing
 * uses, oldest modified first) and its most used items (`usedByMany`: at least minDependents
 * dependents, most first). Only the caller's own organization; only items the caller may see are
 * listed. Paged like search (start 1-based, nextStart -1 at the end).
 *
 * Dependents are items of the organization (another organization's items naming one are none).
 * Administrators with viewItems and an item's owner count all of them, from the per-item counts
 * the index keeps (migration 023): a page of the view is a page of an index. Anyone else counts
 * the dependents they may see: a count never tells them of an item they cannot see (issue 35).
 * A registered app (an OAuth app item) is used by the sign-ins through it: it is never `unused`.
 */
import type { DependencySummaryAnswer, DependencySummaryEntry, DependencySummaryParams } from '../../../shared/contract/dependencies.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import { nodeOf } from './nodes.ts';
import { summaryCount, summaryPage, summaryUnlistedInTally, type SummaryAsk, type SummaryPageRow } from './repo.ts';
import { itemsWithDependents } from './tally.ts';
import type { Reach } from '../../http/reach.ts';

/** `reach`: what organizationDependencies' declaration reaches — every member's items, or only those the caller may see. */
export async function dependencySummary(
  ctx: PortalContext,
  caller: Caller,
  reach: Reach,
  orgId: string,
  p: DependencySummaryParams,
): Promise<DependencySummaryAnswer> {
  if (orgId !== caller.orgId) throw forbidden("Another organization's dependencies cannot be read.");
  const seesAll = reach.others(orgId);
  // Without viewItems, the caller counts only the dependents they may see.
  const ask: SummaryAsk = { orgId, viewerId: seesAll ? null : caller.userId, p };
  const filtered = !!(p.owners?.length || p.types?.length || p.modifiedBefore !== undefined);
  const page = await summaryPage(ctx.db, ask);
  // Unfiltered with viewItems: the organization's tally of counts (migration 024), less what it counts that the view does not list.
  const [min, max] = p.view === 'unused' ? [0, 0] : [p.minDependents, null];
  const total =
    seesAll && !filtered ? (await itemsWithDependents(ctx.db, orgId, min, max)) - (await summaryUnlistedInTally(ctx.db, ask)) : await summaryCount(ctx.db, ask);
  const results = page.map(entryOf);
  return { view: p.view, ...pageEnvelope(total, p, results.length), results, graph: { source: 'portal' } };
}

function entryOf({ n, uses, ...row }: SummaryPageRow): DependencySummaryEntry {
  return { ...nodeOf(row), created: Number(row.created), dependents: Number(n), dependencies: Number(uses) };
}
