/**
 * Scheduler benchmark: TASKS (1,000) active tasks due in the same minute, one scheduler loop (as
 * main.ts starts it) on the real service's database (embedded, or PostgreSQL with DATABASE_URL).
 * Each run's work is one query of the organization (the scheduler is what is measured, not a
 * report). Prints the start lateness (run started − scheduled time) min/p10/p50/p99/max, checks every run
 * started within the minute and none twice, and the CPU time per run.
 *
 * BENCH_SCHEDULERS=2 runs two scheduler loops in this process; BENCH_PROCESSES=2 (PostgreSQL only)
 * runs each loop in a process of its own (bench/tasks-process.ts), as two service processes would,
 * and merges what each executed to check that no run was executed twice.
 * Usage: npm run bench:tasks   (BENCH_TASKS=1000, BENCH_SCHEDULERS=1, BENCH_PROCESSES; DATABASE_URL for PostgreSQL)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { TASK_DEFAULTS } from '../src/server/config.ts';
import { insertTask } from '../src/server/areas/tasks/repo.ts';
import { TaskScheduler } from '../src/server/jobs/scheduler.ts';
import { hexId } from '../src/server/store/ids.ts';
import { startService } from '../test/support/service.ts';
import { fmt, ROOT } from './lib.ts';
import { benchExecutors } from './tasks-work.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 1000);
/** Scheduler loops on the same database (2+ shows that none runs an occurrence twice). */
const SCHEDULERS = Number(process.env.BENCH_SCHEDULERS ?? 1);
/** Scheduler processes (PostgreSQL only); 0: the loops run in this process. */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 0);
if (PROCESSES && !process.env.DATABASE_URL) throw new Error('BENCH_PROCESSES needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process');

// A clock running in real time, moved forward once the tasks are in to shortly before their due
// minute, so that the benchmark does not wait for it however long setting up took: 3 s before, or
// 20 s when scheduler processes must start first.
const lead = PROCESSES ? 20_000 : 3000;
let offset = 0;
const clock = { now: () => Date.now() + offset };

const svc = await startService({ clock, config: { tasks: { ...TASK_DEFAULTS, activePerUser: TASKS, activePerOrg: TASKS } } });
const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
// At least a minute away: setting up (under load) never reaches it.
const due = Math.ceil(clock.now() / 60_000) * 60_000 + 60_000;
const ids: string[] = [];
await svc.db.tx(async (q) => {
  for (let i = 0; i < TASKS; i++) {
    const id = hexId();
    ids.push(id);
    await insertTask(q, {
      id,
      org_id: svc.orgId,
      owner_id: admin.id,
      type: 'ExecuteWorkflowManager',
      title: `bench ${i}`,
      task_url: null,
      item_id: null,
      parameters: {},
      run_token: null,
      minute: '*',
      hour: '*',
      day_of_month: '?',
      month: '*',
      day_of_week: '*',
      start_date: null,
      end_date: null,
      max_occurrences: null,
      active: true,
      state: 'active',
      state_reason: null,
      next_run_at: due,
      created: clock.now(),
      modified: clock.now(),
    });
  }
});
offset += due - lead - clock.now();
console.log(
  `${fmt(TASKS)} active tasks due at ${new Date(due).toISOString()}, ` +
    (PROCESSES ? `${PROCESSES} scheduler processes` : `${SCHEDULERS} scheduler loop(s) in one process`) +
    ` (storage: ${svc.db.kind})`,
);

