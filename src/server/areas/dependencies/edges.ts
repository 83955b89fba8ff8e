/**
 * One step of the reference graph, read from the index (migration 020) and the relationships
 * table: the references into a set of items (their dependents) or out of it (what they use). An id
 * reference names the item with that id (of any organization); a URL reference names every item of
 * the using item's organization whose service key is that URL; a relationship's origin uses its
 * destination. An item naming itself (a layer item whose URL is its own service) is no edge.
 *
 * A step reads at most `maxRows` reference rows and folds them into one edge per (from, to, kind)
 * with their count, in the database: data that names one item 2,000 times is one edge, and no step
 * reads more than its bound however the data repeats (issue 35). The same statement reads the node
 * rows of the items the step meets for the first time (those not in `known`), so that a level of
 * the walk is one query: reading their visibility apart doubled the queries of a level, and at a
 * hot layer's few hundred dependents the planning and round trips were most of the answer's time.
 */
import type { DependencyEdge } from '../../../shared/contract/dependencies.ts';
import type { ReferenceKind } from '../../../shared/references/references.ts';
import type { Queryable } from '../../store/db.ts';
import { NODE_TUPLE, nodeRowOf, SELECT_NODE, type NodeRow, type NodeTuple } from './nodes.ts';

/** An edge as the step's statement gives it: [from, to, kind, count, example, relationship type]. */
type EdgeTuple = [string, string, ReferenceKind, number, string, string | null];

/** A URL the item uses, with the items it resolved to (none: no service item has that key). */
export interface UrlReference {
  from: string;
  url: string;
  kind: ReferenceKind;
  value: string;
  /** Ids of the items with that service key. */
  resolved: string[];
}

/** One step's edges, whether its bound on rows left references unread, and the items it met first. */
export interface Step {
  edges: DependencyEdge[];
  cut: boolean;
  /** Node rows of the ends the walk goes on to that were not `known`, by id (an id naming no item has none). */
  met: Map<string, NodeRow>;
  /**
   * Dependents met that no item of their organization uses (the index's count, migration 023):
   * a step from them would find nothing, and the walk takes none. Empty for what items use.
   */
  leaves: Set<string>;
}

/** Which end of an edge the walk goes on to: the dependent (`from`) or the item used (`to`). */
type Onward = 'from_id' | 'to_id';

/**
 * `= ANY(…)` of a text[] parameter the planner cannot look into. Given the array itself, it
 * estimates each element against the column's statistics: with a frontier of a few hundred ids
 * that estimate cost more than reading their references (5–10 ms of a hot layer's step on the
 * embedded database). Read as an InitPlan, the array still drives the same index scans.
 */
const anyOf = (param: string) => `ANY(ARRAY(SELECT unnest(${param}::text[])))`;

/**
 * The frontier's ids as rows `f (id)` for perId. Read through an InitPlan, the planner takes them
 * for a hundred: given the array, it counted on a handful of rows and sorted them to fold them,
 * where hashing the ring's 2,000 to 4,000 rows is the cheaper (3 ms a step on the embedded database).
 */
const frontier = (param: string) => `unnest(ARRAY(SELECT unnest(${param}::text[]))) AS f (id)`;

/**
 * The id references of one frontier item (`f.id`), read by an index scan that stops once the
 * step's bound is reached: for each id in turn, so a step of the adversarial ring reads its
 * 4,000 rows and no more. Over the whole array at once, it was planned either as a bitmap of
 * every matching row (58,000 for thirty maps) or, with the ids given to the planner, as a scan of
 * the table; the estimates then decided which.
 */
const perId = (columns: string, where: string, maxRows: number) => `SELECT ${columns} FROM item_references WHERE ${where} LIMIT ${maxRows + 1}`;

const NO_STEP = (): Step => ({ edges: [], cut: false, met: new Map(), leaves: new Set() });

/** The example is the path and value joined by U+0001 (in neither: a JSON Pointer and a string of item data as indexed). */
function toEdge([from, to, kind, count, example, relationshipType]: EdgeTuple): DependencyEdge {
  const cut = example.indexOf('\u0001');
  return {
    from,
    to,
    kind,
    count,
    path: example.slice(0, cut),
    value: example.slice(cut + 1),
    ...(relationshipType !== null ? { relationshipType } : {}),
  };
}

/**
 * The rows of `union` (from_id, to_id, kind, path, value, relationship_type), at most maxRows + 1
 * of them read, folded per (from, to, kind): the example is the first by path. With them, the node
 * rows of the `onward` ends not in `known`.
 *
 * The answer is one row of two JSON arrays (edges, node rows): the embedded database hands each
 * column of each row to JavaScript apart, and for a hot layer's few hundred edges and items that
 * cost more than reading them (one JSON text is parsed at once, in both adapters).
 */
