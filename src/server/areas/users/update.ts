/**
 * Update User (`community/users/<u>/update`, POST only): "available only to the user or to the
 * administrator of the user's organization"; only the properties sent change. Here the member
 * updates their own profile, and another member's is updated by whoever holds
 * portal:admin:updateUsers (MEMBER_OPERATIONS.updateUser, decided by operation() on
 * MEMBER_SELF_TARGET), with the rules every action on another member's account shares
 * (memberToActOn.ts: an administrator's account only by a default administrator).
 *
 * `password` is an administrator's password reset (the reference lets Update User set the password
 * for the "arcgis" identity provider): the new password follows the service's policy, is hashed as
 * at account creation, and every session the member held ends. It is refused:
 * - on one's own account (a token alone must not be enough to take an account: no current password
 *   is asked for here);
 * - on a member whose role holds privileges the caller does not (signing in as them would be
 *   taking those privileges: the same rule as giving a role, shared/roleGrant.ts).
 *
 * History keeps `before`/`after` of each field that changed (undo sets the `before` values again);
 * a password only as `password: "reset"`, never a value or hash. The `user updated` webhook event
 * lists the fields that changed. The answer is `{success, username}` (rest-js updateUser).
 */
import { grantRefusal } from '../../../shared/roleGrant.ts';
import type { UpdateUserParams } from '../../../shared/contract/users.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { badParam, forbidden } from '../../http/errors.ts';
import type { Target } from '../../http/target.ts';
import { recordEvent } from '../../store/events.ts';
import { isCommonPassword } from '../../core/common-passwords.ts';
import { hashPassword } from '../../core/passwords.ts';
import { isAdministratorRole, resolveRole } from '../roles/service.ts';
import { memberToActOn } from './memberToActOn.ts';
import { setUserPassword, setUserProfile, type ProfileColumn, type UserRow } from './repo.ts';
import { memberOfCallersOrg } from './service.ts';

/** The member the path names, in the caller's organization, owned by themselves (ownerOr lets the member act). */
export const MEMBER_SELF_TARGET: Target<UserRow> = {
  refusals: { otherOrg: 'The member is in another organization.' },
  async load({ caller, path, portal }) {
    const row = await memberOfCallersOrg(portal.db, caller, path.username);
    return { value: row, orgId: row.org_id, ownerId: row.id };
  },
};

/** Wire property → column; history and webhooks name a field by its wire property. */
const FIELDS: readonly [keyof UpdateUserParams, ProfileColumn][] = [
  ['fullName', 'full_name'],
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['description', 'description'],
  ['tags', 'tags'],
  ['access', 'access'],
  ['culture', 'culture'],
  ['region', 'region'],
  ['units', 'units'],
  ['preferredView', 'preferred_view'],
];

/** An empty culture, region or description clears it; preferredView=null clears the view. */
function columnValue(field: keyof UpdateUserParams, value: unknown): unknown {
  if (field === 'preferredView' && value === 'null') return null;
  if ((field === 'culture' || field === 'region') && value === '') return null;
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** `member` has been authorized (MEMBER_SELF_TARGET); it is read again in the transaction that changes it. */
export async function updateMember(ctx: PortalContext, caller: Caller, member: UserRow, params: UpdateUserParams) {
  const own = member.id === caller.userId;
  if (params.password !== undefined) {
    if (own) throw forbidden('You cannot reset your own password through Update User.');
    if (params.password.toLowerCase() === member.username.toLowerCase())
      throw badParam('password', 'must not be the same as the username', 'Unable to update user.');
    if (isCommonPassword(params.password)) throw badParam('password', 'is too common; choose a less guessable password', 'Unable to update user.');
  }
  // Hash before the transaction: it takes a few hundred milliseconds by design.
  const passwordHash = params.password === undefined ? undefined : await hashPassword(params.password, ctx.config.passwordLogN);
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const target = own ? member : (await memberToActOn(q, caller, member, 'update')).target;
    if (passwordHash !== undefined) {
      const role = await resolveRole(q, target.org_id, target.role_id ?? target.role);
      const refusal = grantRefusal(caller, { name: role.name, administrator: isAdministratorRole(role), privileges: role.privileges });
      if (refusal) throw forbidden(`You cannot reset the password of ${target.username}: their role holds privileges you do not hold.`);
    }
    const values: Partial<Record<ProfileColumn, unknown>> = {};
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const [field, column] of FIELDS) {
      if (params[field] === undefined) continue;
      const value = columnValue(field, params[field]);
      if (same(target[column], value)) continue;
      values[column] = value;
      before[field] = target[column] ?? null;
      after[field] = value;
    }
    if (passwordHash !== undefined) {
      await setUserPassword(q, target.id, passwordHash, now);
      before.password = 'unchanged';
      after.password = 'reset';
    }
    const changed = Object.keys(after);
    if (!changed.length) return { success: true, username: target.username };
    await setUserProfile(q, target.id, values, now);
    await recordEvent(q, {
      orgId: target.org_id,
      source: 'user',
      operation: 'update',
      subjectId: target.username,
      actor: actorOf(caller),
      properties: { updatedFields: changed },
      when: now,
      history: { title: (values.full_name as string | undefined) || target.full_name || target.username, data: { before, after } },
    });
    return { success: true, username: target.username };
  });
}
