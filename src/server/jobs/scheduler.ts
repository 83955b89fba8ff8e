/**
 * The task scheduler (perf notes §5.3). Safe with several service processes on one database:
 *
 * 1. Each active task stores its next due time (`tasks.next_run_at`). A pass claims due tasks with
 *    FOR UPDATE SKIP LOCKED and, in the same transaction, records the occurrence as a run whose id
 *    is derived from the task and the scheduled time (`<taskId>-<epoch ms>`, unique on
 *    (task_id, scheduled_at)) and moves next_run_at on. A process that loses the race skips the
 *    locked row, and a repeated claim collapses on the unique key: no occurrence runs twice.
 * 2. Runs waiting to start are claimed (SKIP LOCKED again) under a lease and executed. If the
 *    process dies mid-run, the lease runs out and another scheduler takes the run over once more
 *    (Config scheduler maxAttempts in all); after that the run fails as interrupted. The loop claims in batches
 *    (up to claimAhead runs beyond those executing, kept in a local queue) so that a burst of due
 *    runs costs one claim per batch rather than one per run; the statement that claims a batch
 *    also records its tasks' start and answers the tasks (areas/tasks/repo.ts claimRuns). A run's
 *    recorded start is when its executor was called (the claim records the claim time; the end
 *    overwrites it). Ends are written many per statement (runEnds.ts); a run's slot frees when its
 *    executor returns, its end written meanwhile (stop() waits for the ends).
 * 3. Misfires (the service was down, or busy, past one or more due times): of the occurrences
 *    missed, the latest is fired once on recovery and the earlier ones are recorded as skipped
 *    (at most skippedRecorded of them; the fired run's result gives the full count). This is
 *    Quartz's "fire once now" policy and pg-boss's `missed: once`.
 * 4. A run that fails adds to the task's consecutive failures; at FAILURES_TO_DISABLE the task is
 *    deactivated (state `failed`) with the reason. A success resets the count.
 *
 * Times are epoch milliseconds, UTC; the clock is the portal's (tests drive it).
 */
