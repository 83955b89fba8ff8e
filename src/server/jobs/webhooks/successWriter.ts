import type { PortalContext } from '../../context.ts';

interface Success {
  id: string;
  webhookId: string;
  attempt: number;
  at: number;
  headers: string;
  body: string;
  status: number;
  excerpt: string;
  duration: number;
  done: number;
}

/**
 * Successful attempts are written together: every success that ends while the previous write is
 * running goes into the next one, a single statement that logs the attempts and marks their
 * deliveries delivered (the embedded database runs one statement at a time, so one statement for
 * many rows is what keeps up with the receivers). A write is safe to try again (deliver.ts does, while
the database is down): an attempt already logged (its delivery, number and time) is not logged twice. A crash before the write leaves the deliveries
 * running; they are sent again with the same id when their lease runs out (at least once).
 */
class SuccessWriter {
  private queue: { s: Success; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private writing = false;
  constructor(private readonly ctx: PortalContext) {}

  write(s: Success): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ s, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    // The database holds the thread while it works, so nothing queues up during a write: wait a
    // moment for the answers already on their way before writing.
    await new Promise((r) => setTimeout(r, WRITE_GATHER_MS));
    while (this.queue.length) {
      const batch = this.queue.splice(0, 500);
      const col = <K extends keyof Success>(k: K) => batch.map((b) => b.s[k]);
      try {
        await this.ctx.db.query(
          `WITH logged AS (
             INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, at, request_headers, request_body, status, error, response_excerpt, duration_ms, success)
             SELECT id, hook, attempt, at, headers::jsonb, body, status, NULL, excerpt, duration, true
               FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::text[], $6::text[], $7::int[], $8::text[], $9::int[])
                 AS t(id, hook, attempt, at, headers, body, status, excerpt, duration)
              WHERE NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = t.id AND a.attempt = t.attempt AND a.at = t.at))
           UPDATE webhook_deliveries d SET state = 'delivered', locked_until = 0, finished = f.done
             FROM unnest($1::text[], $10::bigint[]) AS f(id, done)
            WHERE d.id = f.id`,
          [col('id'), col('webhookId'), col('attempt'), col('at'), col('headers'), col('body'), col('status'), col('excerpt'), col('duration'), col('done')],
        );
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.writing = false;
  }
}

/** How long successes gather before they are written: a few ms on each delivery's time, for many rows per statement. */
const WRITE_GATHER_MS = 3;
const writers = new WeakMap<PortalContext, SuccessWriter>();
export function successWriter(ctx: PortalContext): SuccessWriter {
  let w = writers.get(ctx);
  if (!w) writers.set(ctx, (w = new SuccessWriter(ctx)));
  return w;
}
