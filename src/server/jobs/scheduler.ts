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
 *    (MAX_ATTEMPTS in all); after that the run fails as interrupted. The loop claims in batches
 *    (up to maxInFlight runs beyond those executing, kept in a local queue) so that a burst of due
 *    runs costs one claim per batch rather than one per run; the claim reads the batch's tasks in
 *    the same transaction. The pass that materialises due tasks claims as many of the new runs as
 *    there is room for in the statements that insert them (no claim reads them back). A run's
 *    recorded start is when its executor was called (the claim records the claim time; the end
 *    overwrites it). A run's slot is free once its executor returns; its end is written later,
 *    many per statement (runEnds.ts), and held back (at most endsHoldMs) while claimed runs wait
 *    to start, so that in a burst the starts come first.
 * 3. Misfires (the service was down, or busy, past one or more due times): of the occurrences
 *    missed, the latest is fired once on recovery and the earlier ones are recorded as skipped
 *    (at most SKIPPED_RECORDED of them; the fired run's result gives the full count). This is
 *    Quartz's "fire once now" policy and pg-boss's `missed: once`.
 * 4. A run that fails adds to the task's consecutive failures; at FAILURES_TO_DISABLE the task is
 *    deactivated (state `failed`) with the reason. A success resets the count.
 *
 * Times are epoch milliseconds, UTC; the clock is the portal's (tests drive it).
 */
import type { TaskType } from '../../shared/contract/tasks.ts';
import type { Clock, PortalContext } from '../context.ts';
import { EXECUTORS, RunFailed, type Executor } from '../areas/tasks/executors/index.ts';
import { normaliseRun, scheduleOf, tasksByIds, type RunRow, type TaskRow } from '../areas/tasks/repo.ts';
import type { Queryable } from '../store/db.ts';
import { computeNextRun } from '../areas/tasks/service.ts';
import { onSignal } from '../core/signals.ts';
import { PassLoop } from './passLoop.ts';
import { nextRun } from '../../shared/cron.ts';
import { RunEndWriter } from './runEnds.ts';

export const SCHEDULER_LIMITS = {
  /** Longest wait between looks at the database when nothing is due sooner (other processes' tasks). */
  pollMs: 1000,
  /** Due tasks turned into runs per transaction. */
  claimBatch: 200,
  /** Runs executing at once in one process. */
  maxInFlight: 32,
  /** A run's lease: longer than any executor's own time limit. */
  leaseMs: 40 * 60_000,
  maxAttempts: 2,
  /** Missed occurrences recorded one by one (as skipped) per recovery. */
  skippedRecorded: 100,
  /** Missed occurrences counted when working out what was missed; beyond this the count is "more than". */
  catchUpScan: 10_000,
  /** Finished runs kept per task (older ones are pruned); the runs operation lists the newest 30. */
  runsKept: 100,
  /** Longest that run ends wait while runs are waiting to start (the starts go first in a burst). */
  endsHoldMs: 1000,
  /** How often one process prunes old runs. */
  pruneEveryMs: 10 * 60_000,
} as const;

interface ClaimedRun {
  id: string;
  taskId: string;
  scheduledAt: number;
  attempt: number;
  /** The task as read with the claim (one read per batch); missing when it was deleted meanwhile. */
  task?: TaskRow;
}

export interface SchedulerOptions {
  clock?: Clock;
  executors?: Partial<Record<TaskType, Executor>>;
  pollMs?: number;
  maxInFlight?: number;
  leaseMs?: number;
}

export class TaskScheduler {
  private readonly clock: Clock;
  private readonly executors: Record<TaskType, Executor>;
  /** Runs started and not yet recorded as ended (their executor may have returned). */
  private readonly running = new Set<Promise<void>>();
  /** Runs whose executor has not returned yet: what maxInFlight bounds. */
  private executing = 0;
  /** Claimed runs waiting for an execution slot (at most maxInFlight of them; refilled once half empty). */
  private readonly queue: ClaimedRun[] = [];
  private readonly abort = new AbortController();
  private stopped = false;
  private readonly loop: PassLoop;
  private unsubscribe: (() => void) | undefined;
  private lastPrune = 0;
  private readonly ends: RunEndWriter;
  /** End writes waiting for the queue of runs to start to empty (startsFirst). */
  private endsWaiting: (() => void)[] = [];

  constructor(
    private readonly ctx: PortalContext,
    private readonly opts: SchedulerOptions = {},
  ) {
    this.clock = opts.clock ?? ctx.clock;
    this.executors = { ...EXECUTORS, ...opts.executors };
    this.ends = new RunEndWriter(ctx.db, this.clock, () => this.startsFirst());
    this.loop = new PassLoop(() => this.pass(), {
      waitMs: opts.pollMs ?? SCHEDULER_LIMITS.pollMs,
      onError: (err) => ctx.log.error({ err }, 'task scheduler pass failed'),
    });
  }

  private get maxInFlight() {
    return this.opts.maxInFlight ?? SCHEDULER_LIMITS.maxInFlight;
  }

  /**
   * Turn due occurrences into runs (step 1), a transaction per claimBatch tasks, at most `batches`
   * of them; answers how many tasks were handled. Up to `claim` of the new runs are claimed by this
   * scheduler in the same statements (as step 2 would, without reading them back) and queued to start.
   */
  async materialize(batches = Infinity, claim = 0): Promise<number> {
    const now = this.clock.now();
    let handled = 0;
    for (let batch = 0; batch < batches; batch++) {
      const room = Math.max(0, claim - handled);
      const n = await this.ctx.db.tx(async (q) => {
        const due = (
          await q.query<TaskRow>(
            `SELECT t.*, u.username AS owner_username FROM tasks t JOIN users u ON u.id = t.owner_id
              WHERE t.active AND t.next_run_at <= $1 ORDER BY t.next_run_at LIMIT $2 FOR UPDATE OF t SKIP LOCKED`,
            [now, SCHEDULER_LIMITS.claimBatch],
          )
        ).map((t) => ({
          ...t,
          next_run_at: Number(t.next_run_at),
          start_date: t.start_date == null ? null : Number(t.start_date),
          end_date: t.end_date == null ? null : Number(t.end_date),
        }));
        if (due.length) this.queue.push(...(await this.fire(q, due, now, room)));
        return due.length;
      });
      this.drain();
      handled += n;
      if (n < SCHEDULER_LIMITS.claimBatch || this.stopped) return handled;
    }
    return handled;
  }

  /**
   * Due tasks, set-based: for each, the latest missed occurrence becomes a run, earlier ones are
   * recorded as skipped, and next_run_at moves on (or the task completes). The first `claim` runs
   * are inserted claimed (executing, first attempt, under a lease) and answered with their tasks.
   */
  private async fire(q: Queryable, tasks: TaskRow[], now: number, claim: number): Promise<ClaimedRun[]> {
    const skipped: { task: string; org: string; at: number }[] = [];
    const fired: { task: TaskRow; at: number; note: string }[] = [];
    // Two memories: an invalid schedule throws from nextRun but is null from computeNextRun.
    const step = scheduleSteps();
    const stepOn = scheduleSteps();
    for (const t of tasks) {
      const window = { startDate: t.start_date, endDate: t.end_date };
      const missed: number[] = [t.next_run_at!];
      let more = false;
      for (let at = t.next_run_at!; ;) {
        const next = step(t, at, () => nextRun(scheduleOf(t), at, window));
        if (next === null || next > now) break;
        if (missed.length >= SCHEDULER_LIMITS.catchUpScan) {
          more = true;
          break;
        }
        missed.push(next);
        at = next;
      }
      const earlier = missed.slice(0, -1);
      for (const at of earlier.slice(-SCHEDULER_LIMITS.skippedRecorded)) skipped.push({ task: t.id, org: t.org_id, at });
      const note = earlier.length
        ? `Started on recovery; ${more ? 'more than ' : ''}${earlier.length} earlier missed run${earlier.length === 1 ? ' was' : 's were'} skipped.`
        : '';
      fired.push({ task: t, at: missed[missed.length - 1], note });
    }
    if (skipped.length) {
      await q.query(
        `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified)
         SELECT r.task || '-' || r.at, r.task, r.org, r.at, 'skipped', $4, $5, $5 FROM unnest($1::text[], $2::text[], $3::bigint[]) AS r(task, org, at)
         ON CONFLICT DO NOTHING`,
        [
          skipped.map((x) => x.task),
          skipped.map((x) => x.org),
          skipped.map((x) => x.at),
          'Missed while the scheduler was not running; only the latest missed run was started.',
          now,
        ],
      );
    }
    const lease = this.opts.leaseMs ?? SCHEDULER_LIMITS.leaseMs;
    const inserted = await q.query<{ id: string; task_id: string; scheduled_at: number; claimed: boolean }>(
      `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified, attempts, locked_until, started)
       SELECT r.task || '-' || r.at, r.task, r.org, r.at, CASE WHEN r.claimed THEN 'executing' ELSE 'scheduled' END, r.note, $5, $5,
              CASE WHEN r.claimed THEN 1 ELSE 0 END, CASE WHEN r.claimed THEN $7::bigint ELSE 0 END, CASE WHEN r.claimed THEN $5::bigint END
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $6::boolean[]) AS r(task, org, at, note, claimed)
       ON CONFLICT DO NOTHING RETURNING id, task_id, scheduled_at, status = 'executing' AS claimed`,
      [
        fired.map((f) => f.task.id),
        fired.map((f) => f.task.org_id),
        fired.map((f) => f.at),
        fired.map((f) => f.note),
        now,
        fired.map((_, i) => i < claim),
        now + lease,
      ],
    );
    const insertedIds = new Set(inserted.map((r) => r.task_id));
    const claimedIds = new Set(inserted.filter((r) => r.claimed).map((r) => r.task_id));
    const moved: { id: string; next: number; count: number; claimed: boolean }[] = [];
    /** The tasks as step 2's claim would read them back, for the claimed runs. */
    const updated = new Map<string, TaskRow>();
    for (const { task: t, at } of fired) {
      const runCount = t.run_count + (insertedIds.has(t.id) ? 1 : 0);
      const after = Math.max(now, at);
      const next = runsLeft(t, runCount) ? stepOn(t, after, () => computeNextRun({ ...t, run_count: runCount }, after)) : null;
      const claimed = claimedIds.has(t.id);
      const started = claimed ? { last_start: now, last_status: 'executing' as const } : {};
      if (next !== null) {
        moved.push({ id: t.id, next, count: runCount, claimed });
        updated.set(t.id, { ...t, next_run_at: next, run_count: runCount, ...started });
        continue;
      }
      const reason =
        t.max_occurrences != null && runCount >= t.max_occurrences
          ? `Completed: it ran the maximum of ${t.max_occurrences} times.`
          : 'Completed: no run is left before its end date.';
      await q.query(
        `UPDATE tasks SET next_run_at = NULL, run_count = $2, active = false, state = 'completed', state_reason = $3, modified = $4,
                last_start = CASE WHEN $5 THEN $4 ELSE last_start END, last_status = CASE WHEN $5 THEN 'executing' ELSE last_status END
          WHERE id = $1`,
        [t.id, runCount, reason, now, claimed],
      );
      updated.set(t.id, { ...t, next_run_at: null, run_count: runCount, active: false, state: 'completed', state_reason: reason, modified: now, ...started });
    }
    if (moved.length) {
      // A claimed run's task records its start as step 2's claim does.
      await q.query(
        `UPDATE tasks t SET next_run_at = v.next, run_count = v.count,
                last_start = CASE WHEN v.claimed THEN $4 ELSE t.last_start END, last_status = CASE WHEN v.claimed THEN 'executing' ELSE t.last_status END
           FROM unnest($1::text[], $2::bigint[], $3::int[], $5::boolean[]) AS v(id, next, count, claimed) WHERE t.id = v.id`,
        [moved.map((m) => m.id), moved.map((m) => m.next), moved.map((m) => m.count), now, moved.map((m) => m.claimed)],
      );
    }
    return inserted
      .filter((r) => r.claimed)
      .map((r) => ({ id: r.id, taskId: r.task_id, scheduledAt: Number(r.scheduled_at), attempt: 1, task: updated.get(r.task_id) }));
  }

  /** Claim runs waiting to start, and runs whose lease ran out (step 2), in one statement. */
  async claim(limit: number): Promise<ClaimedRun[]> {
    if (limit <= 0) return [];
    const now = this.clock.now();
    const lease = this.opts.leaseMs ?? SCHEDULER_LIMITS.leaseMs;
    const { claimed, interrupted } = await this.ctx.db.tx(async (q) => {
      // Runs taken over too often are failed below rather than tried again.
      const interrupted = (
        await q.query<RunRow>(`SELECT * FROM task_runs WHERE status = 'executing' AND locked_until < $1 AND attempts >= $2 LIMIT $3 FOR UPDATE SKIP LOCKED`, [
          now,
          SCHEDULER_LIMITS.maxAttempts,
          limit,
        ])
      ).map(normaliseRun);
      const rows = await q.query<{ id: string; task_id: string; scheduled_at: number; attempts: number }>(
        `UPDATE task_runs SET status = 'executing', attempts = attempts + 1, locked_until = $2, started = $1, modified = $1
          WHERE id IN (SELECT id FROM task_runs
                        WHERE status = 'scheduled' OR (status = 'executing' AND locked_until < $1 AND attempts < $4)
                        ORDER BY scheduled_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING id, task_id, scheduled_at, attempts`,
        [now, now + lease, limit, SCHEDULER_LIMITS.maxAttempts],
      );
      const taskIds = [...new Set(rows.map((r) => r.task_id))];
      if (taskIds.length) await q.query(`UPDATE tasks SET last_start = $2, last_status = 'executing' WHERE id = ANY($1::text[])`, [taskIds, now]);
      const tasks = new Map((await tasksByIds(q, taskIds)).map((t) => [t.id, t]));
      return {
        claimed: rows.map((r) => ({ id: r.id, taskId: r.task_id, scheduledAt: Number(r.scheduled_at), attempt: r.attempts, task: tasks.get(r.task_id) })),
        interrupted,
      };
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

  /**
   * Execute one claimed run and record its end (step 3). `executed` is called once the executor
   * has returned, before its end is written: the loop's slot is free then, so the next run starts
   * without waiting for this one's write (written together with other ends, runEnds.ts).
   */
  async execute(run: ClaimedRun, executed: () => void = () => {}): Promise<void> {
    const startedAt = this.clock.now();
    const task = run.task;
    if (!task) return; // deleted meanwhile: its runs went with it
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
    executed();
    if (status === 'failed' && this.abort.signal.aborted) {
      // Stopped mid-run: hand the run back (not counted as an attempt) for the next start, or another process.
      await this.ctx.db.query(
        `UPDATE task_runs SET status = 'scheduled', attempts = attempts - 1, locked_until = 0 WHERE id = $1 AND status = 'executing' AND attempts = $2`,
        [run.id, run.attempt],
      );
      return;
    }
    await this.finish(run, status, result, startedAt);
  }

  /** Record a run's end and the task's bookkeeping (runEnds.ts: written together with other ends). */
  private finish(run: ClaimedRun, status: 'succeeded' | 'failed', result: string, startedAt?: number): Promise<void> {
    return this.ends.record({ runId: run.id, taskId: run.taskId, attempt: run.attempt, status, result, startedAt: startedAt ?? null });
  }

  /** Delete finished runs beyond the newest runsKept of each task; answers how many went. */
  async prune(): Promise<number> {
    const gone = await this.ctx.db.query(
      `DELETE FROM task_runs WHERE id IN (
         SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY task_id ORDER BY scheduled_at DESC) AS n
                           FROM task_runs WHERE status IN ('succeeded', 'failed', 'skipped')) ranked
          WHERE n > $1)
       RETURNING id`,
      [SCHEDULER_LIMITS.runsKept],
    );
    return gone.length;
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
    const pollMs = this.opts.pollMs ?? SCHEDULER_LIMITS.pollMs;
    const now = this.clock.now();
    // An idle pass only reads: no transaction unless something is due or waiting.
    const [state] = await this.ctx.db.query<{ next_due: string | number | null; waiting: boolean }>(
      `SELECT (SELECT min(next_run_at) FROM tasks WHERE active) AS next_due,
              EXISTS (SELECT 1 FROM task_runs WHERE status = 'scheduled' OR (status = 'executing' AND locked_until < $1)) AS waiting`,
      [now],
    );
    const nextDue = state.next_due === null ? null : Number(state.next_due);
    // One batch of due tasks per pass, then runs start: in a burst (1,000 tasks due at once) the
    // first runs start after 200 tasks are materialised, not after all of them; the next pass
    // follows at once and materialises the next batch.
    // Its first runs are claimed as they are inserted, as many as step 2 would claim now.
    if (nextDue !== null && nextDue <= now && (await this.materialize(1, this.room())) === SCHEDULER_LIMITS.claimBatch) this.loop.passAgain();
    if (state.waiting || (nextDue !== null && nextDue <= now)) {
      const room = this.room();
      const batch = await this.claim(room);
      this.queue.push(...batch);
      this.drain();
      if (room > 0 && batch.length === room) this.loop.passAgain(); // there may be more
    }
    if (Date.now() - this.lastPrune > SCHEDULER_LIMITS.pruneEveryMs) {
      this.lastPrune = Date.now();
      await this.prune();
    }
    const untilDue = nextDue === null || nextDue <= now ? pollMs : nextDue - this.clock.now();
    return Math.max(0, Math.min(pollMs, untilDue));
  }

  /** Room for maxInFlight runs beyond those executing; the queue refills once half empty. */
  private room(): number {
    return 2 * this.maxInFlight - this.executing - this.queue.length;
  }

  /** Start queued runs while slots are free; look at the database again once the queue runs low. */
  private drain(): void {
    while (!this.stopped && this.executing < this.maxInFlight && this.queue.length) this.launch(this.queue.shift()!);
    if (!this.queue.length) this.releaseEnds();
  }

  /**
   * Settles once no claimed run waits to start (or after endsHoldMs): run ends are written then, so
   * that their writes do not come between the runs of a burst and their starts.
   */
  private startsFirst(): Promise<void> {
    if (!this.queue.length || this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SCHEDULER_LIMITS.endsHoldMs);
      this.endsWaiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private releaseEnds(): void {
    for (const release of this.endsWaiting.splice(0)) release();
  }

  private launch(run: ClaimedRun): void {
    this.executing++;
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      this.executing--;
      this.drain();
      if (this.queue.length <= this.maxInFlight / 2) this.loop.wake();
    };
    const p: Promise<void> = this.execute(run, free)
      .catch((err) => this.ctx.log.error({ err, runId: run.id }, 'task run bookkeeping failed'))
      .finally(() => {
        this.running.delete(p);
        free();
      });
    this.running.add(p);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.releaseEnds();
    this.unsubscribe?.();
    const passEnded = this.loop.stop();
    this.abort.abort();
    await passEnded;
    // Claimed but never started: handed back at once (not counted as an attempt) rather than left
    // to their lease.
    const queued = this.queue.splice(0);
    if (queued.length) {
      await this.ctx.db.query(
        `UPDATE task_runs r SET status = 'scheduled', attempts = r.attempts - 1, locked_until = 0
           FROM unnest($1::text[], $2::int[]) AS q(id, attempt) WHERE r.id = q.id AND r.status = 'executing' AND r.attempts = q.attempt`,
        [queued.map((r) => r.id), queued.map((r) => r.attempt)],
      );
    }
    await Promise.all([...this.running]);
  }
}

/**
 * Schedule steps remembered for one batch of due tasks: tasks sharing a schedule and window (a burst
 * due at the same minute mostly does) step from the same time to the same next time, and stepping a
 * CRON expression is what the batch spends most of its time on. `compute` runs on a miss; what
 * it throws is not remembered.
 */
function scheduleSteps() {
  const known = new Map<string, number | null>();
  return (t: TaskRow, from: number, compute: () => number | null): number | null => {
    const key = `${t.minute}\u0000${t.hour}\u0000${t.day_of_month}\u0000${t.month}\u0000${t.day_of_week}\u0000${t.start_date}\u0000${t.end_date}\u0000${from}`;
    if (known.has(key)) return known.get(key)!;
    const next = compute();
    known.set(key, next);
    return next;
  };
}

/** The task has occurrences left after `runCount` runs (computeNextRun's own check, done before the step is looked up). */
function runsLeft(t: TaskRow, runCount: number): boolean {
  return !(t.max_occurrences != null && t.max_occurrences >= 0 && runCount >= t.max_occurrences);
}

/** What main.ts starts. */
export function startTaskScheduler(ctx: PortalContext, opts: SchedulerOptions = {}): TaskScheduler {
  return new TaskScheduler(ctx, opts).start();
}
