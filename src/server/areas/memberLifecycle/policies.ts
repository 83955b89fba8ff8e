/**
 * Inactivity policies (local extras): created switched off, so their preview (who they would touch
 * now, the same plan a run carries out) is seen before they are switched on. A switched-on policy
 * runs at once and then daily on the runner (jobs/memberLifecycle.ts). A run's changes are undone
 * member by member (undoMember), as far as nobody changed the member since.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { createPolicyParams, InactivityPolicy, PolicyPreview, PolicyRun, PreviewMember } from '../../../shared/contract/memberLifecycle.ts';
import { LIFECYCLE_LIMITS } from '../../../shared/contract/memberLifecycle.ts';
import type { PortalContext } from '../../context.ts';
import { raise } from '../../core/signals.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { badParam, notFound } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { assertMayGrantRole, resolveRole } from '../roles/service.ts';
import { moveTarget, planPolicy, undoMember, type UndoResult } from './apply.ts';
import * as repo from './repo.ts';
import type { CandidateRow, PolicyRow, PolicyValues } from './repo.ts';

type PolicyInput = z.output<typeof createPolicyParams>;

export function toPolicy(r: PolicyRow): InactivityPolicy {
  return {
    id: r.id,
    title: r.title,
    warnAfterDays: r.warn_after_days,
    actAfterDays: r.act_after_days,
    action: r.action,
    role: r.role,
    userLicenseType: r.user_license_type,
    active: r.active,
    nextRun: r.next_run_at,
    created: r.created,
    modified: r.modified,
    warnedCount: r.warned_count ?? 0,
  };
}

async function policyOf(q: Queryable, orgId: string, id: string, lock = false): Promise<PolicyRow> {
  const row = await repo.findPolicy(q, orgId, id, lock);
  if (!row) throw notFound(`Inactivity policy '${id}'`);
  return row;
}

/** The values to store; a move's role must be one the caller may give, that is not Administrator, and that the user type allows. */
async function valuesOf(q: Queryable, caller: Caller, orgId: string, p: PolicyInput): Promise<PolicyValues> {
  const values: PolicyValues = {
    title: p.title,
    warn_after_days: p.warnAfterDays,
    act_after_days: p.actAfterDays,
    action: p.action,
    role: p.action === 'move' ? p.role! : null,
    user_license_type: p.action === 'move' ? p.userLicenseType! : null,
  };
  if (p.action === 'move') {
    assertMayGrantRole(caller, await resolveRole(q, orgId, values.role!));
    const { refusal } = await moveTarget(q, { ...values, id: '', org_id: orgId } as PolicyRow);
    if (refusal) throw badParam('role', `is not compatible: ${refusal}`, 'Unable to save the inactivity policy.');
  }
  return values;
}

export async function listPolicies(ctx: PortalContext, orgId: string) {
  return { policies: (await repo.listPolicies(ctx.db, orgId)).map(toPolicy) };
}

export async function getPolicy(ctx: PortalContext, orgId: string, id: string) {
  return toPolicy(await policyOf(ctx.db, orgId, id));
}

export async function createPolicy(ctx: PortalContext, caller: Caller, orgId: string, p: PolicyInput) {
  const now = ctx.clock.now();
  const id = randomUUID().replaceAll('-', '');
  await ctx.db.tx(async (q) => repo.insertPolicy(q, id, orgId, await valuesOf(q, caller, orgId, p), now));
  return { success: true, id, policy: await getPolicy(ctx, orgId, id) };
}

export async function updatePolicy(ctx: PortalContext, caller: Caller, orgId: string, id: string, p: PolicyInput) {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await policyOf(q, orgId, id, true);
    await repo.updatePolicy(q, id, await valuesOf(q, caller, orgId, p), now);
  });
  raise('memberLifecycleChanged');
  return { success: true, id, policy: await getPolicy(ctx, orgId, id) };
}

export async function deletePolicy(ctx: PortalContext, orgId: string, id: string) {
  await ctx.db.tx(async (q) => {
    await policyOf(q, orgId, id, true);
    await repo.deletePolicy(q, id);
  });
  return { success: true, id };
}

/** Switching on runs the policy at once (the runner is woken), then every day. */
export async function setPolicyActive(ctx: PortalContext, orgId: string, id: string, active: boolean) {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const row = await policyOf(q, orgId, id, true);
    if (row.active === active) return;
    await repo.setPolicyActive(q, id, active, active ? now : null, now);
  });
  raise('memberLifecycleChanged');
  return { success: true, id, policy: await getPolicy(ctx, orgId, id) };
}

const listed = (m: CandidateRow): PreviewMember => ({ username: m.username, fullName: m.full_name, inactiveSince: m.inactive_since });

export async function previewPolicy(ctx: PortalContext, orgId: string, id: string): Promise<PolicyPreview> {
  const plan = await planPolicy(ctx.db, await policyOf(ctx.db, orgId, id), ctx.clock.now());
  const cap = LIFECYCLE_LIMITS.previewListed;
  return {
    warn: plan.warn.slice(0, cap).map(listed),
    act: plan.act.slice(0, cap).map(listed),
    skipped: plan.skipped.slice(0, cap).map((s) => ({ ...listed(s.member), reason: s.reason })),
    counts: { warn: plan.warn.length, act: plan.act.length, skipped: plan.skipped.length },
  };
}

export async function listPolicyRuns(ctx: PortalContext, orgId: string, id: string): Promise<{ runs: PolicyRun[] }> {
  await policyOf(ctx.db, orgId, id);
  const runs = await repo.listRuns(ctx.db, id, 30);
  return {
    runs: runs.map((r) => ({ id: r.id, ranAt: r.ran_at, warned: r.warned, acted: r.acted.map((a) => a.username), undone: r.undone, undoneBy: r.undone_by })),
  };
}

export async function undoPolicyRun(ctx: PortalContext, caller: Caller, orgId: string, id: string, runId: string) {
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const policy = await policyOf(q, orgId, id);
    const run = await repo.findRun(q, policy.id, runId);
    if (!run) throw notFound(`Run '${runId}'`);
    if (run.undone !== null) throw badParam('runId', 'was already undone', 'Unable to undo the run.');
    const members = new Map(
      (
        await repo.membersByIds(
          q,
          run.acted.map((a) => a.userId),
        )
      ).map((m) => [m.id, m]),
    );
    const results: UndoResult[] = [];
    for (const a of run.acted) results.push(await undoMember(q, a, members.get(a.userId), actorOf(caller), now, { policy: policy.id, undoneRun: run.id }));
    await repo.markRunUndone(q, run.id, caller.username, now);
    return { success: true, results };
  });
}
