/**
 * Records the ends of scheduled runs, many in one statement (group commit): while one write is in
 * flight the ends that arrive wait and go together in the next. A burst of 1,000 runs then costs a
 * few dozen commits rather than 1,000, and a quiet scheduler still writes each end at once.
 *
 * Per run, the statement does what a single end did: only if this scheduler still holds the run
 * (same attempt) is the end recorded; the task's failure count moves, and at FAILURES_TO_DISABLE
 * consecutive failures the task is deactivated with the reason. Two ends of the same task never go
 * in one statement (an UPDATE … FROM updates a row once, so the second count would be lost): the
 * later waits for the next write.
 *
 * While runs claimed in a burst wait for a slot, the scheduler may hold the writes back (`holdWhile`,
 * at most `maxHoldMs` from the oldest end waiting): on the embedded database every statement takes
 * its turn on one thread, so bookkeeping written between starts delays the starts still due, and the
 * ends held go together in fewer, larger statements. `release()` ends the hold at once.
 */
import { TASK_LIMITS } from '../../shared/contract/tasks.ts';
import type { Clock } from '../context.ts';
import type { Db } from '../store/db.ts';
import { writeRunEnds } from '../areas/tasks/service.ts';

export interface RunEnd {
  runId: string;
  taskId: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  result: string;
  /** When the executor was called; null keeps the start the claim recorded. */
  startedAt: number | null;
}

interface Pending extends RunEnd {
  finished: number;
  /** Real time (not the portal's clock) it was recorded: how long a hold has kept it. */
  recordedAt: number;
  done: () => void;
  fail: (err: unknown) => void;
}

/** Ends written per statement at most (bounds the statement's parameters). */
const MAX_PER_WRITE = 500;

export class RunEndWriter {
  private pending: Pending[] = [];
  private writing = false;
  private endHold: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly hold: { holdWhile: () => boolean; maxHoldMs: number } = { holdWhile: () => false, maxHoldMs: 0 },
  ) {}

  /** Write what is pending now, whatever the hold says. */
  release(): void {
    this.endHold?.();
  }

  /** Resolves once the end is written (or found stale: another scheduler took the run over). */
  record(end: RunEnd): Promise<void> {
    return new Promise<void>((done, fail) => {
      this.pending.push({ ...end, result: end.result.slice(0, 4000), finished: this.clock.now(), recordedAt: Date.now(), done, fail });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length) {
        await this.held();
        const batch = this.takeBatch();
        try {
          await writeRunEnds(this.db, batch, TASK_LIMITS.failuresToDisable);
          for (const e of batch) e.done();
        } catch (err) {
          for (const e of batch) e.fail(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /** Until the hold ends: the scheduler no longer asks it, release() is called, or the oldest end waited maxHoldMs. */
  private async held(): Promise<void> {
    for (;;) {
      const left = this.pending[0].recordedAt + this.hold.maxHoldMs - Date.now();
      if (left <= 0 || !this.hold.holdWhile()) return;
      await new Promise<void>((resume) => {
        const timer = setTimeout(resume, left);
        this.endHold = () => {
          clearTimeout(timer);
          resume();
        };
      });
      this.endHold = undefined;
    }
  }

  /** The oldest pending ends, at most one per task and MAX_PER_WRITE in all; the rest stay pending. */
  private takeBatch(): Pending[] {
    const tasks = new Set<string>();
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const e of this.pending) {
      if (batch.length < MAX_PER_WRITE && !tasks.has(e.taskId)) {
        tasks.add(e.taskId);
        batch.push(e);
      } else rest.push(e);
    }
    this.pending = rest;
    return batch;
  }
}
