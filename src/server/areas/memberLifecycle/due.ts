/**
 * The due work of the member lifecycle, as the runner (jobs/memberLifecycle.ts) calls it. Each step
 * claims its rows with FOR UPDATE SKIP LOCKED and changes their state in the same transaction, as
 * the task scheduler claims tasks: with several instances on one database, a row is taken by one
 * of them, and once taken it is no longer due (the member is disabled, warned, or the policy moved
 * on), so no member is disabled or warned twice. A policy's run also has a unique (policy, due
 * time) key, so a repeated claim of one occurrence collapses.
 */
import type { PortalContext } from '../../context.ts';
import { recordEvents } from '../../store/events.ts';
import { countDefaultAdmins, writeMemberDisabled } from '../users/service.ts';
import { applyPlan, planPolicy } from './apply.ts';
import {
  DAY_MS,
  claimDueExpirations,
  claimDueExpirationWarnings,
  claimDuePolicies,
  completeRun,
  insertRun,
  isDefaultAdministrator,
  markExpirationWarned,
  movePolicyOn,
  nextDue,
  setExpiration,
} from './repo.ts';

/** Rows taken per transaction. */
export const DUE_BATCH = 100;

export const warningMsOf = (ctx: PortalContext) => (ctx.config.memberExpiryWarningDays ?? 7) * DAY_MS;

/** Members whose expiration came: disabled (the expiration is cleared, so enabling them again holds). */
export async function expireDue(ctx: PortalContext, now: number): Promise<number> {
  return ctx.db.tx(async (q) => {
    const due = await claimDueExpirations(q, now, DUE_BATCH);
    for (const m of due) {
      await setExpiration(q, m.id, null);
      // The organization's last enabled administrator stays enabled (as disableUser refuses it).
      if ((await isDefaultAdministrator(q, m.id)) && (await countDefaultAdmins(q, m.org_id)) <= 1) {
        ctx.log.warn({ username: m.username }, 'expiration not applied: the organization would have no administrator');
        continue;
      }
      await writeMemberDisabled(q, m, true, null, now, { expiration: m.expiration });
    }
    return due.length;
  });
}

/** Members entering their warning window: one `expirationWarning` event each. */
export async function warnDueExpirations(ctx: PortalContext, now: number): Promise<number> {
  return ctx.db.tx(async (q) => {
    const due = await claimDueExpirationWarnings(q, now, warningMsOf(ctx), DUE_BATCH);
    for (const m of due) await markExpirationWarned(q, m.id, now);
    await recordEvents(
      q,
      due.map((m) => ({
        orgId: m.org_id,
        source: 'user' as const,
        operation: 'expirationWarning',
        subjectId: m.username,
        actor: null,
        when: now,
        properties: { expiration: m.expiration },
        history: { title: m.full_name || m.username },
      })),
    );
    return due.length;
  });
}

/** Active policies whose daily run is due: each run recorded once, then the policy moves to its next day. */
export async function runDuePolicies(ctx: PortalContext, now: number): Promise<number> {
  return ctx.db.tx(async (q) => {
    const due = await claimDuePolicies(q, now, DUE_BATCH);
    for (const policy of due) {
      const scheduledAt = policy.next_run_at!;
      // Missed days (the service was down) fire once now, as the scheduler's misfire policy.
      const next = scheduledAt + Math.max(1, Math.ceil((now - scheduledAt + 1) / DAY_MS)) * DAY_MS;
      await movePolicyOn(q, policy.id, next);
      const runId = `${policy.id}-${scheduledAt}`;
      const plan = await planPolicy(q, policy, now, true);
      // The run's row goes in first: a repeated occurrence stops here and changes nothing.
      const fresh = await insertRun(q, {
        id: runId,
        policy_id: policy.id,
        org_id: policy.org_id,
        scheduled_at: scheduledAt,
        ran_at: now,
        warned: [],
        acted: [],
      });
      if (!fresh) continue;
      const acted = await applyPlan(q, policy, plan, runId, now);
      await completeRun(
        q,
        runId,
        plan.warn.map((m) => m.username),
        acted,
      );
    }
    return due.length;
  });
}

export { nextDue };
