/**
 * Bulk member jobs (local extras; shared/contract/memberJobs.ts): one function per operation, and
 * the batch the runner (jobs/memberJobs.ts) runs.
 *
 * Exactly once: the members to do are rows, claimed in the batch's transaction with FOR UPDATE SKIP
 * LOCKED; each member's action runs in that same transaction (under a savepoint, so a refusal
 * undoes only that member's part) and its row turns succeeded or failed before the commit. A crash
 * anywhere in a batch rolls the whole batch back — changes and records together — and those members
 * are still pending for the next runner; a member already recorded is never acted on again.
 */
import { z } from 'zod';
import { MEMBER_JOB_INVERSE, type memberJobParams, type MemberJobAction, type memberJobResultsParams } from '../../../shared/contract/memberJobs.ts';
import { GROUP_OPERATIONS } from '../../../shared/contract/groups.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { ApiError, badParam, notFound } from '../../http/errors.ts';
import { decide, type Target } from '../../http/target.ts';
import { DatabaseUnavailableError, type Queryable } from '../../store/dbInterface.ts';
import { recordEvent } from '../../store/events.ts';
import { hexId } from '../../store/ids.ts';
import { raise } from '../../core/signals.ts';
import { groupTarget } from '../groups/service.ts';
import { listMembers, memberAsCaller, type MemberFilter } from '../users/service.ts';
import { actOnMember, MemberRefused, withinTransaction, type MemberUndo } from './actions.ts';
import * as repo from './repo.ts';

type CreateParams = z.output<(typeof memberJobParams)[MemberJobAction]>;

/** The job the path's `:jobId` names; its starter acts on it as its owner. */
export const JOB_TARGET: Target<repo.MemberJobRow> = {
  refusals: {
    otherOrg: 'The job belongs to another organization.',
    notDefaultAdmin: 'Only the member who started the job or a default administrator can do this.',
  },
  async load({ path, portal }) {
    const row = await repo.findJob(portal.db, path.jobId);
    if (!row) throw notFound(`Member job '${path.jobId}'`);
    return { value: row, orgId: row.org_id, ownerId: row.created_by };
  },
};

const FILTER_KEYS = ['disabled', 'userLicenseType', 'lastLoginBefore', 'lastLoginAfter', 'createdBefore', 'createdAfter', 'role'] as const;

/** The usernames the job names, or every member matching the filters (sorted by username). */
async function membersOf(ctx: PortalContext, orgId: string, params: CreateParams): Promise<string[]> {
  if (params.usernames) {
    if (!params.usernames.length) throw badParam('usernames', 'is required');
    const seen = new Set<string>();
    return params.usernames.filter((u) => !seen.has(u.toLowerCase()) && seen.add(u.toLowerCase()));
  }
  if (!FILTER_KEYS.some((k) => params[k] !== undefined))
    throw badParam('usernames', 'is required (or a member filter: disabled, role, userLicenseType, dates)');
  const filter: MemberFilter = {
    orgId,
    roles: params.role ? [params.role] : [],
    disabled: params.disabled,
    licenseTypes: params.userLicenseType,
    lastLogin: { before: params.lastLoginBefore, after: params.lastLoginAfter },
    created: { before: params.createdBefore, after: params.createdAfter },
  };
  const { rows } = await listMembers(ctx.db, filter, { field: 'username', order: 'asc' }, { offset: 0, limit: 100_000 });
  return rows.map((r) => r.username);
}

/** What the job does besides the members: the new role, user type or groups. */
function actionParams(action: MemberJobAction, params: CreateParams): Record<string, unknown> {
  if (action === 'role' && 'newRole' in params) return { newRole: params.newRole };
  if (action === 'userType' && 'newUserLicenseType' in params) return { newUserLicenseType: params.newUserLicenseType };
  if (action === 'addToGroups' && 'groupIds' in params) return { groupIds: [...new Set(params.groupIds)] };
  return {};
}

const GROUP_FOR_MEMBERS = groupTarget("Only the group's owner, its managers or an administrator (portal:admin:assignToGroups) can do this.", {
  managersAct: true,
});

/**
 * An add-to-groups job's target: the caller's organization and the groups `groupIds` names. As
 * addUsers is documented (community/groups/<id>/addUsers), a group's owner and managers add members
 * to it: the caller acts as the owner (authority ownerOr) when they own or manage every group
 * named, in their own organization; anyone else needs what the authority lists.
 */
