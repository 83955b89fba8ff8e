/** SQL of an item's content status (spec §4.7): set on one item, or followed by an organization's items. */
import type { Queryable } from '../../../store/db.ts';
import type { ItemRow } from '../repo.ts';

type ContentStatus = ItemRow['content_status'];

/** Sets the item's content status and the item that replaces it (null unless deprecated). */
export async function setItemContentStatus(q: Queryable, itemId: string, status: ContentStatus, replacedBy: string | null, now: number): Promise<void> {
  await q.query('UPDATE items SET content_status = $2, replaced_by = $3, modified = $4 WHERE id = $1', [itemId, status, replacedBy, now]);
}

/** Moves every item of the organization with status `from` to `to`: the ids of the items changed. */
export async function moveOrgContentStatus(q: Queryable, orgId: string, from: ContentStatus, to: ContentStatus, now: number): Promise<{ id: string }[]> {
  return q.query<{ id: string }>('UPDATE items SET content_status = $3, modified = $4 WHERE org_id = $1 AND content_status = $2 RETURNING id', [
    orgId,
    from,
    to,
    now,
  ]);
}
