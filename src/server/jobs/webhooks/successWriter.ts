import type { PortalContext } from '../../context.ts';
import { recordSuccesses, type SuccessfulAttempt } from '../../areas/webhooks/service.ts';

/**
 * Successful attempts are written together: every success that ends while the previous write is
 * running goes into the next one, a single statement that logs the attempts and marks their
 * deliveries delivered (the embedded database runs one statement at a time, so one statement for
 * many rows is what keeps up with the receivers). A write is safe to try again (deliver.ts does, while
 * the database is down): an attempt already logged (its delivery, number and time) is not logged
 * twice. A crash before the write leaves the deliveries running; they are sent again with the same id when their lease runs out (at least once).
 */
class SuccessWriter {
  private queue: { s: SuccessfulAttempt; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private writing = false;
  constructor(private readonly ctx: PortalContext) {}

  write(s: SuccessfulAttempt): Promise<void> {
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
      try {
        await recordSuccesses(
          this.ctx.db,
          batch.map((b) => b.s),
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