export const ADD_TO_GROUPS_TARGET: Target<{ orgId: string }> = {
  refusals: { otherOrg: 'You can run member jobs only in your own organization.', missing: GROUP_FOR_MEMBERS.refusals.missing },
  async load({ caller, path, portal, params }) {
    const orgId = path.orgId === 'self' ? caller.orgId : path.orgId;
    const groupIds = [...new Set((params as { groupIds?: string[] } | undefined)?.groupIds ?? [])];
    let managesAll = orgId === caller.orgId && groupIds.length > 0;
    for (const groupId of groupIds) {
      const group = await GROUP_FOR_MEMBERS.load({ caller, path: { groupId }, portal });
      const manages = group.ownerId === caller.userId || !!group.managers?.includes(caller.userId);
      managesAll &&= manages && group.orgId === caller.orgId;
    }
    return { value: { orgId }, orgId, managers: managesAll ? [caller.userId] : [] };
  },
};

/** The caller has been authorized for the action's job on their organization (routes.ts). */
export async function createJob(ctx: PortalContext, caller: Caller, action: MemberJobAction, params: CreateParams) {
  const extra = actionParams(action, params);
  // A group the caller may not add members to is refused now, not once per member.
  for (const groupId of (extra.groupIds as string[] | undefined) ?? []) {
    const loaded = await GROUP_FOR_MEMBERS.load({ caller, path: { groupId }, portal: ctx });
    decide(GROUP_OPERATIONS.addGroupUsers, caller, loaded, GROUP_FOR_MEMBERS.refusals);
  }
  const usernames = await membersOf(ctx, caller.orgId, params);
  if (!usernames.length) throw badParam('usernames', 'no member matches the filter');
  const now = ctx.clock.now();
  const id = hexId();
  await ctx.db.tx((q) =>
    repo.insertJob(
      q,
      {
        id,
        org_id: caller.orgId,
        created_by: caller.userId,
        created_by_username: caller.username,
        action,
        params: extra,
        total: usernames.length,
        created: now,
      },
      usernames,
    ),
  );
  raise('memberJobQueued');
  return { success: true, jobId: id, job: repo.toMemberJob((await repo.findJob(ctx.db, id))!) };
}

export async function jobStatus(ctx: PortalContext, job: repo.MemberJobRow) {
  const fresh = (await repo.findJob(ctx.db, job.id)) ?? job;
  return repo.toMemberJob(fresh, fresh.state === 'cancelled' ? await repo.countCancelled(ctx.db, job.id) : 0);
}

export async function listJobs(ctx: PortalContext, orgId: string, paging: { start: number; num: number }) {
  const { total, rows } = await repo.listJobs(ctx.db, orgId, { offset: paging.start - 1, limit: paging.num });
  return { ...pageEnvelope(total, paging, rows.length), jobs: rows.map((r) => repo.toMemberJob(r)) };
}

export async function jobResults(ctx: PortalContext, job: repo.MemberJobRow, params: z.output<typeof memberJobResultsParams>) {
  const { total, results } = await repo.listResults(ctx.db, job.id, params.state, { offset: params.start - 1, limit: params.num });
  return { ...pageEnvelope(total, params, results.length), jobId: job.id, results };
}

const refuseState = (job: repo.MemberJobRow, verb: string) =>
  new ApiError(400, `Unable to ${verb} the job.`, [
    `The job is ${job.state}; only a ${verb === 'resume' ? 'paused' : 'running or paused'} job can be ${verb}d.`,
  ]);

/** pause, resume, cancel: each from the states it makes sense in; the answer is the job as it is then. */
export async function controlJob(ctx: PortalContext, job: repo.MemberJobRow, verb: 'pause' | 'resume' | 'cancel') {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const row = await repo.lockJob(q, job.id);
    const allowed = verb === 'pause' ? row.state === 'running' : verb === 'resume' ? row.state === 'paused' : row.state === 'running' || row.state === 'paused';
    if (!allowed) throw refuseState(row, verb);
    if (verb === 'cancel') await repo.cancelPending(q, job.id, now);
    await repo.setJobState(q, job.id, verb === 'pause' ? 'paused' : verb === 'resume' ? 'running' : 'cancelled', now);
    // A cancelled job's members done so far are in the history, and can be undone, as a finished job's.
    if (verb === 'cancel') await recordJobEvent(q, (await repo.findJob(q, job.id))!, now);
  });
  if (verb === 'resume') raise('memberJobQueued');
  return { success: true, job: await jobStatus(ctx, job) };
}

/** Why a member was not changed, in the operation's own words (as removeUsers reports them). */
function reasonOf(err: unknown): string {
  if (err instanceof ApiError) return err.details.length ? err.details.map(String).join(' ') : err.message;
  if (err instanceof MemberRefused) return err.message;
  return `The portal could not act on this member: ${(err as Error).message}`;
}