/** Executions per run id: the work itself must not happen twice. */
const executions = new Map<string, number>();
let cpuMs: number;
/** The machine's 1-minute load average as the schedulers start (others share the cores: figures are read beside it). */
let loadAtStart = loadavg()[0];
if (PROCESSES) {
  const children = await Promise.all(Array.from({ length: PROCESSES }, () => startSchedulerProcess()));
  await waitForRuns(async () => (await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM task_runs WHERE status IN ('succeeded', 'failed')`))[0].n);
  const reports = await Promise.all(children.map((c) => c.stop()));
  for (const r of reports) for (const [runId, n] of Object.entries(r.executions)) executions.set(runId, (executions.get(runId) ?? 0) + n);
  cpuMs = reports.reduce((sum, r) => sum + r.cpuMs, 0);
} else {
  let done = 0;
  const schedulers = Array.from(
    { length: SCHEDULERS },
    () => new TaskScheduler(svc.app.portal, { clock, executors: benchExecutors(executions, () => done++) }),
  );
  const cpuBefore = process.cpuUsage();
  loadAtStart = loadavg()[0];
  for (const s of schedulers) s.start();
  await waitForRuns(async () => done);
  const cpu = process.cpuUsage(cpuBefore);
  cpuMs = (cpu.user + cpu.system) / 1000;
  await Promise.all(schedulers.map((s) => s.stop()));
}

/** Until `finished()` reaches TASKS (or two minutes past the due time), then half a second for the last ends to be written. */
async function waitForRuns(finished: () => Promise<number>) {
  const deadline = due + 120_000;
  while ((await finished()) < TASKS && clock.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 500));
}

/** A scheduler in a process of its own on this benchmark's PostgreSQL schema; stop() gives what it executed. */
async function startSchedulerProcess(): Promise<{ stop(): Promise<{ executions: Record<string, number>; cpuMs: number }> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/tasks-process.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_DATABASE_URL: svc.config.databaseUrl, BENCH_CLOCK_OFFSET: String(offset) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`a scheduler process exited with ${child.exitCode}`);
    return line.value;
  };
  if ((await next()) !== 'started') throw new Error('a scheduler process did not start');
  return {
    async stop() {
      child.stdin!.write('stop\n');
      return JSON.parse(await next());
    },
  };
}

const runs = await svc.db.query<{ task_id: string; scheduled_at: number; started: number; status: string }>(
  'SELECT task_id, scheduled_at, started, status FROM task_runs',
);
const perTask = new Map<string, number>();
for (const r of runs) perTask.set(r.task_id, (perTask.get(r.task_id) ?? 0) + 1);
const twice = [...perTask.values()].filter((n) => n > 1).length;
const missing = ids.filter((id) => !perTask.has(id)).length;
const loadAtEnd = loadavg()[0];
const lateness = runs.map((r) => Number(r.started) - Number(r.scheduled_at)).sort((a, b) => a - b);
const pct = (p: number) => lateness[Math.min(lateness.length - 1, Math.floor((p / 100) * lateness.length))];
const succeeded = runs.filter((r) => r.status === 'succeeded').length;
const executedTwice = [...executions.values()].filter((n) => n > 1).length;
console.log(
  `runs: ${fmt(runs.length)} (${fmt(succeeded)} succeeded), tasks without a run: ${missing}, tasks with two runs: ${twice}, runs executed twice: ${executedTwice}`,
);
console.log(
  `start lateness: min ${fmt(lateness[0] ?? 0)} ms, p10 ${fmt(pct(10))} ms, p50 ${fmt(pct(50))} ms, p99 ${fmt(pct(99))} ms, max ${fmt(lateness.at(-1) ?? 0)} ms — all within the minute: ${(lateness.at(-1) ?? Infinity) < 60_000 ? 'yes' : 'NO'}`,
);
console.log(
  `CPU time of the scheduler process${PROCESSES ? 'es' : ''} (scheduler, executors${svc.db.kind === 'pglite' ? ' and the embedded database' : '; PostgreSQL runs apart'}): ${fmt(cpuMs)} ms in all, ${fmt(cpuMs / Math.max(1, runs.length), 2)} ms per run`,
);
// The figures to quote together: lateness depends on the machine's load, CPU per run much less.
console.log(
  `summary: lateness p50 ${fmt(pct(50))} ms, p99 ${fmt(pct(99))} ms; CPU ${fmt(cpuMs / Math.max(1, runs.length), 2)} ms per run; ` +
    `load average (1 min) ${loadAtStart.toFixed(2)} as the schedulers started, ${loadAtEnd.toFixed(2)} at the end (2 cores shared)`,
);
await svc.close();
if (missing || twice || executedTwice || (lateness.at(-1) ?? Infinity) >= 60_000) process.exit(1);