import type { TaskType } from '../../shared/contract/tasks.ts';
import { SCHEDULER_DEFAULTS, type SchedulerSettings } from '../config.ts';
import type { Clock, PortalContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import {
  claimRuns,
  completeTask,
  computeNextRun,
  EXECUTORS,
  handBackRun,
  handBackRuns,
  insertScheduledRuns,
  insertSkippedRuns,
  lockDueTasks,
  lockInterruptedRuns,
  moveTasksOn,
  pruneRuns,
  RunFailed,
  scheduleOf,
  schedulerState,
  type ClaimedRunRow,
  type DueTask,
  type Executor,
} from '../areas/tasks/service.ts';
import { onSignal } from '../core/signals.ts';
import { PassLoop } from './passLoop.ts';
import { nextRun } from '../../shared/cron.ts';
import { RunEndWriter } from './runEnds.ts';

/** A scheduler's clock and executors, and settings that override Config scheduler (tests). */
export interface SchedulerOptions extends Partial<SchedulerSettings> {
  clock?: Clock;
  executors?: Partial<Record<TaskType, Executor>>;
}

export class TaskScheduler {
  private readonly clock: Clock;
  private readonly executors: Record<TaskType, Executor>;
  private readonly running = new Set<Promise<void>>();
  /** Ends of runs that left their slot, still being written. */
  private readonly ending = new Set<Promise<void>>();
  /** Claimed runs waiting for an execution slot (at most maxInFlight of them; refilled once half empty). */
  private readonly queue: ClaimedRunRow[] = [];
  private readonly abort = new AbortController();
  private stopped = false;
  private readonly loop: PassLoop;
  private unsubscribe: (() => void) | undefined;
  private lastPrune = 0;
  private readonly ends: RunEndWriter;
  /** Config scheduler, with the options' overrides. */
  private readonly limits: SchedulerSettings;

  constructor(
    private readonly ctx: PortalContext,
    opts: SchedulerOptions = {},
  ) {
    const { clock, executors, ...overrides } = opts;
    this.limits = { ...SCHEDULER_DEFAULTS, ...ctx.config.scheduler, ...definedOnly(overrides) };
    this.clock = clock ?? ctx.clock;
    this.executors = { ...EXECUTORS, ...executors };
    // Ends wait while claimed runs wait for a slot (at most a second): starts go first.
    this.ends = new RunEndWriter(ctx.db, this.clock, { holdWhile: () => this.queue.length > 0 && !this.stopped, maxHoldMs: 1000 });
    this.loop = new PassLoop(() => this.pass(), {
      waitMs: this.limits.pollMs,
      onError: (err) => ctx.log.error({ err }, 'task scheduler pass failed'),
    });
  }

  private get maxInFlight() {
    return this.limits.maxInFlight;
  }

  /** Queued runs at or below which the loop claims more: a round of slots' worth, or half the queue if smaller. */
  private get refillAt() {
    return Math.min(this.maxInFlight, this.limits.claimAhead / 2);
  }

  /**
   * Turn due occurrences into runs (step 1), a transaction per claimBatch tasks, at most `batches`
   * of them; answers how many tasks were handled.
   */
  async materialize(batches = Infinity): Promise<number> {
    const now = this.clock.now();
    let handled = 0;
    for (let batch = 0; batch < batches; batch++) {
      const n = await this.ctx.db.tx(async (q) => {
        const due = await lockDueTasks(q, now, this.limits.claimBatch);
        if (due.length) await this.fire(q, due, now);
        return due.length;
      });
      handled += n;
      if (n < this.limits.claimBatch || this.stopped) return handled;
    }
    return handled;
  }

  /**
   * Due tasks, set-based: for each, the latest missed occurrence becomes a run, earlier ones are
   * recorded as skipped, and next_run_at moves on (or the task completes).
   */
  private async fire(q: Queryable, tasks: DueTask[], now: number): Promise<void> {
    const skipped: { task: string; org: string; at: number }[] = [];
    const fired: { task: DueTask; at: number; note: string }[] = [];
    for (const t of tasks) {
      const window = { startDate: t.start_date, endDate: t.end_date };
      const missed: number[] = [t.next_run_at!];
      let more = false;
      for (let at = t.next_run_at!; ;) {
        const next = nextRun(scheduleOf(t), at, window);
        if (next === null || next > now) break;
        if (missed.length >= this.limits.catchUpScan) {
          more = true;
          break;
        }
        missed.push(next);
        at = next;
      }
      const earlier = missed.slice(0, -1);
      for (const at of earlier.slice(-this.limits.skippedRecorded)) skipped.push({ task: t.id, org: t.org_id, at });
      const note = earlier.length
        ? `Started on recovery; ${more ? 'more than ' : ''}${earlier.length} earlier missed run${earlier.length === 1 ? ' was' : 's were'} skipped.`
        : '';
      fired.push({ task: t, at: missed[missed.length - 1], note });
    }
    if (skipped.length) await insertSkippedRuns(q, skipped, 'Missed while the scheduler was not running; only the latest missed run was started.', now);
    const inserted = await insertScheduledRuns(
      q,
      fired.map((f) => ({ taskId: f.task.id, orgId: f.task.org_id, at: f.at, note: f.note })),
      now,
    );
    const insertedIds = new Set(inserted.map((r) => r.task_id));
    const moved: { id: string; next: number; count: number }[] = [];
    for (const { task: t, at } of fired) {
      const runCount = t.run_count + (insertedIds.has(t.id) ? 1 : 0);
      const next = computeNextRun({ ...t, run_count: runCount }, Math.max(now, at));
      if (next !== null) {
        moved.push({ id: t.id, next, count: runCount });
        continue;
      }
      const reason =
        t.max_occurrences != null && runCount >= t.max_occurrences
          ? `Completed: it ran the maximum of ${t.max_occurrences} times.`
          : 'Completed: no run is left before its end date.';
      await completeTask(q, t.id, runCount, reason, now);
    }
    if (moved.length) await moveTasksOn(q, moved);
  }

  /** Claim runs waiting to start, and runs whose lease ran out (step 2), in one transaction. */
  async claim(limit: number): Promise<ClaimedRunRow[]> {
    if (limit <= 0) return [];
    const now = this.clock.now();
    const lease = this.limits.leaseMs;
    const { claimed, interrupted } = await this.ctx.db.tx(async (q) => {
      // Runs taken over too often are failed below rather than tried again.
      const interrupted = await lockInterruptedRuns(q, now, this.limits.maxAttempts, limit);
      const claimed = await claimRuns(q, { now, leaseUntil: now + lease, limit, maxAttempts: this.limits.maxAttempts });
      return { claimed, interrupted };
    });
    await Promise.all(
      interrupted.map((r) =>
        this.finish(
          { id: r.id, taskId: r.task_id, scheduledAt: r.scheduled_at, attempt: r.attempts },
          'failed',
          'Interrupted: the service stopped during the run, twice.',
        ),
      ),
    );
    return claimed;
  }

  /** Execute one claimed run and record its end (step 3). */
  async execute(run: ClaimedRunRow): Promise<void> {
    const outcome = await this.perform(run);
    if (outcome) await this.finish(run, outcome.status, outcome.result, outcome.startedAt);
  }

  /**
   * Call the run's executor; answers its outcome to record, or nothing when there is none to record
   * (the task is gone, or the scheduler stopped mid-run and handed the run back).
   */
  private async perform(run: ClaimedRunRow): Promise<{ status: 'succeeded' | 'failed'; result: string; startedAt: number } | undefined> {
    const startedAt = this.clock.now();
    const task = run.task;
    if (!task) return undefined; // deleted meanwhile: its runs went with it
    let status: 'succeeded' | 'failed';
    let result: string;
    try {
      result = await this.executors[task.type]({ ctx: this.ctx, task, runId: run.id, scheduledAt: run.scheduledAt, signal: this.abort.signal });
      status = 'succeeded';
    } catch (err) {
      status = 'failed';
      result = err instanceof RunFailed ? err.message : `The run failed: ${(err as Error)?.message ?? String(err)}`;
      if (!(err instanceof RunFailed)) this.ctx.log.warn({ err, taskId: task.id, runId: run.id }, 'scheduled task run failed');
    }
    if (status === 'failed' && this.abort.signal.aborted) {
      // Stopped mid-run: hand the run back (not counted as an attempt) for the next start, or another process.
      await handBackRun(this.ctx.db, run.id, run.attempt);
      return undefined;
    }
    return { status, result, startedAt };
  }

  /** Record a run's end and the task's bookkeeping (runEnds.ts: written together with other ends). */
  private finish(run: ClaimedRunRow, status: 'succeeded' | 'failed', result: string, startedAt?: number): Promise<void> {
    return this.ends.record({ runId: run.id, taskId: run.taskId, attempt: run.attempt, status, result, startedAt: startedAt ?? null });
  }

  /** Delete finished runs beyond the newest runsKept of each task; answers how many went. */
  async prune(): Promise<number> {
    return pruneRuns(this.ctx.db, this.limits.runsKept);
  }

  /** One full pass, waiting for every run it starts to end (tests; the loop does not wait). */
  async runDue(): Promise<{ fired: number; runs: number }> {
    const fired = await this.materialize();
    let runs = 0;
    for (;;) {
      const batch = await this.claim(this.maxInFlight);
      if (!batch.length) break;
      runs += batch.length;
      await Promise.all(batch.map((r) => this.execute(r)));
    }
    return { fired, runs };
  }

  /** Background loop: wakes at the next due time (at most pollMs away) or when this process changes a task. */
  start(): this {
    this.unsubscribe = onSignal('taskSchedulesChanged', () => this.loop.wake());
    this.loop.start();
    return this;
  }

  /** Answers how long to sleep before the next pass. */
  private async pass(): Promise<number> {
    const pollMs = this.limits.pollMs;
    const now = this.clock.now();
    // An idle pass only reads: no transaction unless something is due or waiting.
    const state = await schedulerState(this.ctx.db, now);
    const nextDue = state.nextDue;
    // One batch of due tasks per pass, then runs start: in a burst (1,000 tasks due at once) the
    // first runs start after 200 tasks are materialised, not after all of them; the next pass
    // follows at once and materialises the next batch.
    if (nextDue !== null && nextDue <= now && (await this.materialize(1)) === this.limits.claimBatch) this.loop.passAgain();
    if (state.waiting || (nextDue !== null && nextDue <= now)) {
      // Room for claimAhead runs beyond those executing; the queue refills once it runs low.
      const room = this.maxInFlight + this.limits.claimAhead - this.running.size - this.queue.length;
      const batch = await this.claim(room);
      this.queue.push(...batch);
      this.drain();
      if (room > 0 && batch.length === room) this.loop.passAgain(); // there may be more
    }
    if (Date.now() - this.lastPrune > this.limits.pruneEveryMs) {
      this.lastPrune = Date.now();
      await this.prune();
    }
    const untilDue = nextDue === null || nextDue <= now ? pollMs : nextDue - this.clock.now();
    return Math.max(0, Math.min(pollMs, untilDue));
  }

  /** Start queued runs while slots are free; look at the database again once the queue runs low. */
  private drain(): void {
    while (!this.stopped && this.running.size < this.maxInFlight && this.queue.length) this.launch(this.queue.shift()!);
  }

  /**
   * Execute a run in a slot. The slot frees when the executor returns: the end is written with
   * others' (runEnds.ts) while the next runs start, rather than holding the slot through the write.
   */
  private launch(run: ClaimedRunRow): void {
    const p: Promise<void> = this.perform(run)
      .then((outcome) => {
        if (!outcome) return;
        const end: Promise<void> = this.finish(run, outcome.status, outcome.result, outcome.startedAt)
          .catch((err) => this.ctx.log.error({ err, runId: run.id }, 'task run bookkeeping failed'))
          .finally(() => this.ending.delete(end));
        this.ending.add(end);
      })
      .catch((err) => this.ctx.log.error({ err, runId: run.id }, 'task run bookkeeping failed'))
      .finally(() => {
        this.running.delete(p);
        this.drain();
        if (!this.queue.length) this.ends.release();
        if (this.queue.length <= this.refillAt) this.loop.wake();
      });
    this.running.add(p);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    const passEnded = this.loop.stop();
    this.abort.abort();
    await passEnded;
    // Claimed but never started: handed back at once (not counted as an attempt) rather than left
    // to their lease.
    const queued = this.queue.splice(0);
    this.ends.release();
    if (queued.length) await handBackRuns(this.ctx.db, queued);
    await Promise.all([...this.running]);
    await Promise.all([...this.ending]);
  }
}

/** The settings given (an option left undefined does not override Config). */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** What main.ts starts. */
export function startTaskScheduler(ctx: PortalContext, opts: SchedulerOptions = {}): TaskScheduler {
  return new TaskScheduler(ctx, opts).start();
}
