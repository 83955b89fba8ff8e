/** SQL of the members and items tasks refer to: the owner in a task path, the item a task runs on. */
import type { Queryable } from '../../../store/db.ts';

/** A member by username (any case), in any organization. */
export async function memberByUsername(q: Queryable, username: string): Promise<{ id: string; username: string; org_id: string } | undefined> {
  const [u] = await q.query<{ id: string; username: string; org_id: string }>('SELECT id, username, org_id FROM users WHERE lower(username) = lower($1)', [
    username,
  ]);
  return u;
}

/** The id of the organization's member with that username (any case). */
export async function memberIdInOrg(q: Queryable, orgId: string, username: string): Promise<string | undefined> {
  const [u] = await q.query<{ id: string }>('SELECT id FROM users WHERE org_id = $1 AND lower(username) = lower($2)', [orgId, username]);
  return u?.id;
}

/** A member's username by id (undefined once the member is gone). */
export async function usernameOfMember(q: Queryable, userId: string): Promise<string | undefined> {
  const [owner] = await q.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [userId]);
  return owner?.username;
}

/** Who owns an item and in which organization. */
export async function itemOwnership(q: Queryable, itemId: string): Promise<{ owner_id: string; org_id: string } | undefined> {
  const [item] = await q.query<{ owner_id: string; org_id: string }>('SELECT owner_id, org_id FROM items WHERE id = $1', [itemId]);
  return item;
}

/** Whether the item still exists in the organization. */
export async function itemExistsInOrg(q: Queryable, itemId: string, orgId: string): Promise<boolean> {
  const [item] = await q.query('SELECT 1 FROM items WHERE id = $1 AND org_id = $2', [itemId, orgId]);
  return !!item;
}
