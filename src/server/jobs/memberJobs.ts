/**
 * The bulk member jobs runner: claims a due job (running, its lease run out) with FOR UPDATE SKIP
 * LOCKED, so one instance works on a job at a time, and runs it batch after batch
 * (areas/memberJobs/service.ts runJobBatch: each batch one transaction, every member in it done
 * exactly once), renewing its lease, until the job ends, is paused or cancelled, or its time slice
 * is up (then the lease is let go and the next pass claims the job again, so one large job never
 * holds up another). A runner that dies leaves its lease to run out; the job is then claimed again
 * and only its pending members are done.
 */
import { MEMBER_JOB_DEFAULTS, type MemberJobSettings } from '../config.ts';
import type { PortalContext } from '../context.ts';
import { onSignal } from '../core/signals.ts';
import { anyDueJob, claimDueJob, nextLeaseEnd, renewLease, runJobBatch } from '../areas/memberJobs/service.ts';
import { idleWaitMs, PassLoop } from './passLoop.ts';

const settingsOf = (ctx: PortalContext): MemberJobSettings => ctx.config.memberJobs ?? MEMBER_JOB_DEFAULTS;

/** Claims a due job and runs it for one slice (Config memberJobs); answers whether it ran one. */
export function runOneMemberJob(ctx: PortalContext): Promise<boolean> {
  return runOneSlice(ctx, settingsOf(ctx));
}

async function runOneSlice(ctx: PortalContext, limits: MemberJobSettings): Promise<boolean> {
  if (!(await anyDueJob(ctx.db, ctx.clock.now()))) return false;
  const job = await ctx.db.tx((q) => claimDueJob(q, ctx.clock.now(), ctx.clock.now() + limits.leaseMs));
  if (!job) return false;
  const started = Date.now();
  for (;;) {
    const outcome = await runJobBatch(ctx, job.id, limits.batchSize);
    if (outcome !== 'more') return true;
    if (Date.now() - started >= limits.sliceMs) {
      // The slice is up: let the lease go so the next pass (here or elsewhere) claims it again.
      await renewLease(ctx.db, job.id, 0);
      return true;
    }
    await renewLease(ctx.db, job.id, ctx.clock.now() + limits.leaseMs);
  }
}

/** Runs every due job to its end (tests call this; production polls). Answers how many slices ran. */
export async function runDueMemberJobs(ctx: PortalContext): Promise<number> {
  const limits = { ...settingsOf(ctx), sliceMs: Number.POSITIVE_INFINITY };
  let ran = 0;
  while (await runOneSlice(ctx, limits)) ran++;
  return ran;
}

export interface MemberJobRunner {
  stop(): Promise<unknown>;
}

/**
 * What main.ts starts: a pass when a job is queued or resumed here, and every pollMs (Config
 * memberJobs) for other instances' jobs (on the embedded database, when a lease runs out: idleWaitMs).
 */
export function startMemberJobs(ctx: PortalContext): MemberJobRunner {
  const limits = settingsOf(ctx);
  const embedded = ctx.db.kind === 'pglite';
  const loop: PassLoop = new PassLoop(
    async () => {
      if (await runOneSlice(ctx, limits)) {
        loop.passAgain();
        return limits.pollMs;
      }
      return idleWaitMs(embedded, limits.pollMs, embedded ? await nextLeaseEnd(ctx.db) : null, ctx.clock.now());
    },
    { waitMs: limits.pollMs, onError: (err) => ctx.log.error({ err }, 'member jobs pass failed') },
  );
  const unsubscribe = onSignal('memberJobQueued', () => loop.wake());
  loop.start();
  return {
    stop: () => {
      unsubscribe();
      return loop.stop();
    },
  };
}
