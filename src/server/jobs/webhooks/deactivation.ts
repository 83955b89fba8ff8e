/**
 * Once `numberOfFailures` failed deliveries fall within `daysInPast` days (and since the webhook
 * was last activated) the webhook is deactivated (default policy 5 in 5 days); the reason is kept
 * for the console.
 */
import { DEFAULT_DEACTIVATION_POLICY, type WebhookConfig } from '../../../shared/contract/webhooks.ts';
import type { Queryable } from '../../store/db.ts';
import { DAY_MS } from './limits.ts';

/** Deactivates the webhook once its policy's number of failed deliveries fall within its window. */
export async function applyDeactivationPolicy(q: Queryable, webhookId: string, now: number): Promise<void> {
  const [hook] = await q.query<{ config: WebhookConfig; activated: string | number; is_active: boolean }>(
    'SELECT config, activated, is_active FROM webhooks WHERE id = $1 FOR UPDATE',
    [webhookId],
  );
  if (!hook?.is_active) return;
  const policy = hook.config.deactivationPolicy ?? DEFAULT_DEACTIVATION_POLICY;
  const [{ n }] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'failed' AND finished >= $2 AND finished > $3`,
    [webhookId, now - policy.daysInPast * DAY_MS, Number(hook.activated)],
  );
  if (n >= policy.numberOfFailures) {
    await deactivate(
      q,
      webhookId,
      now,
      `Deactivated by its policy: ${n} failed deliveries within ${policy.daysInPast} day${policy.daysInPast === 1 ? '' : 's'} (limit ${policy.numberOfFailures}).`,
    );
  }
}

export async function deactivate(q: Queryable, webhookId: string, now: number, reason: string): Promise<void> {
  await q.query('UPDATE webhooks SET is_active = false, modified = $2, deactivated_at = $2, deactivated_reason = $3 WHERE id = $1 AND is_active', [
    webhookId,
    now,
    reason,
  ]);
}
