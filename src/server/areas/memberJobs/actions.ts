/**
 * One member of a job, acted on exactly as the single-member operation acts: the same target is
 * loaded and decided with the same declared authority (http/target.ts decide), then the same
 * service function runs — so the job refuses what the operation refuses, in its words, and writes
 * the same history entries and organization events (webhooks). Nothing here restates a rule.
 *
 * The service functions open their own transaction (ctx.db.tx); the runner hands them a context
 * whose database is the runner's transaction (withinTransaction), so the member's change and the
 * record that the member is done commit together or not at all.
 */
import { GROUP_OPERATIONS } from '../../../shared/contract/groups.ts';
import type { MemberJobRunAction } from '../../../shared/contract/memberJobs.ts';
import { MEMBER_OPERATIONS } from '../../../shared/contract/users.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { decide, type Target } from '../../http/target.ts';
import { reachOf } from '../../http/reach.ts';
import type { Queryable } from '../../store/db.ts';
import { addUsers, removeUsers, groupTarget } from '../groups/service.ts';
import {
  deleteMember,
  LICENSES_ORG,
  updateUserLicenseType,
  type UserRow,
  memberOfCallersOrg,
  ROLE_CHANGE_ORG,
  updateUserRole,
  MEMBER_TARGET,
  setMemberDisabled,
} from '../users/service.ts';
import * as repo from './repo.ts';

/** A failure the member's row keeps: the operation's own refusal. */
export class MemberRefused extends Error {}

/** `ctx` whose database is the open transaction `q`: a service's own tx joins it. */
export function withinTransaction(ctx: PortalContext, q: Queryable): PortalContext {
  return { ...ctx, db: repo.transactionAsDb(ctx.db.kind, q) };
}

/** The same refusal text addUsers' route gives an outsider (groups/routes.ts MANAGED_FOR_MEMBERS). */
const GROUP_FOR_MEMBERS = groupTarget("Only the group's owner, its managers or an administrator (portal:admin:assignToGroups) can do this.", {
  managersAct: true,
});

async function authorized<T>(ctx: PortalContext, caller: Caller, target: Target<T>, path: Record<string, string>, authority: Parameters<typeof decide>[0]) {
  const loaded = await target.load({ caller, path, portal: ctx });
  decide(authority, caller, loaded, target.refusals);
  return loaded.value;
}

/** What puts a changed member back: the inverse action's parameters, with the state the job left (`expect`). */
export type MemberUndo = Record<string, unknown> | null;

/** The member as they are now, or null where the operation itself will say why not. */
async function memberNow(ctx: PortalContext, caller: Caller, username: string): Promise<UserRow | null> {
  return memberOfCallersOrg(ctx.db, caller, username).catch(() => null);
}

const roleOf = (m: UserRow) => m.role_id ?? m.role;

/** An undo finds the member changed since the job: they are left as they are, and the result says why. */
function skipIfChanged(changed: boolean, what: string) {
  if (changed) throw new MemberRefused(`Skipped: ${what} since the job, so it is left as it is.`);
}

/**
 * Acts on `username`; throws the operation's ApiError (or MemberRefused) when it refuses. Answers
 * what puts the member back (null when nothing changed, or nothing can bring it back). `params`
 * of an undo carry `expect…`: the state the undone job left, which must still hold.
 */
