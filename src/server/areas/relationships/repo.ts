/** SQL for relationships between items. */
import type { Queryable } from '../../store/db.ts';

export async function insertRelationship(
  q: Queryable,
  r: { orgId: string; type: string; originId: string; destinationId: string; createdBy: string; created: number },
): Promise<void> {
  await q.query(
    `INSERT INTO relationships (org_id, type, origin_id, destination_id, created_by, created)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (type, origin_id, destination_id) DO NOTHING`,
    [r.orgId, r.type, r.originId, r.destinationId, r.createdBy, r.created],
  );
}

/** The relationship of `type` from `originId` to `destinationId`, locked for the rest of the transaction. */
export async function lockRelationship(
  q: Queryable,
  type: string,
  originId: string,
  destinationId: string,
): Promise<{ id: number; created_by: string } | undefined> {
  const [row] = await q.query<{ id: number; created_by: string }>(
    'SELECT id, created_by FROM relationships WHERE type = $1 AND origin_id = $2 AND destination_id = $3 FOR UPDATE',
    [type, originId, destinationId],
  );
  return row;
}

export async function deleteRelationshipRow(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM relationships WHERE id = $1', [id]);
}

/** What a relationship's history entry names of its origin item: its organization, title and owner. */
export async function findOriginSummary(q: Queryable, itemId: string): Promise<{ org_id: string; title: string; owner: string } | undefined> {
  const [origin] = await q.query<{ org_id: string; title: string; owner: string }>(
    'SELECT i.org_id, i.title, u.username AS owner FROM items i JOIN users u ON u.id = i.owner_id WHERE i.id = $1',
    [itemId],
  );
  return origin;
}

/**
 * The items related to `itemId` (forward: it is the origin; reverse: the destination), one row per
 * relationship, in the order the relationships were made. `itemSelect` is the items area's
 * SELECT_ITEM (its row shape `Row`), handed in by the caller: a repository imports no service.
 */
export async function relatedItemRows<Row>(
  q: Queryable,
  itemSelect: string,
  p: { itemId: string; forward: boolean; reverse: boolean; types: string[]; desc: boolean },
): Promise<(Row & { rel_created: number; rel_id: number; rel_type: string })[]> {
  const dir = p.desc ? 'DESC' : 'ASC';
  return q.query<Row & { rel_created: number; rel_id: number; rel_type: string }>(
    `SELECT x.*, r.created AS rel_created, r.id AS rel_id, r.type AS rel_type
       FROM relationships r
       JOIN (${itemSelect}) x ON x.id = CASE WHEN r.origin_id = $1 THEN r.destination_id ELSE r.origin_id END
      WHERE ((r.origin_id = $1 AND $2::boolean) OR (r.destination_id = $1 AND $3::boolean))
        AND (cardinality($4::text[]) = 0 OR r.type = ANY ($4::text[]))
      ORDER BY r.created ${dir}, r.id ${dir}`,
    [p.itemId, p.forward, p.reverse, p.types],
  );
}
