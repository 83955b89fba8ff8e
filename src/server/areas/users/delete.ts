/**
 * Deleting a member (`community/users/<u>/delete`, POST only). ArcGIS documents it as "available
 * only to the user in question or to the administrator of the user's organization", and requires
 * the member's content and groups to be transferred or deleted first. Here only an administrator
 * deletes: the privilege portal:admin:deleteUsers decides, declared in routes.ts and enforced by
 * operation() on MEMBER_TARGET (a member of another organization answers as a name that does not
 * exist); then the rules every action on another member's account shares (memberToActOn.ts), and:
 * - refused (400) while the member owns items, groups or collaborations, or created relationships
 *   between items still there, with the counts: nothing is deleted with them.
 * Their tokens, OAuth refresh tokens, group memberships, empty folders and scheduled tasks go with
 * the account (ON DELETE CASCADE in the migrations). The answer is `{success, username}`.
 */
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { orgTarget } from '../../http/target.ts';
import { memberToActOn } from './memberToActOn.ts';
import { deleteUserRow, holdingsOfMember, membershipsOfMember, type MemberHoldings, type UserRow } from './repo.ts';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function holdingsRefusal(username: string, h: MemberHoldings): ApiError | null {
  const held = [
    h.items && plural(h.items, 'item'),
    h.groups && plural(h.groups, 'group'),
    h.collaborations && plural(h.collaborations, 'collaboration'),
  ].filter(Boolean);
  const parts: string[] = [];
  if (held.length) parts.push(`owns ${held.join(', ')}`);
  if (h.relationships) parts.push(`created ${plural(h.relationships, 'item relationship')}`);
  if (!parts.length) return null;
  const detail = `${username} ${parts.join(' and ')}: transfer them to another member or delete them before deleting the member.`;
  return new ApiError(400, 'Unable to delete user.', [detail]);
}

/**
 * Deletes the member named `username` of the caller's organization within `q`, or throws the
 * ApiError that says why not; answers the member's username as stored.
 */
async function deleteWithin(q: Queryable, caller: Caller, username: string, now: number): Promise<string> {
  const { target, assertNotLastAdministrator } = await memberToActOn(q, caller, { username }, 'delete');
  await assertNotLastAdministrator('deleted', 'Unable to delete user.');
  const refusal = holdingsRefusal(target.username, await holdingsOfMember(q, target.id));
  if (refusal) throw refusal;
  // Read before the account goes (the memberships go with it): kept in history so an administrator
  // can make the member again by hand. A deletion has no undo: the account's password, tokens and
  // sign-in record are not kept, so no operation could bring the same account back.
  const groups = await membershipsOfMember(q, target.id);
  await deleteUserRow(q, target.id);
  await recordEvent(q, {
    orgId: target.org_id,
    source: 'user',
    operation: 'delete',
    subjectId: target.username,
    actor: actorOf(caller),
    when: now,
    history: {
      title: target.full_name || target.username,
      data: {
        before: {
          role: target.role,
          roleId: target.role_id,
          fullName: target.full_name,
          email: target.email,
          userLicenseTypeId: target.user_license_type_id,
          disabled: target.disabled,
          groups,
        },
      },
    },
  });
  return target.username;
}

/** `member` has been authorized (MEMBER_TARGET); it is read again in the transaction that deletes it. */
export async function deleteMember(ctx: PortalContext, caller: Caller, member: UserRow) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => ({ success: true, username: await deleteWithin(q, caller, member.username, now) }));
}

/**
 * Remove Users (`portals/<orgId>/removeUsers`, POST): `users`, comma-separated, each deleted as
 * `community/users/<u>/delete` deletes one — same rules, same events — in a transaction of its own,
 * so one member's refusal leaves the others removed. The answer is the documented
 * `{notRemoved: [usernames]}`, and, a local extra, `notRemovedReasons: [{username, reason}]`. The
 * caller has been authorized on their own organization (REMOVE_USERS_ORG).
 */
export async function removeMembers(ctx: PortalContext, caller: Caller, usernames: string[]) {
  const notRemoved: string[] = [];
  const notRemovedReasons: { username: string; reason: string }[] = [];
  for (const username of new Set(usernames)) {
    try {
      await ctx.db.tx((q) => deleteWithin(q, caller, username, ctx.clock.now()));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      notRemoved.push(username);
      // The details say why (the counts, the rule); the message alone where there are none.
      notRemovedReasons.push({ username, reason: err.details.length ? err.details.map(String).join(' ') : err.message });
    }
  }
  return { notRemoved, notRemovedReasons };
}

/** The organization the path names (`self` or its id); only the caller's own. */
export const REMOVE_USERS_ORG = orgTarget({ otherOrg: 'You can remove members only from your own organization.' }, { self: true });