async function fold(q: Queryable, union: string, params: unknown[], maxRows: number, onward: Onward, known: readonly string[]): Promise<Step> {
  // A dependent's own dependents are those of its organization (the walk's): the count the index keeps for it.
  const dependents = onward === 'from_id' ? '(SELECT st.dependents FROM item_reference_state st WHERE st.item_id = node.id)' : 'NULL::int';
  const [row] = await q.query<{ edges: EdgeTuple[] | null; nodes: [NodeTuple, number | null][] | null }>(
    // The example: the least path, with its value (one string per row, so a plain min picks both).
    `WITH e AS MATERIALIZED (
       SELECT from_id, to_id, kind, count(*)::int AS n, min(path || chr(1) || value) AS example, min(relationship_type) AS relationship_type
         FROM (SELECT * FROM (${union}) u WHERE from_id <> to_id LIMIT ${maxRows + 1}) r
        GROUP BY from_id, to_id, kind),
     -- The ids as one array (ARRAY(…) is computed first): read through the primary key's index. A
     -- join of items with the edges was planned as a scan of every item and its shares.
     node AS (${SELECT_NODE} WHERE i.id = ANY(ARRAY(SELECT DISTINCT ${onward} FROM e WHERE ${onward} <> ALL($${params.length + 1}::text[]))))
     SELECT (SELECT json_agg(json_build_array(from_id, to_id, kind, n, example, relationship_type) ORDER BY from_id, to_id, kind) FROM e) AS edges,
            (SELECT json_agg(json_build_array(${NODE_TUPLE}, ${dependents})) FROM node) AS nodes`,
    [...params, known],
  );
  const edges = (row.edges ?? []).map(toEdge);
  const met = new Map((row.nodes ?? []).map(([t]) => [t[0], nodeRowOf(t)]));
  const leaves = new Set((row.nodes ?? []).filter(([, n]) => n === 0).map(([t]) => t[0]));
  const read = edges.reduce((sum, e) => sum + e.count, 0);
  return { edges, cut: read > maxRows, met, leaves };
}

/**
 * The references whose target is one of `ids`: `from` is the dependent. With `orgId`, only
 * references held by items of that organization (another organization's items are no dependents
 * in this organization's answers). `met`: the dependents not in `known`. `withUrl`: the ids that
 * may be services (items with a URL): only their service keys are looked up for URL references.
 */
export async function edgesInto(
  q: Queryable,
  ids: readonly string[],
  maxRows: number,
  orgId: string | null,
  known: readonly string[] = [],
  withUrl: readonly string[] = ids,
): Promise<Step> {
  if (!ids.length) return NO_STEP();
  return fold(
    q,
    `SELECT r.item_id AS from_id, f.id AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM ${frontier('$1')}
       CROSS JOIN LATERAL (${perId('item_id, kind, path, value', 'target_item = f.id AND item_id <> f.id AND ($2::text IS NULL OR org_id = $2)', maxRows)}) r
     UNION ALL
     SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
       -- Each of the ids with a URL by the primary key (OFFSET 0: not flattened). Planned as a join,
       -- it was a scan of every state row (24–40 ms at 20,000 items) for the few ids that are services.
       FROM unnest($3::text[]) AS f (id)
       CROSS JOIN LATERAL (SELECT item_id, org_id, service_key FROM item_reference_state
                            WHERE item_id = f.id AND service_key IS NOT NULL OFFSET 0) s
       JOIN item_references r ON r.org_id = s.org_id AND r.target_url = s.service_key
     UNION ALL
     SELECT l.origin_id, l.destination_id, 'relationship', '', '', l.type
       FROM relationships l JOIN items o ON o.id = l.origin_id
      WHERE l.destination_id = ${anyOf('$1')} AND ($2::text IS NULL OR o.org_id = $2)`,
    [ids, orgId, withUrl],
    maxRows,
    'from_id',
    known,
  );
}

/** Every reference held by one of `ids` that names an item: `to` is what it uses. `met`: those used, not in `known`. */
export async function edgesOutOf(q: Queryable, ids: readonly string[], maxRows: number, known: readonly string[] = []): Promise<Step> {
  if (!ids.length) return NO_STEP();
  return fold(
    q,
    // An id naming no item is met by the walk and left there (nodes.ts finds no row for it).
    `SELECT f.id AS from_id, r.target_item AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM ${frontier('$1')}
       CROSS JOIN LATERAL (${perId('target_item, kind, path, value', 'item_id = f.id AND target_item IS NOT NULL AND target_item <> f.id', maxRows)}) r
     UNION ALL
     SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
       FROM item_references r
       JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
      WHERE r.item_id = ${anyOf('$1')} AND r.target_url IS NOT NULL
     UNION ALL
     SELECT origin_id, destination_id, 'relationship', '', '', type FROM relationships WHERE origin_id = ${anyOf('$1')}`,
    [ids],
    maxRows,
    'to_id',
    known,
  );
}

/**
 * The URL references held by `ids` (at most `maxRows`, one per holder, URL and kind), each with the
 * items (of the holder's organization) it resolves to.
 */
export async function urlReferencesOf(q: Queryable, ids: readonly string[], maxRows: number): Promise<UrlReference[]> {
  if (!ids.length) return [];
  const rows = await q.query<{ from_id: string; url: string; kind: ReferenceKind; value: string; resolved: string[] }>(
    `SELECT r.from_id, r.url, r.kind, (array_agg(r.value ORDER BY r.path))[1] AS value,
            COALESCE((SELECT array_agg(s.item_id) FROM item_reference_state s WHERE s.org_id = r.org_id AND s.service_key = r.url), '{}') AS resolved
       FROM (SELECT item_id AS from_id, org_id, target_url AS url, kind, value, path FROM item_references
              WHERE item_id = ANY($1::text[]) AND target_url IS NOT NULL LIMIT ${maxRows}) r
      GROUP BY r.from_id, r.org_id, r.url, r.kind
      ORDER BY r.from_id, min(r.path)`,
    [ids],
  );
  return rows.map((r) => ({ from: r.from_id, url: r.url, kind: r.kind, value: r.value, resolved: r.resolved }));
}
