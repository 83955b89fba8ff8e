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
import type { MemberJobAction } from '../../../shared/contract/memberJobs.ts';
import { MEMBER_OPERATIONS } from '../../../shared/contract/users.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { decide, type Target } from '../../http/target.ts';
import type { Db, Queryable } from '../../store/db.ts';
import { addUsers } from '../groups/service.ts';
import { groupTarget } from '../groups/target.ts';
import { deleteMember } from '../users/delete.ts';
import { LICENSES_ORG, updateUserLicenseType } from '../users/licenseType.ts';
import { ROLE_CHANGE_ORG, updateUserRole } from '../users/service.ts';
import { MEMBER_TARGET, setMemberDisabled } from '../users/status.ts';

/** A failure the member's row keeps: the operation's own refusal. */
export class MemberRefused extends Error {}

/** `ctx` whose database is the open transaction `q`: a service's own tx joins it. */
export function withinTransaction(ctx: PortalContext, q: Queryable): PortalContext {
  const db: Db = {
    kind: ctx.db.kind,
    query: (sql, params) => q.query(sql, params),
    queryPrepared: (_name, sql, params) => q.query(sql, params),
    tx: (fn) => fn(q),
    exec: () => Promise.reject(new Error('exec inside a member job')),
    close: () => Promise.resolve(),
  };
  return { ...ctx, db };
}

/** The same refusal text addUsers' route gives an outsider (groups/routes.ts MANAGED_FOR_MEMBERS). */
const GROUP_FOR_MEMBERS = groupTarget("Only the group's owner, its managers or an administrator (portal:admin:assignToGroups) can do this.", {
  managersAct: true,
});

async function authorized<T>(ctx: PortalContext, caller: Caller, target: Target<T>, path: Record<string, string>, authority: Parameters<typeof decide>[0]) {
  const loaded = await target.load({ caller, path, portal: ctx });
  decide(authority, caller, loaded, target.refusals, target.ownerNeeds);
  return loaded.value;
}

/** Acts on `username`; throws the operation's ApiError (or MemberRefused) when it refuses. */
export async function actOnMember(
  ctx: PortalContext,
  caller: Caller,
  orgId: string,
  action: MemberJobAction,
  params: Record<string, unknown>,
  username: string,
) {
  switch (action) {
    case 'disable':
    case 'enable': {
      const disabled = action === 'disable';
      const member = await authorized(ctx, caller, MEMBER_TARGET, { username }, MEMBER_OPERATIONS[disabled ? 'disableUser' : 'enableUser']);
      await setMemberDisabled(ctx, caller, member, disabled);
      return;
    }
    case 'delete': {
      const member = await authorized(ctx, caller, MEMBER_TARGET, { username }, MEMBER_OPERATIONS.deleteUser);
      await deleteMember(ctx, caller, member);
      return;
    }
    case 'role': {
      const org = await authorized(ctx, caller, ROLE_CHANGE_ORG, { orgId }, MEMBER_OPERATIONS.updateUserRole);
      await updateUserRole(ctx, caller, org.orgId, username, String(params.newRole));
      return;
    }
    case 'userType': {
      await authorized(ctx, caller, LICENSES_ORG, { orgId }, MEMBER_OPERATIONS.updateUserLicenseType);
      const { results } = await updateUserLicenseType(ctx, caller, [username], String(params.newUserLicenseType));
      if (!results[0]?.status) throw new MemberRefused(results[0]?.error?.message ?? 'The user type was not changed.');
      return;
    }
    case 'addToGroups': {
      const problems: string[] = [];
      for (const groupId of params.groupIds as string[]) {
        const group = await authorized(ctx, caller, GROUP_FOR_MEMBERS, { groupId }, GROUP_OPERATIONS.addGroupUsers);
        const answer = await addUsers(ctx, caller, group, [username], []);
        const reason = answer.notAddedReasons?.[0]?.reason;
        if (answer.notAdded.length) problems.push(`${group.title}: ${reason ?? 'not added'}`);
      }
      if (problems.length) throw new MemberRefused(problems.join('; '));
      return;
    }
  }
}
