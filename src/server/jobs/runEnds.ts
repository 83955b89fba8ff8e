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
 */
import { TASK_LIMITS } from '../../shared/contract/tasks.ts';
import type { Clock } from '../context.ts';
import type { Db } from '../store/db.ts';

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
  done: () => void;
  fail: (err: unknown) => void;
}

/** Ends written per statement at most (bounds the statement's parameters). */
const MAX_PER_WRITE = 500;

const WRITE_ENDS = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])
      AS i(run_id, attempt, status, result, started, finished)),
  ended AS (
    UPDATE task_runs r SET status = i.status, result = i.result, finished = i.finished, modified = i.finished,
           locked_until = 0, started = coalesce(i.started, r.started)
      FROM input i WHERE r.id = i.run_id AND r.status = 'executing' AND r.attempts = i.attempt
    RETURNING r.task_id, i.status, i.result, i.finished),
  counted AS (
    SELECT t.id, e.status, e.result, e.finished,
           CASE WHEN e.status = 'succeeded' THEN 0 ELSE t.consecutive_failures + 1 END AS failures
      FROM tasks t JOIN ended e ON e.task_id = t.id)
  UPDATE tasks t SET last_status = c.status, last_result = c.result, consecutive_failures = c.failures,
         active = CASE WHEN c.failures >= $7 THEN false ELSE t.active END,
         state = CASE WHEN c.failures >= $7 AND t.active THEN 'failed' ELSE t.state END,
         next_run_at = CASE WHEN c.failures >= $7 THEN NULL ELSE t.next_run_at END,
         state_reason = CASE WHEN c.failures >= $7 AND t.active
                             THEN 'Disabled after ' || c.failures || ' consecutive failed runs. The last: ' || left(c.result, 1000)
                             ELSE t.state_reason END,
         modified = CASE WHEN c.failures >= $7 AND t.active THEN c.finished ELSE t.modified END
    FROM counted c WHERE t.id = c.id`;

export class RunEndWriter {
  private pending: Pending[] = [];
  private writing = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Resolves once the end is written (or found stale: another scheduler took the run over). */
  record(end: RunEnd): Promise<void> {
    return new Promise<void>((done, fail) => {
      this.pending.push({ ...end, result: end.result.slice(0, 4000), finished: this.clock.now(), done, fail });
      if (!this.writing) void this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length) {
        const batch = this.takeBatch();
        try {
          await this.db.query(WRITE_ENDS, [
            batch.map((e) => e.runId),
            batch.map((e) => e.attempt),
            batch.map((e) => e.status),
            batch.map((e) => e.result),
            batch.map((e) => e.startedAt),
            batch.map((e) => e.finished),
            TASK_LIMITS.failuresToDisable,
          ]);
          for (const e of batch) e.done();
        } catch (err) {
          for (const e of batch) e.fail(err);
        }
      }
    } finally {
      this.writing = false;
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
