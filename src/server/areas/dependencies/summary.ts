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
import { nodeOf, SELECT_NODE, type NodeRow } from './nodes.ts';
import { itemsWithDependents } from './tally.ts';
import { authorityGrants } from '../../http/authority.ts';
import { DEPENDENCY_OPERATIONS } from '../../../shared/contract/dependencies.ts';

/** Who may see item `a` of the caller's organization without viewItems: items/access.ts canViewItem, as search writes it (`me`: the caller's id). */
const mayView = (a: string, me: string) =>
  `(${a}.access IN ('public', 'org') OR ${a}.owner_id = ${me}
    OR EXISTS (SELECT 1 FROM item_shares vs JOIN group_members vm ON vm.group_id = vs.group_id WHERE vs.item_id = ${a}.id AND vm.user_id = ${me}))
   AND ${a}.status <> 'partial'`;

/** Item `i` is an app registered for OAuth sign-ins (oauth2/registerApp, or the console's own). */
const REGISTERED_APP = 'EXISTS (SELECT 1 FROM oauth_apps ra WHERE ra.item_id = i.id)';

/** The registered apps of organization $1 that nothing uses and are no open upload: those the unused view leaves out besides the uploads. */
const UNUSED_REGISTERED_APPS = `(SELECT count(*) FROM oauth_apps ra JOIN items i ON i.id = ra.item_id JOIN item_reference_state st ON st.item_id = i.id
   WHERE i.org_id = $1 AND i.status <> 'partial' AND st.dependents = 0)`;

/** The dependents of item `i` (its state row `st`) the caller may see: the recount of migration 023, visible ones only. */
const visibleDependents = (me: string) => `(SELECT count(*)::int FROM (
    SELECT r.item_id AS d FROM item_references r WHERE r.target_item = i.id AND r.org_id = i.org_id
    UNION SELECT r.item_id FROM item_references r WHERE st.service_key IS NOT NULL AND r.org_id = st.org_id AND r.target_url = st.service_key
    UNION SELECT l.origin_id FROM relationships l WHERE l.destination_id = i.id
  ) x JOIN items di ON di.id = x.d WHERE di.id <> i.id AND di.org_id = i.org_id AND ${mayView('di', me)})`;

