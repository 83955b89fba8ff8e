/**
 * The rules an administrator's action on another member's account shares (disable, enable, delete):
 * the member is read again inside the action's transaction; nobody acts on their own account; an
 * administrator is acted on only by a default administrator, as for changing their role; and an
 * action that takes an administrator out never leaves the organization without an enabled one
 * (countDefaultAdmins locks the rows it counts, so two such actions at once cannot both pass).
 */
import type { Caller } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { isAdministratorRole } from '../roles/grant.ts';
import { countDefaultAdmins, type UserRow } from './repo.ts';
import { memberOfCallersOrg } from './service.ts';

export interface MemberToActOn {
  target: UserRow;
  administrator: boolean;
  /** Refuses (400, `message`) when taking this member out would leave no enabled default administrator. */
  assertNotLastAdministrator: (participle: string, message: string) => Promise<void>;
}

/** `member` was authorized by MEMBER_TARGET; `verb` words the refusals ("disable", "delete"…). */
export async function memberToActOn(q: Queryable, caller: Caller, member: UserRow, verb: string): Promise<MemberToActOn> {
  const target = await memberOfCallersOrg(q, caller, member.username);
  if (target.id === caller.userId) throw forbidden(`You cannot ${verb} your own account.`);
  const administrator = isAdministratorRole({ role: target.role, roleId: target.role_id });
  if (administrator && !caller.isDefaultAdmin) throw forbidden(`Only default administrators can ${verb} an administrator.`);
  return {
    target,
    administrator,
    assertNotLastAdministrator: async (participle, message) => {
      if (administrator && !target.disabled && (await countDefaultAdmins(q, target.org_id)) <= 1) {
        throw badParam('username', `cannot be ${participle}: ${target.username} is the organization's last administrator`, message);
      }
    },
  };
}
