/**
 * The community side of members, as the public API and the Maps SDK use it: User Search
 * (`community/users`), a member's record with the groups the docs promise (`community/users/<u>`),
 * and User Tags (`community/users/<u>/tags`).
 */
import type { Caller } from '../../http/auth.ts';
import { userNotFound } from '../../http/errors.ts';
import type { Target } from '../../http/target.ts';
import type { Db } from '../../store/db.ts';
import { groupsOfUser, toGroupRecord } from '../groups/service.ts';
import { findUser, tagsOfMemberItems, type UserRow } from './repo.ts';
import { canViewMembers, seesPrivateFields, toPortalUser } from './service.ts';

/** Documented cap of User Tags. */
const MAX_TAGS = 1000;

/** A member the caller may see (themselves, or a member of their organization when they may view members); otherwise "does not exist". */
export async function visibleMember(db: Db, caller: Caller | null, username: string): Promise<UserRow> {
  const row = await findUser(db, username);
  // Members are visible within their organization only; to anyone else they do not exist.
  if (!row || !caller || (caller.userId !== row.id && !canViewMembers(caller, row.org_id))) throw userNotFound(username);
  return row;
}

/**
 * `community/users/<u>` for someone other than the caller. "Groups of the user are returned only to
 * the user or the administrator of the user's organization" (User resource): an administrator gets
 * `groups`, each group's `userMembership` being the member's, limited to groups of the administrator's
 * organization and public ones (another organization's private group stays out of sight). The
 * caller's own record goes through community/self's answer.
 */
export async function otherMemberRecord(db: Db, caller: Caller, row: UserRow) {
  const record = toPortalUser(row, seesPrivateFields(caller, row));
  if (!seesPrivateFields(caller, row)) return record;
  const groups = (await groupsOfUser(db, row.id)).filter((g) => g.org_id === caller.orgId || g.access === 'public');
  return {
    ...record,
    groups: groups.map((g) => ({ ...toGroupRecord(g, caller), userMembership: { username: row.username, memberType: g.my_member_type ?? 'none' } })),
  };
}

/**
 * The member whose tags User Tags lists, as its target (http/target.ts): one the caller cannot see
 * does not exist; the member themself reads their tags, anyone else by MEMBER_OPERATIONS.userTags.
 */
export const TAGGED_MEMBER: Target<UserRow> = {
  refusals: { otherOrg: 'Requires the privilege portal:admin:viewItems.' },
  async load({ caller, path, portal }) {
    const row = await visibleMember(portal.db, caller, path.username);
    return { value: row, orgId: row.org_id, ownerId: row.id };
  },
};

/** User Tags: the tags of the member's items with how many items carry each, alphabetically. `row` has been authorized (TAGGED_MEMBER). */
export async function memberTags(db: Db, row: UserRow): Promise<{ tags: { tag: string; count: number }[] }> {
  const rows = await tagsOfMemberItems(db, row.id, MAX_TAGS);
  return { tags: rows.map((t) => ({ tag: t.tag, count: Number(t.count) })) };
}