export async function dependencySummary(ctx: PortalContext, caller: Caller, orgId: string, p: DependencySummaryParams): Promise<DependencySummaryAnswer> {
  if (orgId !== caller.orgId) throw forbidden("Another organization's dependencies cannot be read.");
  const seesAll = authorityGrants(DEPENDENCY_OPERATIONS.organizationDependencies, caller);
  // Only what the statement uses is bound: PostgreSQL refuses a parameter it cannot type.
  const params: unknown[] = [orgId];
  const bind = (v: unknown) => `$${params.push(v)}`;
  const me = seesAll ? '' : bind(caller.userId);
  // With viewItems every item of the organization is visible: only an open upload is not listed.
  // The state row's organization is the item's: named, so its indexes (migrations 023, 024) serve the view.
  const where = ['i.org_id = $1', 'st.org_id = $1', seesAll ? `i.status <> 'partial'` : mayView('i', me)];
  const filtered = !!(p.owners?.length || p.types?.length || p.modifiedBefore !== undefined);
  if (p.owners?.length)
    where.push(
      `i.owner_id IN (SELECT u.id FROM users u WHERE u.org_id = $1 AND lower(u.username) = ANY(${bind(p.owners.map((o) => o.toLowerCase()))}::text[]))`,
    );
  if (p.types?.length) where.push(`i.type = ANY(${bind(p.types)}::text[])`);
  if (p.modifiedBefore !== undefined) where.push(`i.modified < ${bind(p.modifiedBefore)}`);
  // The count this caller may know: all of them (viewItems, or their own item), or those they may see.
  const n = seesAll ? 'st.dependents' : `CASE WHEN i.owner_id = ${me} THEN st.dependents ELSE ${visibleDependents(me)} END`;
  let filter: string;
  let order: string;
  if (p.view === 'unused') {
    // No dependent at all has none visible either: the stored count decides most rows without a recount.
    // A registered app is used by its sign-ins, which no item's data names: never a clean-up candidate.
    filter = `${seesAll ? 'st.dependents = 0' : `(st.dependents = 0 OR (i.owner_id <> ${me} AND ${visibleDependents(me)} = 0))`} AND NOT ${REGISTERED_APP}`;
    // The state row's copy of modified (migration 024): with viewItems, a scan of its index of unused items.
    order = 'st.modified, st.item_id';
  } else {
    const min = bind(p.minDependents);
    // Visible dependents are some of all: the stored count rules out most rows first.
    filter = seesAll ? `st.dependents >= ${min}` : `st.dependents >= ${min} AND ${n} >= ${min}`;
    order = seesAll ? 'st.dependents DESC, st.item_id' : 'n DESC, i.id';
  }
  const from = `FROM items i JOIN item_reference_state st ON st.item_id = i.id WHERE ${where.join(' AND ')} AND ${filter}`;
  // The page, its node rows and what each uses in one statement: as three, the planning and the
  // round trips of the two lookups took about as long as finding the page.
  const page = await ctx.db.query<PageRow>(
    `WITH page AS MATERIALIZED (SELECT i.id, ${n} AS n ${from} ORDER BY ${order} OFFSET ${bind(p.start - 1)} LIMIT ${bind(p.num)}),
     ordered AS (SELECT page.*, row_number() OVER () AS ord FROM page)
     SELECT node.*, p.n, ${USES} AS uses FROM ordered p JOIN LATERAL (${SELECT_NODE} WHERE i.id = p.id) node ON true ORDER BY p.ord`,
    params,
  );
  const count = async (sql: string) => (await ctx.db.query<{ n: number }>(sql, params.slice(0, -2)))[0].n;
  // Unfiltered with viewItems: the organization's tally of counts (migration 024), less the open uploads (their own small index).
  const [min, max] = p.view === 'unused' ? [0, 0] : [p.minDependents, null];
  const total =
    seesAll && !filtered
      ? (await itemsWithDependents(ctx.db, orgId, min, max)) -
        (await count(
          // The unused view's registered apps are counted from oauth_apps (a few rows): tested on every
          // unused item of the organization, the EXISTS made this total most of the answer's time.
          `SELECT ((SELECT count(*) FROM items i JOIN item_reference_state st ON st.item_id = i.id
                     WHERE i.org_id = $1 AND i.status = 'partial' AND ${p.view === 'unused' ? 'st.dependents = 0' : filter})
                 + ${p.view === 'unused' ? UNUSED_REGISTERED_APPS : '0'})::int AS n`,
        ))
      : await count(`SELECT count(*)::int AS n ${from}`);
  const results = page.map(entryOf);
  return { view: p.view, ...pageEnvelope(total, p, results.length), results, graph: { source: 'portal' } };
}

/** A page row: the item's node row, its dependents (as counted for the caller) and how many items it uses. */
type PageRow = NodeRow & { n: number; uses: number };

/**
 * How many items page row `p` uses: distinct items named by id (the references folded per target,
 * migration 039), by a service key of its organization, or as a relationship's destination.
 */
const USES = `(SELECT count(DISTINCT u.to_id)::int FROM (
    SELECT t.id AS to_id FROM item_reference_edges r JOIN items t ON t.id = r.target_item WHERE r.item_id = p.id
    UNION ALL SELECT s.item_id FROM item_reference_edges r JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
               WHERE r.item_id = p.id AND r.target_url IS NOT NULL
    UNION ALL SELECT l.destination_id FROM relationships l WHERE l.origin_id = p.id
  ) u WHERE u.to_id <> p.id)`;

function entryOf({ n, uses, ...row }: PageRow): DependencySummaryEntry {
  return { ...nodeOf(row), created: Number(row.created), dependents: Number(n), dependencies: Number(uses) };
}
