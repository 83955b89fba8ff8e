/**
 * User ids in paths. The Maps SDK's PortalUser builds `content/users/<x>` and `community/users/<x>`
 * from the member's `id`, not the username (facts: PortalUser.userContentUrl and url), so every
 * operation under those paths takes either. Resolved here once, before the handler runs, so no route
 * needs to know.
 */
import type { Caller } from './auth.ts';
import type { Queryable } from '../store/db.ts';

/** A user id as store/ids.ts hexId() makes them. Usernames of that shape are refused (isUserIdShaped). */
const USER_ID = /^[0-9a-f]{32}$/;

/** Whether a name has the shape of a user id (any case): such names cannot be usernames, so the two never meet. */
export function isUserIdShaped(name: string): boolean {
  return USER_ID.test(name.toLowerCase());
}

/**
 * The path's `username` as the handlers expect it: a user id becomes that member's username when the
 * caller may see the member (themselves, or a member of their organization, the only members anyone
 * sees). Anything else is left as it came, so an unknown id or another organization's member answers
 * exactly as an unknown username does, naming only what the caller sent.
 */
export async function usernameOfPath(db: Queryable, caller: Caller | null, username: string): Promise<string> {
  if (!caller || !USER_ID.test(username)) return username;
  if (username === caller.userId) return caller.username;
  const rows = await db.query<{ username: string }>('SELECT username FROM users WHERE id = $1 AND org_id = $2', [username, caller.orgId]);
  return rows[0]?.username ?? username;
}
