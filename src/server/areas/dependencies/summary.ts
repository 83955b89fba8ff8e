/**
 * portals/<orgId>/dependencies: the organization's clean-up candidates (`unused`: items nothing
 * uses, oldest modified first) and its most used items (`usedByMany`: at least minDependents
 * dependents, most first). Only the caller's own organization; only items the caller may see are
 * listed, but every dependent counts, seen or not: an item used only by something the caller cannot
 * see is still used. Paged like search (start 1-based, nextStart -1 at the end).
 */
import type { DependencySummaryAnswer, DependencySummaryEntry, DependencySummaryParams } from '../../../shared/contract/dependencies.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import { edgesInto, edgesOutOf } from './edges.ts';
import { nodeOf, SELECT_NODE, type NodeRow } from './nodes.ts';

/** Every (item, dependent) pair of the organization's items, each once, no item counted as its own dependent. */
const DEPENDENT_PAIRS = `
  SELECT r.target_item AS id, r.item_id AS from_id
    FROM item_references r JOIN items t ON t.id = r.target_item AND t.org_id = $2
  UNION
  SELECT s.item_id, r.item_id
    FROM item_reference_state s JOIN item_references r ON r.org_id = s.org_id AND r.target_url = s.service_key
   WHERE s.org_id = $2 AND s.service_key IS NOT NULL
  UNION
  SELECT l.destination_id, l.origin_id FROM relationships l JOIN items t ON t.id = l.destination_id AND t.org_id = $2`;

/**
 * The item `i` has no dependent (no other item naming it by id or by its service key, no
 * relationship's origin). Three NOT EXISTS joined by AND, not one NOT (… OR …): each is then an anti-join.
 */
const NO_DEPENDENT = `
  NOT EXISTS (SELECT 1 FROM item_references r WHERE r.target_item = i.id AND r.item_id <> i.id)
  AND NOT EXISTS (SELECT 1 FROM item_reference_state s JOIN item_references r ON r.org_id = s.org_id AND r.target_url = s.service_key
                   WHERE s.item_id = i.id AND s.service_key IS NOT NULL AND r.item_id <> i.id)
  AND NOT EXISTS (SELECT 1 FROM relationships l WHERE l.destination_id = i.id AND l.origin_id <> i.id)`;

export async function dependencySummary(ctx: PortalContext, caller: Caller, orgId: string, p: DependencySummaryParams): Promise<DependencySummaryAnswer> {
  if (orgId !== caller.orgId) throw forbidden("Another organization's dependencies cannot be read.");
  const params: unknown[] = [caller.userId, orgId, caller.privileges.has('portal:admin:viewItems')];
  const bind = (v: unknown) => `$${params.push(v)}`;
  // Who may see what: items/access.ts canViewItem, as search writes it in SQL.
  const where = [
    'i.org_id = $2',
    `(i.access = 'public' OR i.owner_id = $1 OR i.access = 'org' OR $3::boolean
      OR EXISTS (SELECT 1 FROM item_shares vs JOIN group_members vm ON vm.group_id = vs.group_id WHERE vs.item_id = i.id AND vm.user_id = $1))`,
    `i.status <> 'partial'`,
  ];
  if (p.owners?.length) where.push(`lower(o.username) = ANY(${bind(p.owners.map((o) => o.toLowerCase()))}::text[])`);
  if (p.types?.length) where.push(`i.type = ANY(${bind(p.types)}::text[])`);
  if (p.modifiedBefore !== undefined) where.push(`i.modified < ${bind(p.modifiedBefore)}`);
  const min = p.view === 'usedByMany' ? bind(p.minDependents) : '';
  // Offset and limit are bound last: countAll drops them.
  const offset = bind(p.start - 1);
  const limit = bind(p.num);
  const select = SELECT_NODE;

  let sql: string;
  if (p.view === 'unused') {
    sql = `${select} WHERE ${where.join(' AND ')} AND ${NO_DEPENDENT}`;
    sql = `SELECT x.*, count(*) OVER () AS total FROM (${sql}) x ORDER BY x.modified, x.id OFFSET ${offset} LIMIT ${limit}`;
  } else {
    const counted = `SELECT id, count(*)::int AS n FROM (${DEPENDENT_PAIRS}) d WHERE d.id <> d.from_id GROUP BY id HAVING count(*) >= ${min}`;
    sql = `SELECT x.*, count(*) OVER () AS total FROM (
             SELECT li.*, c.n FROM (${counted}) c
               JOIN LATERAL (${select} WHERE i.id = c.id AND ${where.join(' AND ')}) li ON true
           ) x ORDER BY x.n DESC, x.id OFFSET ${offset} LIMIT ${limit}`;
  }
  const rows = await ctx.db.query<NodeRow & { total: string | number }>(sql, params);
  // Past the last page the window has no row to carry the total: count it alone.
  const total = rows.length ? Number(rows[0].total) : p.start > 1 ? await countAll(ctx, sql, params) : 0;
  const results = await entries(ctx, rows);
  return { view: p.view, ...pageEnvelope(total, p, results.length), results, graph: { source: 'portal' } };
}

async function countAll(ctx: PortalContext, sql: string, params: unknown[]): Promise<number> {
  const unpaged = sql.replace(/ OFFSET \$\d+ LIMIT \$\d+$/, '');
  const [row] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${unpaged}) y`, params.slice(0, -2));
  return row.n;
}

/** Each listed item with its counts: every dependent (visible or not) and every item it uses. */
async function entries(ctx: PortalContext, rows: NodeRow[]): Promise<DependencySummaryEntry[]> {
  const ids = rows.map((r) => r.id);
  const [into, outOf] = await Promise.all([edgesInto(ctx.db, ids), edgesOutOf(ctx.db, ids)]);
  const distinct = (pairs: [string, string][]) => {
    const m = new Map<string, Set<string>>();
    for (const [k, v] of pairs) (m.get(k) ?? m.set(k, new Set()).get(k)!).add(v);
    return m;
  };
  const dependents = distinct(into.map((e) => [e.to, e.from]));
  const dependencies = distinct(outOf.map((e) => [e.from, e.to]));
  return rows.map((row) => ({
    ...nodeOf(row),
    created: Number(row.created),
    dependents: dependents.get(row.id)?.size ?? 0,
    dependencies: dependencies.get(row.id)?.size ?? 0,
  }));
}