/**
 * One batch of `size` members of the job, in one transaction: answers `more` when members are left,
 * `stopped` when the job is no longer running (paused, cancelled), `finished` when none is left.
 */
export async function runJobBatch(ctx: PortalContext, jobId: string, size: number): Promise<'more' | 'stopped' | 'finished'> {
  return ctx.db.tx(async (q) => {
    const job = await repo.findJob(q, jobId);
    if (!job || job.state !== 'running') return 'stopped';
    const members = await repo.claimPending(q, jobId, size);
    const now = ctx.clock.now();
    if (!members.length) {
      if (!(await repo.finishIfComplete(q, jobId, now))) return 'stopped';
      await recordJobEvent(q, (await repo.findJob(q, jobId))!, now);
      return 'finished';
    }
    // The starter as they are now: privileges taken away since stop the job's power too.
    const caller = await memberAsCaller(q, job.created_by);
    const inTx = withinTransaction(ctx, q);
    let succeeded = 0;
    let failed = 0;
    for (const m of members) {
      await repo.memberSavepoint.open(q);
      let reason: string | null = null;
      let undo: MemberUndo = null;
      try {
        if (!caller) throw new MemberRefused(`${job.created_by_username}, who started the job, is no longer an enabled member: nothing more is changed.`);
        undo = await actOnMember(inTx, caller, job.org_id, job.action, { ...job.params, ...(m.params ?? {}) }, m.username);
        await repo.memberSavepoint.keep(q);
      } catch (err) {
        if (err instanceof DatabaseUnavailableError) throw err;
        await repo.memberSavepoint.undo(q);
        reason = reasonOf(err);
      }
      await repo.recordOutcome(q, jobId, m.seq, reason === null, reason, now, undo);
      if (reason === null) succeeded++;
      else failed++;
    }
    await repo.addCounts(q, jobId, succeeded, failed, now);
    return 'more';
  });
}

/**
 * The job's entry in the organization's history once it ends (done or cancelled): one entry for the
 * job as a whole, which the console undoes as one action (undoJob); each member's own change is
 * recorded by its operation as it happens.
 */
async function recordJobEvent(q: Queryable, job: repo.MemberJobRow, now: number): Promise<void> {
  await recordEvent(q, {
    orgId: job.org_id,
    source: 'organization',
    operation: 'runMemberJob',
    subjectId: job.id,
    actor: { userId: job.created_by, username: job.created_by_username },
    when: now,
    history: {
      op: 'runMemberJob',
      title: `Bulk ${job.action} of ${job.total} member${job.total === 1 ? '' : 's'}`,
      data: {
        memberJob: job.id,
        action: job.action,
        params: job.params,
        state: job.state,
        total: job.total,
        succeeded: job.succeeded,
        failed: job.failed,
        ...(job.undoes ? { undoes: job.undoes } : {}),
      },
    },
  });
}

const refuseUndo = (detail: string) => new ApiError(400, 'Unable to undo the job.', [detail]);

/**
 * Undo a finished job as one action: a new job of the inverse action over the members it changed,
 * each with what puts them back (recorded as the job changed them). Each member is still acted on
 * through the single-member operation with the undoer's authority, and one changed since the job
 * is skipped with the reason. A job is undone once; delete has no undo.
 */
export async function undoJob(ctx: PortalContext, caller: Caller, job: repo.MemberJobRow) {
  const inverse = MEMBER_JOB_INVERSE[job.action];
  if (!inverse) throw refuseUndo('Deleted members cannot be brought back: their accounts are gone.');
  if (job.state !== 'done' && job.state !== 'cancelled') throw refuseUndo(`The job is ${job.state}; only a finished or cancelled job can be undone.`);
  const id = hexId();
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const row = await repo.lockJob(q, job.id);
    if (row.undone_by) throw refuseUndo(`The job was already undone (job ${row.undone_by}).`);
    const members = await repo.undoableMembers(q, job.id);
    if (!members.length) throw refuseUndo('The job changed no member, so there is nothing to put back.');
    await repo.insertJob(
      q,
      {
        id,
        org_id: job.org_id,
        created_by: caller.userId,
        created_by_username: caller.username,
        action: inverse,
        params: {},
        total: members.length,
        created: now,
        undoes: job.id,
      },
      members.map((m) => m.username),
      members.map((m) => m.undo),
    );
    await repo.markUndone(q, job.id, id);
  });
  raise('memberJobQueued');
  return { success: true, jobId: id, job: repo.toMemberJob((await repo.findJob(ctx.db, id))!) };
}

// What the runner (jobs/memberJobs.ts) claims and leases jobs with.
export { anyDueJob, claimDueJob, nextLeaseEnd, renewLease } from './repo.ts';
