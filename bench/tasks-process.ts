/**
 * One scheduler process of `BENCH_PROCESSES=2 npm run bench:tasks` (bench/tasks.bench.ts starts
 * them): the service's portal context on the PostgreSQL schema the benchmark prepared, one scheduler
 * loop with the benchmark's clock and executor, until the parent writes a line to stdin. Then it
 * stops its scheduler and prints, as one JSON line, how often it executed each run and its CPU time.
 */
import { createInterface } from 'node:readline';
import { buildApp } from '../src/server/app.ts';
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { PRIVATE_OUTBOUND_ALLOW } from '../src/server/http/outboundAllow.ts';
import { TaskScheduler } from '../src/server/jobs/scheduler.ts';
import { openDb } from '../src/server/store/db.ts';
import { benchClock, benchExecutors } from './tasks-work.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const db = await openDb({ dataDir: ':memory:', databaseUrl });
const app = await buildApp({
  db,
  clock: benchClock(Number(process.env.BENCH_CLOCK_OFFSET)),
  config: {
    port: 0,
    host: '127.0.0.1',
    dataDir: ':memory:',
    databaseUrl,
    adminUsername: 'admin',
    adminPassword: DEMO_PASSWORD,
    adminPasswordGiven: false,
    demoData: true,
    outboundAllow: PRIVATE_OUTBOUND_ALLOW,
    localExtras: true,
    passwordLogN: 10,
  },
});
const executions = new Map<string, number>();
const scheduler = new TaskScheduler(app.portal, { clock: app.portal.clock, executors: benchExecutors(executions) });
const cpuBefore = process.cpuUsage();
scheduler.start();
process.stdout.write('started\n');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const cpu = process.cpuUsage(cpuBefore);
await scheduler.stop();
process.stdout.write(`${JSON.stringify({ executions: Object.fromEntries(executions), cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
await app.close();
await db.close();
process.exit(0); // stdin stays open (the parent's pipe): without this the process would wait on it
