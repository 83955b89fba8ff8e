/**
 * Webhook job 2 of 3, claiming: due deliveries are taken with FOR UPDATE SKIP LOCKED under a
 * lease; a crash or restart mid-delivery leaves a lease that runs out, and the delivery is sent
 * again with the same id (at least once; receivers dedupe on `webhook-id`).
 */
import { WEBHOOK_SETTINGS_LIMITS, type WebhookSettings } from '../../../shared/contract/webhooks.ts';
import type { PortalContext } from '../../context.ts';
import { WEBHOOK_LIMITS } from './limits.ts';

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  org_id: string;
  event_id: string;
  event_uri: string;
  event: Record<string, unknown>;
  attempts: number;
  /** When this process's claim runs out (epoch ms): after it, another pass may send the delivery again. */
  locked_until: number;
  name: string;
  payload_url: string;
  secret: string;
  /** The organization's delivery settings as they were at the claim. */
  settings: WebhookSettings;
}

/**
 * Claims due deliveries up to `max`, at most PER_WEBHOOK per webhook in flight (this process's own
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
    const due = await ctx.db.query<{ kind: string }>(
      `(SELECT 'pending' AS kind FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $1 LIMIT 1)
       UNION ALL (SELECT 'expired' AS kind FROM webhook_deliveries WHERE state = 'running' AND locked_until <= $1 LIMIT 1)`,
      [now],
    );
    if (!due.length) return [];
    if (due.some((d) => d.kind === 'expired')) {
      await ctx.db.query(
        `UPDATE webhook_deliveries SET state = 'pending', next_at = locked_until, locked_until = 0 WHERE state = 'running' AND locked_until <= $1`,
        [now],
      );
    }
  }
  // Other processes' deliveries in flight are the running rows under a live lease. The embedded
  // database belongs to this one process, whose deliveries in flight are `inFlight`; counting the
  // rows there would also step over every dead row version a burst left behind (no autovacuum).
  const countRunning = ctx.db.kind !== 'pglite';
  type Claimed = Omit<ClaimedDelivery, 'settings' | 'locked_until'> & {
    locked_until: number | string;
    next_at: number | string;
    created: string | number;
    notification_attempts: number | null;
    timeout_seconds: number | null;
    interval_seconds: number | null;
  };
  const rows = await ctx.db.query<Claimed>(
    `WITH busy AS (
       SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries WHERE $8::boolean AND state = 'running' AND locked_until > $1 GROUP BY webhook_id
     ), here AS (
       SELECT * FROM unnest($2::text[], $3::int[]) AS h(webhook_id, n)
     ), room AS (
       SELECT w.id, w.org_id, w.name, w.payload_url, w.secret, $4::int - greatest(coalesce(b.n, 0), coalesce(h.n, 0)) AS free
         FROM webhooks w LEFT JOIN busy b ON b.webhook_id = w.id LEFT JOIN here h ON h.webhook_id = w.id
        WHERE w.is_active
     ), picked AS (
       SELECT d.id, d.next_at, d.created, r.name, r.payload_url, r.secret,
              s.notification_attempts, s.timeout_seconds, s.interval_seconds
         FROM room r
        CROSS JOIN LATERAL (
          SELECT x.id, x.next_at, x.created FROM webhook_deliveries x
           WHERE x.webhook_id = r.id AND x.state = 'pending' AND x.next_at <= $1
           ORDER BY x.next_at, x.created
           LIMIT greatest(r.free, 0)
           FOR UPDATE SKIP LOCKED) d
         LEFT JOIN webhook_settings s ON s.org_id = r.org_id
        WHERE r.free > 0
        ORDER BY d.next_at, d.created
        LIMIT $5
     )
     UPDATE webhook_deliveries d
        SET state = 'running', attempts = d.attempts + 1,
            locked_until = $1 + coalesce(p.timeout_seconds, $6) * 1000 + $7
       FROM picked p
      WHERE d.id = p.id
     RETURNING d.id, d.webhook_id, d.org_id, d.event_id, d.event_uri, d.event, d.attempts, d.locked_until, p.next_at, p.created, p.name, p.payload_url, p.secret,
               p.notification_attempts, p.timeout_seconds, p.interval_seconds`,
    [
      now,
      [...inFlight.keys()],
      [...inFlight.values()],
      WEBHOOK_LIMITS.perWebhook,
      max,
      WEBHOOK_SETTINGS_LIMITS.notificationTimeOutInSeconds.default,
      WEBHOOK_LIMITS.leaseMarginMs,
      countRunning,
    ],
  );
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
