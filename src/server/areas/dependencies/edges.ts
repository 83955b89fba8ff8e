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
import { SELECT_NODE, type NodeRow } from './nodes.ts';

interface EdgeRow extends Partial<NodeRow> {
  from_id: string;
  to_id: string;
  kind: ReferenceKind;
  n: number;
  /** The example's path and value, joined by U+0001 (in neither: a JSON Pointer and a string of item data as indexed). */
  example: string;
  relationship_type: string | null;
  /** The node row of the end the walk goes on to (null: known already, or no such item). */
  node_id: string | null;
}

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
}

/** Which end of an edge the walk goes on to: the dependent (`from`) or the item used (`to`). */
type Onward = 'from_id' | 'to_id';

const NO_STEP = (): Step => ({ edges: [], cut: false, met: new Map() });

function toEdge(r: EdgeRow): DependencyEdge {
  const cut = r.example.indexOf('\u0001');
  return {
    from: r.from_id,
    to: r.to_id,
    kind: r.kind,
    count: Number(r.n),
    path: r.example.slice(0, cut),
    value: r.example.slice(cut + 1),
    ...(r.relationship_type !== null ? { relationshipType: r.relationship_type } : {}),
  };
}

/**
 * The rows of `union` (from_id, to_id, kind, path, value, relationship_type), at most maxRows + 1
 * of them read, folded per (from, to, kind): the example is the first by path. Each edge comes with
 * the node row of its `onward` end when that end is not in `known` (one row per edge: the join is
 * by the item's primary key).
 */
async function fold(q: Queryable, union: string, params: unknown[], maxRows: number, onward: Onward, known: readonly string[]): Promise<Step> {
  const rows = await q.query<EdgeRow>(
    // The example: the least path, with its value (one string per row, so a plain min picks both).
    `WITH e AS MATERIALIZED (
       SELECT from_id, to_id, kind, count(*)::int AS n, min(path || chr(1) || value) AS example, min(relationship_type) AS relationship_type
         FROM (SELECT * FROM (${union}) u WHERE from_id <> to_id LIMIT ${maxRows + 1}) r
        GROUP BY from_id, to_id, kind),
     -- The ids as one array (ARRAY(…) is computed first): read through the primary key's index. A
     -- join of items with the edges was planned as a scan of every item and its shares.
     node AS (${SELECT_NODE} WHERE i.id = ANY(ARRAY(SELECT DISTINCT ${onward} FROM e WHERE ${onward} <> ALL($${params.length + 1}::text[]))))
     SELECT e.*, node.id AS node_id, node.org_id, node.owner_id, node.owner_username, node.title, node.type, node.url, node.access,
            node.content_status, node.status, node.created, node.modified, node.group_ids
       FROM e LEFT JOIN node ON node.id = e.${onward}
      ORDER BY e.from_id, e.to_id, e.kind`,
    [...params, known],
  );
  const met = new Map<string, NodeRow>();
  for (const r of rows) if (r.node_id !== null) met.set(r.node_id, nodeRowOf(r));
  const read = rows.reduce((sum, r) => sum + Number(r.n), 0);
  return { edges: rows.map(toEdge), cut: read > maxRows, met };
}

function nodeRowOf(r: EdgeRow): NodeRow {
  return {
    id: r.node_id!,
    org_id: r.org_id!,
    owner_id: r.owner_id!,
    owner_username: r.owner_username!,
    title: r.title!,
    type: r.type!,
    url: r.url ?? null,
    access: r.access!,
    content_status: r.content_status ?? null,
    status: r.status!,
    created: r.created!,
    modified: r.modified!,
    group_ids: r.group_ids!,
  };
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
    `SELECT r.item_id AS from_id, r.target_item AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM item_references r WHERE r.target_item = ANY($1::text[]) AND ($2::text IS NULL OR r.org_id = $2)
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
      WHERE l.destination_id = ANY($1::text[]) AND ($2::text IS NULL OR o.org_id = $2)`,
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
    `SELECT r.item_id AS from_id, r.target_item AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM item_references r
      WHERE r.item_id = ANY($1::text[]) AND r.target_item IS NOT NULL
     UNION ALL
     SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
       FROM item_references r
       JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
      WHERE r.item_id = ANY($1::text[]) AND r.target_url IS NOT NULL
     UNION ALL
     SELECT origin_id, destination_id, 'relationship', '', '', type FROM relationships WHERE origin_id = ANY($1::text[])`,
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
