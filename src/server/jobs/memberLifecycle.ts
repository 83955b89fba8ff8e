/**
 * The member lifecycle runner: disables members whose expiration came, sends the warnings before
 * it, and runs the inactivity policies that are due (areas/memberLifecycle/due.ts claims each with
 * FOR UPDATE SKIP LOCKED, so several instances on one database never both act). Like the task
 * scheduler, it sleeps until the next due moment (at most pollMs on PostgreSQL, for other instances'
 * changes; passLoop.ts idleWaitMs on the embedded database) and wakes at once when this process
 * changes an expiration or a policy. Times come from the portal's
 * clock (tests drive it).
 */
import type { Clock, PortalContext } from '../context.ts';
import { onSignal } from '../core/signals.ts';
import { idleWaitMs, PassLoop } from './passLoop.ts';
import { expireDue, nextDue, runDuePolicies, warnDueExpirations, warningMsOf } from '../areas/memberLifecycle/service.ts';

export interface LifecycleRunnerOptions {
  clock?: Clock;
  pollMs?: number;
}

export class MemberLifecycleRunner {
  private readonly clock: Clock;
  private readonly pollMs: number;
  private readonly loop: PassLoop;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: PortalContext,
    opts: LifecycleRunnerOptions = {},
  ) {
    this.clock = opts.clock ?? ctx.clock;
    this.pollMs = opts.pollMs ?? 1000;
    this.loop = new PassLoop(() => this.pass(), { waitMs: this.pollMs, onError: (err) => ctx.log.error({ err }, 'member lifecycle pass failed') });
  }

  /** One pass over everything due now: warnings first (a member warned and expired at once gets both, in order). */
  async runDue(): Promise<{ warned: number; expired: number; policies: number }> {
    const now = this.clock.now();
    let warned = 0;
    let expired = 0;
    let policies = 0;
    for (let n; (n = await warnDueExpirations(this.ctx, now));) warned += n;
    for (let n; (n = await expireDue(this.ctx, now));) expired += n;
    for (let n; (n = await runDuePolicies(this.ctx, now));) policies += n;
    return { warned, expired, policies };
  }

  start(): this {
    this.unsubscribe = onSignal('memberLifecycleChanged', () => this.loop.wake());
    this.loop.start();
    return this;
  }

  /** Answers how long to sleep: until the next due moment (idleWaitMs). */
  private async pass(): Promise<number> {
    let next = await nextDue(this.ctx.db, warningMsOf(this.ctx));
    if (next !== null && next <= this.clock.now()) {
      await this.runDue();
      next = await nextDue(this.ctx.db, warningMsOf(this.ctx));
    }
    // Still due: another instance holds those rows. Look again shortly rather than spin.
    const shortly = next !== null && next <= this.clock.now() ? Math.min(100, this.pollMs) : this.pollMs;
    return idleWaitMs(this.ctx.db.kind === 'pglite', shortly, next, this.clock.now());
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.loop.stop();
  }
}

/** What main.ts starts. */
export function startMemberLifecycle(ctx: PortalContext, opts: LifecycleRunnerOptions = {}): MemberLifecycleRunner {
  return new MemberLifecycleRunner(ctx, opts).start();
}
