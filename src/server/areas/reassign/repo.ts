/** All of the transfers' own SQL: the facts eligibility reads and the rows a transfer writes (items, relationships, folders). */
import type { Queryable } from '../../store/db.ts';

/** A group an item is shared to, with the target's membership of it (null: not a member). */
export interface GroupFacts {
  id: string;
  title: string;
  is_view_only: boolean;
  member_type: 'owner' | 'admin' | 'member' | null;
}

/** A relationship of a requested item, with both ends' owners and type keywords. */
export interface RelationshipFacts {
  type: string;
  origin_id: string;
  destination_id: string;
  origin_owner: string;
  destination_owner: string;
  origin_keywords: string[];
  destination_keywords: string[];
}

/** Locks the items' rows for the rest of the transaction, in id order (two transfers never wait on each other in a circle). */
export async function lockItems(q: Queryable, ids: readonly string[]): Promise<void> {
  await q.query('SELECT 1 FROM items WHERE id = ANY ($1::text[]) ORDER BY id FOR UPDATE', [ids]);
}

/** The groups of `groupIds`, each with the target's membership. */
export async function groupFactsOf(q: Queryable, groupIds: readonly string[], targetId: string): Promise<GroupFacts[]> {
  return q.query<GroupFacts>(
    `SELECT g.id, g.title, g.is_view_only, m.member_type
       FROM groups g LEFT JOIN group_members m ON m.group_id = g.id AND m.user_id = $2
      WHERE g.id = ANY ($1::text[])`,
    [groupIds, targetId],
  );
}

/** The relationships with one of `itemIds` at either end. */
export async function relationshipFactsOf(q: Queryable, itemIds: readonly string[]): Promise<RelationshipFacts[]> {
  return q.query<RelationshipFacts>(
    `SELECT r.type, r.origin_id, r.destination_id, o.owner_id AS origin_owner, d.owner_id AS destination_owner,
            o.type_keywords AS origin_keywords, d.type_keywords AS destination_keywords
       FROM relationships r
       JOIN items o ON o.id = r.origin_id
       JOIN items d ON d.id = r.destination_id
      WHERE r.origin_id = ANY ($1::text[]) OR r.destination_id = ANY ($1::text[])`,
    [itemIds],
  );
}

/** Gives the items to `ownerId`, in `folderId` (null: the root). */
export async function moveItemsTo(q: Queryable, ids: readonly string[], ownerId: string, folderId: string | null, now: number): Promise<void> {
  await q.query('UPDATE items SET owner_id = $2, folder_id = $3, modified = $4 WHERE id = ANY ($1::text[])', [ids, ownerId, folderId, now]);
}

/** The relationships of `ids` that `previousCreatorId` created pass to `creatorId`. */
export async function passRelationshipsOf(q: Queryable, ids: readonly string[], creatorId: string, previousCreatorId: string): Promise<void> {
  await q.query('UPDATE relationships SET created_by = $2 WHERE created_by = $3 AND (origin_id = ANY ($1::text[]) OR destination_id = ANY ($1::text[]))', [
    ids,
    creatorId,
    previousCreatorId,
  ]);
}

/** The item's access as stored now (undefined: no such item). */
export async function accessOfItem(q: Queryable, id: string): Promise<string | undefined> {
  return (await q.query<{ access: string }>('SELECT access FROM items WHERE id = $1', [id]))[0]?.access;
}

export async function setItemAccess(
  q: Queryable,
  id: string,
  access: 'private' | 'org' | 'public',
  contentStatus: 'org_authoritative' | 'public_authoritative' | 'deprecated' | null,
  now: number,
): Promise<void> {
  await q.query('UPDATE items SET access = $2, content_status = $3, modified = $4 WHERE id = $1', [id, access, contentStatus, now]);
}

/** Adds the folder unless the owner has one of that title already (the unique title index decides). */
export async function insertFolderUnlessTaken(q: Queryable, f: { id: string; orgId: string; ownerId: string; title: string; created: number }): Promise<void> {
  await q.query('INSERT INTO folders (id, org_id, owner_id, title, created) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
    f.id,
    f.orgId,
    f.ownerId,
    f.title,
    f.created,
  ]);
}
