/**
 * Disabling and enabling members (`community/users/<u>/disable` and `/enable`, POST only): a
 * disabled member cannot sign in by any path and every token they held stops working at once.
 * ArcGIS documents both as "only available to the administrator of the organization"; here the
 * privilege portal:admin:disableUsers decides, declared in routes.ts and enforced by operation()
 * on MEMBER_TARGET (a member of another organization answers as a name that does not exist), and
 * then these rules:
 * - never one's own account (an administrator cannot lock themselves out);
 * - an administrator only by a default administrator, as for changing their role;
 * - never the organization's last enabled default administrator.
 * The answer is `{success, user}`, the properties the reference lists (its syntax sample shows an
 * item's `itemId`, copied from another page).
 */
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import { recordEvent } from '../../store/events.ts';
import type { Target } from '../../http/target.ts';
import { isAdministratorRole } from '../roles/grant.ts';
import { countDefaultAdmins, setUserDisabled, type UserRow } from './repo.ts';
import { memberOfCallersOrg } from './service.ts';

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
  const username = member.username;
  const verb = disabled ? 'disable' : 'enable';
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const target = await memberOfCallersOrg(q, caller, username);
    if (target.id === caller.userId) throw forbidden(`You cannot ${verb} your own account.`);
    const administrator = isAdministratorRole({ role: target.role, roleId: target.role_id });
    if (administrator && !caller.isDefaultAdmin) throw forbidden(`Only default administrators can ${verb} an administrator.`);
    if (target.disabled === disabled) return { success: true, user: target.username };
    if (disabled && administrator && (await countDefaultAdmins(q, target.org_id)) <= 1) {
      throw badParam('username', `cannot be disabled: ${target.username} is the organization's last administrator`, 'Unable to disable the user.');
    }
    await setUserDisabled(q, target.id, disabled, now);
    await recordEvent(q, {
      orgId: target.org_id,
      source: 'user',
      operation: verb,
      subjectId: target.username,
      actor: actorOf(caller),
      when: now,
      history: { title: target.full_name || target.username, data: { before: { disabled: !disabled }, after: { disabled } } },
    });
    return { success: true, user: target.username };
  });
}
