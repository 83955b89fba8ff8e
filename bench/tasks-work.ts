/** What bench/tasks.bench.ts schedules, shared with its scheduler processes (bench/tasks-process.ts). */
import type { Clock } from '../src/server/context.ts';
import type { Executor } from '../src/server/areas/tasks/executors/index.ts';

/** A clock running in real time, shifted by `offset` ms (so that the burst need not wait for a minute). */
export const benchClock = (offset: number): Clock => ({ now: () => Date.now() + offset });

/** Each run's work is one query of the organization (the scheduler is measured, not a report); counts executions per run id. */
export function benchExecutors(executions: Map<string, number>, onDone: () => void = () => {}): { ExecuteWorkflowManager: Executor } {
  return {
    ExecuteWorkflowManager: async ({ ctx, task, runId }) => {
      executions.set(runId, (executions.get(runId) ?? 0) + 1);
      const [r] = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = $1', [task.org_id]);
      onDone();
      return `${r.n} members`;
    },
  };
}
