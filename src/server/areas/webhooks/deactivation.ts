/**
 * Once `numberOfFailures` failed deliveries fall within `daysInPast` days (and since the webhook
 * was last activated) the webhook is deactivated (default policy 5 in 5 days); the reason is kept
 * for the console.
 */
import { DEFAULT_DEACTIVATION_POLICY } from '../../../shared/contract/webhooks.ts';
import type { Queryable } from '../../store/db.ts';
import { countFailedDeliveries, lockPolicyState, setActive } from './repo.ts';

const DAY_MS = 86_400_000;

/** Deactivates the webhook once its policy's number of failed deliveries fall within its window. */
export async function applyDeactivationPolicy(q: Queryable, webhookId: string, now: number): Promise<void> {
  const hook = await lockPolicyState(q, webhookId);
  if (!hook?.is_active) return;
  const policy = hook.config.deactivationPolicy ?? DEFAULT_DEACTIVATION_POLICY;
  const n = await countFailedDeliveries(q, webhookId, now - policy.daysInPast * DAY_MS, Number(hook.activated));
  if (n >= policy.numberOfFailures) {
    await deactivate(
      q,
      webhookId,
      now,
      `Deactivated by its policy: ${n} failed deliveries within ${policy.daysInPast} day${policy.daysInPast === 1 ? '' : 's'} (limit ${policy.numberOfFailures}).`,
    );
  }
}

/** An active webhook becomes inactive, keeping `reason` for the console (the same write as a deactivation by hand). */
export async function deactivate(q: Queryable, webhookId: string, now: number, reason: string): Promise<void> {
  await setActive(q, webhookId, false, now, reason);
}
