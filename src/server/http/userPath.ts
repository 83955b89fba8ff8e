/**
 * User ids in paths. The Maps SDK's PortalUser builds `content/users/<x>` and `community/users/<x>`
 * from the member's `id`, not the username (facts: PortalUser.userContentUrl and url), so every
 * operation under those paths takes either. Resolved here once, before the handler runs, so no route
 * needs to know.
 */
import type { Caller, CallerLookups } from './auth.ts';
import type { Queryable } from '../store/db.ts';
import { userNotFound } from './errors.ts';

/** A user id as store/ids.ts hexId() makes them. Usernames of that shape are refused (isUserIdShaped). */
const USER_ID = /^[0-9a-f]{32}$/;

/** Whether a name has the shape of a user id (any case): such names cannot be usernames, so the two never meet. */
export function isUserIdShaped(name: string): boolean {
  return USER_ID.test(name.toLowerCase());
}

/**
 * The path's `username` as the handlers expect it: a user id becomes that member's username when the
 * caller may see the member (themselves, or a member of their organization, the only members anyone
 * sees); a username is left as it came. Without a caller nothing is resolved (the operation asks
 * for a token or answers for public content only).
 *
 * A signed-in caller naming anyone but a member of their own organization — a made-up name, an
 * unknown id, another organization's member — gets one answer, here and before any check of the
 * operation's own: 400 "User '<name>' does not exist or is inaccessible." (naming only what was
 * sent). A 403 for some of them would confirm that the account exists. No operation under these
 * paths acts on another organization's member.
 */
export async function usernameOfPath(lookups: CallerLookups, db: Queryable, caller: Caller | null, username: string): Promise<string> {
  if (!caller) return username;
  if (username === caller.userId) return caller.username;
  if (username.toLowerCase() === caller.username.toLowerCase()) return username;
  const byId = USER_ID.test(username);
  const found = byId ? await lookups.orgMemberUsernameById(db, username, caller.orgId) : await lookups.orgMemberUsernameByName(db, username, caller.orgId);
  if (found === undefined) throw userNotFound(username);
  return byId ? found : username;
}
