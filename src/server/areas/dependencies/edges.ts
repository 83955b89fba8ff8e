/**
 * One step of the reference graph, read from the index (migration 020) and the relationships
 * table: the references into a set of items (their dependents) or out of it (what they use). An id
 * reference names the item with that id (of any organization); a URL reference names every item of
 * the using item's organization whose service key is that URL; a relationship's origin uses its
 * destination. An item naming itself (a layer item whose URL is its own service) is no edge.
 *
 * A step reads at most `maxRows` reference rows and folds them into one edge per (from, to, kind)
 * with their count, in the database: data that names one item 2,000 times is one edge, and no step
 * reads more than its bound however the data repeats (issue 35).
 */
import type { DependencyEdge } from '../../../shared/contract/dependencies.ts';
import type { ReferenceKind } from '../../../shared/references/references.ts';
import type { Queryable } from '../../store/db.ts';

interface EdgeRow {
  from_id: string;
  to_id: string;
  kind: ReferenceKind;
  n: number;
  /** The example's path and value, joined by U+0001 (in neither: a JSON Pointer and a string of item data as indexed). */
  example: string;
  relationship_type: string | null;
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

/** One step's edges, and whether its bound on rows left references unread. */
export interface Step {
  edges: DependencyEdge[];
  cut: boolean;
}

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
 * of them read, folded per (from, to, kind): the example is the first by path.
 */
async function fold(q: Queryable, union: string, params: unknown[], maxRows: number): Promise<Step> {
  const rows = await q.query<EdgeRow>(
    // The example: the least path, with its value (one string per row, so a plain min picks both).
    `SELECT from_id, to_id, kind, count(*)::int AS n, min(path || chr(1) || value) AS example, min(relationship_type) AS relationship_type
       FROM (SELECT * FROM (${union}) u WHERE from_id <> to_id LIMIT ${maxRows + 1}) r
      GROUP BY from_id, to_id, kind ORDER BY from_id, to_id, kind`,
    params,
  );
  const read = rows.reduce((sum, r) => sum + Number(r.n), 0);
  return { edges: rows.map(toEdge), cut: read > maxRows };
}

/**
 * The references whose target is one of `ids`: `from` is the dependent. With `orgId`, only
 * references held by items of that organization (another organization's items are no dependents
 * in this organization's answers).
 */
export async function edgesInto(q: Queryable, ids: readonly string[], maxRows: number, orgId: string | null = null): Promise<Step> {
  if (!ids.length) return { edges: [], cut: false };
  return fold(
    q,
    `SELECT r.item_id AS from_id, r.target_item AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM item_references r WHERE r.target_item = ANY($1::text[]) AND ($2::text IS NULL OR r.org_id = $2)
     UNION ALL
     SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
       FROM item_reference_state s
       JOIN item_references r ON r.org_id = s.org_id AND r.target_url = s.service_key
      WHERE s.item_id = ANY($1::text[]) AND s.service_key IS NOT NULL
     UNION ALL
     SELECT l.origin_id, l.destination_id, 'relationship', '', '', l.type
       FROM relationships l JOIN items o ON o.id = l.origin_id
      WHERE l.destination_id = ANY($1::text[]) AND ($2::text IS NULL OR o.org_id = $2)`,
    [ids, orgId],
    maxRows,
  );
}

/** Every reference held by one of `ids` that names an item: `to` is what it uses. */
export async function edgesOutOf(q: Queryable, ids: readonly string[], maxRows: number): Promise<Step> {
  if (!ids.length) return { edges: [], cut: false };
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
