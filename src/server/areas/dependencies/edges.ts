/**
 * One step of the reference graph, read from the index (migration 020) and the relationships
 * table: the references into a set of items (their dependents) or out of it (what they use). An id
 * reference names the item with that id (of any organization); a URL reference names every item of
 * the using item's organization whose service key is that URL; a relationship's origin uses its
 * destination. An item naming itself (a layer item whose URL is its own service) is no edge.
 */
import type { DependencyEdge } from '../../../shared/contract/dependencies.ts';
import type { ReferenceKind } from '../../../shared/references/references.ts';
import type { Queryable } from '../../store/db.ts';

interface EdgeRow {
  from_id: string;
  to_id: string;
  kind: ReferenceKind;
  path: string;
  value: string;
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

const toEdge = (r: EdgeRow): DependencyEdge => ({
  from: r.from_id,
  to: r.to_id,
  kind: r.kind,
  path: r.path,
  value: r.value,
  ...(r.relationship_type !== null ? { relationshipType: r.relationship_type } : {}),
});

/** Every reference whose target is one of `ids`: `from` is the dependent. */
export async function edgesInto(q: Queryable, ids: readonly string[]): Promise<DependencyEdge[]> {
  if (!ids.length) return [];
  const rows = await q.query<EdgeRow>(
    `SELECT r.item_id AS from_id, r.target_item AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM item_references r WHERE r.target_item = ANY($1::text[])
     UNION ALL
     SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
       FROM item_reference_state s
       JOIN item_references r ON r.org_id = s.org_id AND r.target_url = s.service_key
      WHERE s.item_id = ANY($1::text[]) AND s.service_key IS NOT NULL
     UNION ALL
     SELECT origin_id, destination_id, 'relationship', '', '', type FROM relationships WHERE destination_id = ANY($1::text[])`,
    [ids],
  );
  return rows.filter((r) => r.from_id !== r.to_id).map(toEdge);
}

/** Every reference held by one of `ids` that names an item: `to` is what it uses. */
export async function edgesOutOf(q: Queryable, ids: readonly string[]): Promise<DependencyEdge[]> {
  if (!ids.length) return [];
  const rows = await q.query<EdgeRow>(
    `SELECT r.item_id AS from_id, i.id AS to_id, r.kind, r.path, r.value, NULL::text AS relationship_type
       FROM item_references r JOIN items i ON i.id = r.target_item
      WHERE r.item_id = ANY($1::text[]) AND r.target_item IS NOT NULL
     UNION ALL
     SELECT r.item_id, s.item_id, r.kind, r.path, r.value, NULL
       FROM item_references r
       JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
      WHERE r.item_id = ANY($1::text[]) AND r.target_url IS NOT NULL
     UNION ALL
     SELECT origin_id, destination_id, 'relationship', '', '', type FROM relationships WHERE origin_id = ANY($1::text[])`,
    [ids],
  );
  return rows.filter((r) => r.from_id !== r.to_id).map(toEdge);
}

/** The URL references held by `ids`, each with the items (of the holder's organization) it resolves to. */
export async function urlReferencesOf(q: Queryable, ids: readonly string[]): Promise<UrlReference[]> {
  if (!ids.length) return [];
  const rows = await q.query<{ from_id: string; url: string; kind: ReferenceKind; value: string; resolved: string[] }>(
    `SELECT r.item_id AS from_id, r.target_url AS url, r.kind, r.value,
            COALESCE(array_agg(s.item_id) FILTER (WHERE s.item_id IS NOT NULL), '{}') AS resolved
       FROM item_references r
       LEFT JOIN item_reference_state s ON s.org_id = r.org_id AND s.service_key = r.target_url
      WHERE r.item_id = ANY($1::text[]) AND r.target_url IS NOT NULL
      GROUP BY r.item_id, r.target_url, r.kind, r.value, r.path
      ORDER BY r.item_id, r.path`,
    [ids],
  );
  return rows.map((r) => ({ from: r.from_id, url: r.url, kind: r.kind, value: r.value, resolved: r.resolved }));
}
