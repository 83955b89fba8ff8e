/**
 * The rules an administrator's action on another member's account shares (disable, enable, delete):
 * the member is read again inside the action's transaction; nobody acts on their own account, and an
 * administrator is acted on only by a default administrator, as for changing their role (the shared
 * memberActionRefusal, which the console asks too); and an
 * action that takes an administrator out never leaves the organization without an enabled one
 * (countDefaultAdmins locks the rows it counts, so two such actions at once cannot both pass).
 */
import { isAdministratorAccount, memberActionRefusal } from '../../../shared/contract/users.ts';
import type { Caller } from '../../http/auth.ts';
import { badParam, forbidden, userNotFound } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { countDefaultAdmins, findUser, type UserRow } from './repo.ts';

/** A member of the caller's organization, or the "does not exist or is inaccessible" error. */
export async function memberOfCallersOrg(q: Queryable, caller: Caller, username: string): Promise<UserRow> {
  const row = await findUser(q, username);
  if (!row || row.org_id !== caller.orgId) throw userNotFound(username);
  return row;
}

export interface MemberToActOn {
  target: UserRow;
  administrator: boolean;
  /** Refuses (400, `message`) when taking this member out would leave no enabled default administrator. */
  assertNotLastAdministrator: (participle: string, message: string) => Promise<void>;
}

/** `member` was authorized by MEMBER_TARGET; `verb` words the refusals ("disable", "delete"…). */
export async function memberToActOn(q: Queryable, caller: Caller, member: Pick<UserRow, 'username'>, verb: string): Promise<MemberToActOn> {
  const target = await memberOfCallersOrg(q, caller, member.username);
  const administrator = isAdministratorAccount({ role: target.role, roleId: target.role_id });
  const refusal = memberActionRefusal(caller, { own: target.id === caller.userId, administrator });
  if (refusal === 'ownAccount') throw forbidden(`You cannot ${verb} your own account.`);
  if (refusal === 'administrator') throw forbidden(`Only default administrators can ${verb} an administrator.`);
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
