/**
 * Scheduler benchmark: TASKS (1,000) active tasks due in the same minute, one scheduler loop (as
 * main.ts starts it) on the real service's database (embedded, or PostgreSQL with DATABASE_URL).
 * Each run's work is one query of the organization (the scheduler is what is measured, not a
 * report). Prints the start lateness (run started − scheduled time) p50/p99/max, checks every run
 * started within the minute and none twice, and the process CPU time per run (this process also
 * runs the embedded database, so that is included).
 * Usage: node --import tsx bench/tasks.bench.ts   (BENCH_TASKS=1000, BENCH_SCHEDULERS=1; DATABASE_URL for PostgreSQL)
 */
import { setTaskSettings } from '../src/server/areas/tasks/settings.ts';
import { insertTask } from '../src/server/areas/tasks/repo.ts';
import { TaskScheduler } from '../src/server/jobs/scheduler.ts';
import { hexId } from '../src/server/store/ids.ts';
import { startService } from '../test/support/service.ts';
import { fmt } from './lib.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 1000);
/** Scheduler loops on the same database (2+ shows that none runs an occurrence twice). */
const SCHEDULERS = Number(process.env.BENCH_SCHEDULERS ?? 1);

// A clock running in real time, set 3 s before a minute boundary so the test does not wait a minute.
const real = Date.now();
const offset = Math.ceil(real / 60_000) * 60_000 + 60_000 - 3000 - real;
const clock = { now: () => Date.now() + offset };

const svc = await startService({ clock });
setTaskSettings({ activePerUser: TASKS, activePerOrg: TASKS });
const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
const due = Math.ceil(clock.now() / 60_000) * 60_000;
const ids: string[] = [];
await svc.db.tx(async (q) => {
  for (let i = 0; i < TASKS; i++) {
    const id = hexId();
    ids.push(id);
    await insertTask(q, {
      id, org_id: svc.orgId, owner_id: admin.id, type: 'ExecuteWorkflowManager', title: `bench ${i}`, task_url: null, item_id: null, parameters: {}, run_token: null,
      minute: '*', hour: '*', day_of_month: '?', month: '*', day_of_week: '*', start_date: null, end_date: null, max_occurrences: null,
      active: true, state: 'active', state_reason: null, next_run_at: due, created: clock.now(), modified: clock.now(),
    });
  }
});
console.log(`${fmt(TASKS)} active tasks due at ${new Date(due).toISOString()}, ${SCHEDULERS} scheduler loop(s) (storage: ${svc.db.kind})`);

let done = 0;
/** Executions per run id: the work itself must not happen twice. */
const executions = new Map<string, number>();
const executors = {
  ExecuteWorkflowManager: async ({ ctx, task, runId }: { ctx: typeof svc.app.portal; task: { org_id: string }; runId: string }) => {
    executions.set(runId, (executions.get(runId) ?? 0) + 1);
    const [r] = await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = $1', [task.org_id]);
    done++;
    return `${r.n} members`;
  },
};
const schedulers = Array.from({ length: SCHEDULERS }, () => new TaskScheduler(svc.app.portal, { clock, executors }));
const cpuBefore = process.cpuUsage();
for (const s of schedulers) s.start();
const deadline = due + 120_000;
while (done < TASKS && clock.now() < deadline) await new Promise((r) => setTimeout(r, 100));
// Let the last runs record their end.
await new Promise((r) => setTimeout(r, 500));
const cpu = process.cpuUsage(cpuBefore);
await Promise.all(schedulers.map((s) => s.stop()));

const runs = await svc.db.query<{ task_id: string; scheduled_at: number; started: number; status: string }>('SELECT task_id, scheduled_at, started, status FROM task_runs');
const perTask = new Map<string, number>();
for (const r of runs) perTask.set(r.task_id, (perTask.get(r.task_id) ?? 0) + 1);
const twice = [...perTask.values()].filter((n) => n > 1).length;
const missing = ids.filter((id) => !perTask.has(id)).length;
const lateness = runs.map((r) => Number(r.started) - Number(r.scheduled_at)).sort((a, b) => a - b);
const pct = (p: number) => lateness[Math.min(lateness.length - 1, Math.floor((p / 100) * lateness.length))];
const succeeded = runs.filter((r) => r.status === 'succeeded').length;
const cpuMs = (cpu.user + cpu.system) / 1000;
const executedTwice = [...executions.values()].filter((n) => n > 1).length;
console.log(`runs: ${fmt(runs.length)} (${fmt(succeeded)} succeeded), tasks without a run: ${missing}, tasks with two runs: ${twice}, runs executed twice: ${executedTwice}`);
console.log(`start lateness: p50 ${fmt(pct(50))} ms, p99 ${fmt(pct(99))} ms, max ${fmt(lateness.at(-1) ?? 0)} ms — all within the minute: ${(lateness.at(-1) ?? Infinity) < 60_000 ? 'yes' : 'NO'}`);
console.log(`CPU time of this process (scheduler, executors${svc.db.kind === 'pglite' ? ' and the embedded database' : '; PostgreSQL runs apart'}): ${fmt(cpuMs)} ms in all, ${fmt(cpuMs / Math.max(1, runs.length), 2)} ms per run`);
await svc.close();
if (missing || twice || executedTwice || (lateness.at(-1) ?? Infinity) >= 60_000) process.exit(1);
