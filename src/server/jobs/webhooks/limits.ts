/** The webhook jobs' numbers. */
import { WEBHOOK_SETTINGS_LIMITS } from '../../../shared/contract/webhooks.ts';

export const WEBHOOK_LIMITS = {
  pollMs: 200,
  /**
   * With the embedded database this process writes every event and nudges the loop itself; the poll
   * only finds retries come due (at least a second apart), so it need not read the outbox five times
   * a second: at 200 ms it was most of an idle portal's CPU.
   */
  embeddedPollMs: 1000,
  /** Outbox rows read per fan-out transaction. */
  fanOutBatch: 500,
  /** How long a seq gap may hold the cursor back on PostgreSQL (a transaction still committing). */
  gapGraceMs: 10_000,
  perWebhook: 8,
  maxInFlight: 32,
  /** The lease is the request's time limit plus this. */
  leaseMarginMs: 30_000,
  responseExcerptBytes: 2048,
  /** Attempts after which the drained queue's tables are vacuumed (embedded database only). */
  vacuumAfterAttempts: 5_000,
};

export const DAY_MS = 86_400_000;
/** The longest Retry-After honoured: the settings' longest interval between attempts. */
export const MAX_RETRY_AFTER_MS = WEBHOOK_SETTINGS_LIMITS.notificationElapsedTimeInSeconds.max * 1000;