export async function actOnMember(
  ctx: PortalContext,
  caller: Caller,
  orgId: string,
  action: MemberJobRunAction,
  params: Record<string, unknown>,
  username: string,
): Promise<MemberUndo> {
  switch (action) {
    case 'disable':
    case 'enable': {
      const disabled = action === 'disable';
      const member = await authorized(ctx, caller, MEMBER_TARGET, { username }, MEMBER_OPERATIONS[disabled ? 'disableUser' : 'enableUser']);
      if (params.expectDisabled !== undefined)
        skipIfChanged(member.disabled !== params.expectDisabled, disabled ? 'the member was disabled again' : 'the member was enabled again');
      await setMemberDisabled(ctx, caller, member, disabled);
      return member.disabled === disabled ? null : { expectDisabled: disabled };
    }
    case 'delete': {
      const member = await authorized(ctx, caller, MEMBER_TARGET, { username }, MEMBER_OPERATIONS.deleteUser);
      await deleteMember(ctx, caller, member);
      return null;
    }
    case 'role': {
      const org = await authorized(ctx, caller, ROLE_CHANGE_ORG, { orgId }, MEMBER_OPERATIONS.updateUserRole);
      const before = await memberNow(ctx, caller, username);
      const newRole = String(params.newRole);
      if (params.expectRole !== undefined && before) skipIfChanged(roleOf(before) !== params.expectRole, `the role was changed (now ${roleOf(before)})`);
      await updateUserRole(ctx, caller, org.orgId, username, newRole);
      return before && roleOf(before) !== newRole ? { newRole: roleOf(before), expectRole: newRole } : null;
    }
    case 'userType': {
      await authorized(ctx, caller, LICENSES_ORG, { orgId }, MEMBER_OPERATIONS.updateUserLicenseType);
      const before = await memberNow(ctx, caller, username);
      const type = String(params.newUserLicenseType);
      if (params.expectUserLicenseType !== undefined && before)
        skipIfChanged(before.user_license_type_id !== params.expectUserLicenseType, `the user type was changed (now ${before.user_license_type_id})`);
      const { results } = await updateUserLicenseType(ctx, caller, [username], type);
      if (!results[0]?.status) throw new MemberRefused(results[0]?.error?.message ?? 'The user type was not changed.');
      return before && before.user_license_type_id !== type ? { newUserLicenseType: before.user_license_type_id, expectUserLicenseType: type } : null;
    }
    case 'addToGroups':
      return addToGroups(ctx, caller, params.groupIds as string[], username);
    case 'removeFromGroups':
      return removeFromGroups(ctx, caller, params.groupIds as string[], username);
  }
}

async function addToGroups(ctx: PortalContext, caller: Caller, groupIds: string[], username: string): Promise<MemberUndo> {
  const member = await memberNow(ctx, caller, username);
  const already = member ? await repo.groupsOfMember(ctx.db, member.id, groupIds) : new Set<string>();
  const problems: string[] = [];
  const joined: string[] = [];
  for (const groupId of groupIds) {
    const group = await authorized(ctx, caller, GROUP_FOR_MEMBERS, { groupId }, GROUP_OPERATIONS.addGroupUsers);
    const answer = await addUsers(ctx, caller, group, [username], []);
    const reason = answer.notAddedReasons?.[0]?.reason;
    if (answer.notAdded.length) problems.push(`${group.title}: ${reason ?? 'not added'}`);
    else if (!already.has(groupId)) joined.push(groupId);
  }
  if (problems.length) throw new MemberRefused(problems.join('; '));
  return joined.length ? { groupIds: joined } : null;
}

/** The undo of addToGroups: out of the groups the job put them in, where they still are. */
async function removeFromGroups(ctx: PortalContext, caller: Caller, groupIds: string[], username: string): Promise<MemberUndo> {
  const member = await memberNow(ctx, caller, username);
  const still = member ? await repo.groupsOfMember(ctx.db, member.id, groupIds) : new Set<string>();
  const removed: string[] = [];
  const left: string[] = [];
  for (const groupId of groupIds) {
    const group = await authorized(ctx, caller, GROUP_FOR_MEMBERS, { groupId }, GROUP_OPERATIONS.removeGroupUsers);
    if (!still.has(groupId)) {
      left.push(group.title);
      continue;
    }
    // As the operation's wrapper would: what the same declaration reaches, for the managers among those named.
    const { notRemoved } = await removeUsers(ctx, caller, reachOf(caller, GROUP_OPERATIONS.removeGroupUsers), group, [username]);
    if (notRemoved.length) throw new MemberRefused(`${group.title}: the portal did not remove them.`);
    removed.push(groupId);
  }
  skipIfChanged(!removed.length, `the member already left ${left.join(', ')}`);
  return { groupIds: removed };
}
