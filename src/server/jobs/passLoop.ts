/**
 * A background loop of passes, one at a time, for the runners that wake at the next due moment
 * (the task scheduler, the member lifecycle runner). A pass answers how long to sleep before the
 * next; a wake-up during a pass (a signal of this process) runs one more right after it instead of
 * a second at once; and a pass that left work behind asks for the next at once (`again`).
 */
export class PassLoop {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private busy = false;
  private again = false;
  private ticking: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pass: () => Promise<number>,
    private readonly opts: { waitMs: number; onError: (err: unknown) => void },
  ) {}

  /** The first pass, on the next turn of the event loop. */
  start(): void {
    this.timer = setTimeout(() => this.wake(), 0);
  }

  /** A pass now, or right after the one running. */
  wake(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.busy = true;
    let wait = this.opts.waitMs;
    this.ticking = this.pass()
      .then((w) => (wait = w))
      .catch(this.opts.onError)
      .finally(() => {
        this.busy = false;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          setImmediate(() => this.wake());
        } else this.timer = setTimeout(() => this.wake(), wait);
      });
  }

  /** Called by a pass that left work behind: the next pass follows at once. */
  passAgain(): void {
    this.again = true;
  }

  /** No pass after this one; settles when the running pass has. */
  stop(): Promise<unknown> {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.ticking;
  }
}

/**
 * The longest an idle runner sleeps on the embedded database. That database is this process's
 * alone: whatever queues work here wakes the runner at once (core/signals.ts), and what comes due
 * with time (a lease running out, a retry, an expiration) has a moment the runner sleeps until. So
 * an idle runner does not look every second, as it must on PostgreSQL for other processes' work:
 * each look is a query on the thread that also serves requests (five runners looking every second
 * cost about 0.03 CPU-s a second, and a request's statements waited behind them). This bound is
 * only a safety net.
 */
export const EMBEDDED_IDLE_MS = 30_000;

/**
 * How long an idle runner sleeps: `pollMs` on PostgreSQL; on the embedded database until `nextDue`
 * (clock ms; null: nothing pending), at most EMBEDDED_IDLE_MS or a longer `pollMs`, and `pollMs`
 * when something is due that this pass could not take (held by a claim, or not runnable).
 */
export function idleWaitMs(embedded: boolean, pollMs: number, nextDue: number | null, now: number): number {
  if (!embedded) return pollMs;
  const longest = Math.max(pollMs, EMBEDDED_IDLE_MS);
  if (nextDue === null) return longest;
  if (nextDue <= now) return pollMs;
  return Math.min(longest, nextDue - now);
}
