/**
 * Disabling and enabling members (`community/users/<u>/disable` and `/enable`, POST only): a
 * disabled member cannot sign in by any path and every token they held stops working at once.
 * ArcGIS documents both as "only available to the administrator of the organization"; here the
 * privilege portal:admin:disableUsers decides, declared in routes.ts and enforced by operation()
 * on MEMBER_TARGET (a member of another organization answers as a name that does not exist), and
 * then the rules every action on another member's account shares (memberToActOn.ts).
 * The answer is `{success, user}`, the properties the reference lists (its syntax sample shows an
 * item's `itemId`, copied from another page).
 */
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { recordEvent } from '../../store/events.ts';
import type { Target } from '../../http/target.ts';
import type { Queryable } from '../../store/db.ts';
import { memberOfCallersOrg, memberToActOn } from './memberToActOn.ts';
import { setUserDisabled, type UserRow } from './repo.ts';

/** The member the path's `:username` names, in the caller's organization; anyone else does not exist for them. */
export const MEMBER_TARGET: Target<UserRow> = {
  refusals: { otherOrg: 'The member is in another organization.' },
  async load({ caller, path, portal }) {
    const row = await memberOfCallersOrg(portal.db, caller, path.username);
    return { value: row, orgId: row.org_id };
  },
};

/** `member` has been authorized (MEMBER_TARGET); it is read again in the transaction that changes it. */
export async function setMemberDisabled(ctx: PortalContext, caller: Caller, member: UserRow, disabled: boolean) {
  const verb = disabled ? 'disable' : 'enable';
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const { target, assertNotLastAdministrator } = await memberToActOn(q, caller, member, verb);
    if (target.disabled === disabled) return { success: true, user: target.username };
    if (disabled) await assertNotLastAdministrator('disabled', 'Unable to disable the user.');
    await writeMemberDisabled(q, target, disabled, actorOf(caller), now);
    return { success: true, user: target.username };
  });
}

/**
 * The one write of a disable or enable, inside the caller's transaction: the account (disabling
 * ends every token it holds, repo.ts) and its event. The operations above reach it after their
 * checks; the lifecycle runner (areas/memberLifecycle) with no actor, `detail` saying why.
 */
export async function writeMemberDisabled(
  q: Queryable,
  target: Pick<UserRow, 'id' | 'org_id' | 'username' | 'full_name'>,
  disabled: boolean,
  actor: { userId: string; username: string } | null,
  now: number,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await setUserDisabled(q, target.id, disabled, now);
  await recordEvent(q, {
    orgId: target.org_id,
    source: 'user',
    operation: disabled ? 'disable' : 'enable',
    subjectId: target.username,
    actor,
    when: now,
    history: { title: target.full_name || target.username, data: { before: { disabled: !disabled }, after: { disabled }, ...detail } },
  });
}
