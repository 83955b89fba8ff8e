import type { PortalContext } from '../../../context.ts';
import type { TaskRow } from '../repo.ts';

export interface RunContext {
  ctx: PortalContext;
  task: TaskRow;
  runId: string;
  scheduledAt: number;
  /** Aborted when the scheduler stops; an executor gives up promptly. */
  signal: AbortSignal;
}

/** Does the run's work; resolves with the result text, or throws with the reason it failed. */
export type Executor = (run: RunContext) => Promise<string>;

/** A failure whose message is the reason to show (anything else is reported by its message too). */
export class RunFailed extends Error {}
