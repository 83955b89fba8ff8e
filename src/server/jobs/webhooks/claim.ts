/**
 * Webhook job 2 of 3, claiming: due deliveries are taken with FOR UPDATE SKIP LOCKED under a
 * lease; a crash or restart mid-delivery leaves a lease that runs out, and the delivery is sent
 * again with the same id (at least once; receivers dedupe on `webhook-id`).
 */
import { WEBHOOK_SETTINGS_LIMITS, type WebhookSettings } from '../../../shared/contract/webhooks.ts';
import type { PortalContext } from '../../context.ts';
import { claimDueDeliveries, dueOrExpiredDeliveries, releaseExpiredDeliveries, type ClaimedDeliveryRow } from '../../areas/webhooks/service.ts';
import { webhookDispatchOf } from '../../config.ts';

/**
 * A claimed delivery as the sender takes it: the claim's row with its lease as a number and the
 * organization's delivery settings resolved (defaults where it has none).
 */
export type ClaimedDelivery = Omit<
  ClaimedDeliveryRow,
  'locked_until' | 'next_at' | 'created' | 'notification_attempts' | 'timeout_seconds' | 'interval_seconds'
> & {
  /** When this process's claim runs out (epoch ms): after it, another pass may send the delivery again. */
  locked_until: number;
  /** The organization's delivery settings as they were at the claim. */
  settings: WebhookSettings;
};

/**
 * Claims due deliveries up to `max`, at most perWebhook (Config webhooks) per webhook in flight (this process's own
 * `inFlight`, and on PostgreSQL also the running rows under a live lease, which other processes
 * claimed). A running delivery whose lease ran out (its process stopped mid-attempt) becomes pending again first. Candidates are
 * taken per active webhook (its oldest due deliveries, through a per-webhook index), so one
 * webhook's backlog never hides another webhook's deliveries.
 *
 * The claim is one statement — count what is running, pick with FOR UPDATE SKIP LOCKED, mark
 * running under a lease of the organization's time limit — because on the embedded database every
 * statement and every BEGIN/COMMIT is a round trip through the one thread that also sends.
 * `checkDue: false` skips the read-only check for due or expired work (the caller's last claim
 * came back full, so there is more): the check is what keeps an idle pass from writing.
 */
export async function claimDeliveries(
  ctx: PortalContext,
  max: number,
  inFlight: ReadonlyMap<string, number> = new Map(),
  opts: { checkDue?: boolean } = {},
): Promise<ClaimedDelivery[]> {
  if (max <= 0) return [];
  const now = ctx.clock.now();
  if (opts.checkDue !== false) {
    const due = await dueOrExpiredDeliveries(ctx.db, now);
    if (!due.length) return [];
    if (due.some((d) => d.kind === 'expired')) await releaseExpiredDeliveries(ctx.db, now);
  }
  // Other processes' deliveries in flight are the running rows under a live lease. The embedded
  // database belongs to this one process, whose deliveries in flight are `inFlight`; counting the
  // rows there would also step over every dead row version a burst left behind (no autovacuum).
  const countRunning = ctx.db.kind !== 'pglite';
  const { perWebhook, leaseMarginMs } = webhookDispatchOf(ctx.config);
  const rows = await claimDueDeliveries(ctx.db, {
    now,
    inFlight,
    perWebhook,
    max,
    defaultTimeoutSeconds: WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.default,
    leaseMarginMs,
    countRunning,
  });
  rows.sort((a, b) => Number(a.next_at) - Number(b.next_at) || Number(a.created) - Number(b.created));
  return rows.map(({ notification_attempts, timeout_seconds, interval_seconds, next_at: _n, created: _c, locked_until, ...rest }) => ({
    ...rest,
    locked_until: Number(locked_until),
    settings: {
      notificationAttempts: notification_attempts ?? WEBHOOK_SETTINGS_LIMITS.notificationAttempts.default,
      notificationTimeOutInSeconds: timeout_seconds ?? WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.default,
      notificationElapsedTimeInSeconds: interval_seconds ?? WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.default,
    },
  }));
}
