/**
 * Startup benchmark: the real service as a child process on a fresh DATA_DIR, the first start
 * with the database template (dist/db-template) against the first start by initdb
 * (DB_TEMPLATE_DIR=off), in the same run, alternating. For each: milliseconds from spawning the
 * process until `portals/self` answers, resident memory once idle after the first start, then the
 * same after a restart on the same data directory. Also `npm start` as a new user runs it (its
 * launcher included, the build being current) with the memory of all its processes (npm, sh, node).
 *
 * Memory is VmRSS from /proc/<pid>/status summed over the process tree (PGlite is in-process
 * WebAssembly, so the service is one node process; under `npm start` npm and sh stay as parents, the
 * launcher being the service's own process).
 * Each figure comes with the machine's 1-minute load average when it was taken: on a shared
 * machine the times move with it.
 *
 * The service runs as `npm start` runs it, from its bundle (scripts/build-server.ts, rebuilt first);
 * `sources` runs it from its TypeScript sources through tsx instead, to show what the bundle saves.
 *
 * Usage: npm run bench:startup   (STARTUP_RUNS=2 per variant, STARTUP_IDLE_S=5 seconds idle before
 *        reading memory, STARTUP_PORT=3620 — four consecutive ports are used,
 *        STARTUP_VARIANTS=template,initdb,sources,npm to choose among them)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fmt, freshDataDir, ROOT, startFlags } from './lib.ts';
import { templateStatus } from '../src/server/store/template.ts';
import { buildServer } from '../scripts/build-server.ts';
import { ensureBuildCurrent } from '../scripts/start.mjs';

const RUNS = Number(process.env.STARTUP_RUNS ?? 2);
const IDLE_S = Number(process.env.STARTUP_IDLE_S ?? 5);
const PORT = Number(process.env.STARTUP_PORT ?? 3620);

interface Sample {
  variant: string;
  startMs: number;
  startLoad: number;
  idleMb: number;
  idleLoad: number;
  restartMs: number;
  restartLoad: number;
  restartIdleMb: number;
}

const load1 = () => loadavg()[0];

/** `pid` and all its descendants (npm start: npm → sh → node). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of stat is the parent; the command (field 2) may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const tree: number[] = [];
  const visit = (p: number) => {
    tree.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return tree;
}

/** VmRSS of `pid` and all its descendants, in MB. */
function treeRssMb(pid: number): number {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      /* exited meanwhile */
    }
  }
  return kb / 1024;
}

/** Spawn, then poll portals/self until it answers 200: the time a user waits for the console to work. */
async function start(cmd: string, args: string[], env: Record<string, string>, port: number): Promise<{ proc: ChildProcess; ms: number; load: number }> {
  const t0 = performance.now();
  const proc = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited with ${proc.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/sharing/rest/portals/self?f=json`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { proc, ms: performance.now() - t0, load: load1() };
}

/** SIGTERM to the service and its parents (sh does not pass it on), then wait until all are gone. */
async function stop(proc: ChildProcess): Promise<void> {
  const tree = processTree(proc.pid!).reverse();
  for (const p of tree) {
    try {
      process.kill(p, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  for (;;) {
    // A zombie (state Z: exited, its parent gone and nobody reaping it) counts as gone.
    const alive = tree.filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
      } catch {
        return false;
      }
    });
    if (!alive.length && (proc.exitCode !== null || proc.signalCode !== null)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const idle = () => new Promise((r) => setTimeout(r, IDLE_S * 1000));

async function measure(variant: string, cmd: string, args: string[], env: Record<string, string>, port: number): Promise<Sample> {
  const dataDir = freshDataDir();
  try {
    const first = await start(cmd, args, { ...env, DATA_DIR: dataDir }, port);
    await idle();
    const idleMb = treeRssMb(first.proc.pid!);
    const idleLoad = load1();
    await stop(first.proc);
    const second = await start(cmd, args, { ...env, DATA_DIR: dataDir }, port);
    await idle();
    const restartIdleMb = treeRssMb(second.proc.pid!);
    await stop(second.proc);
    const s = { variant, startMs: first.ms, startLoad: first.load, idleMb, idleLoad, restartMs: second.ms, restartLoad: second.load, restartIdleMb };
    console.log(
      `${variant.padEnd(10)} first start ${fmt(s.startMs / 1000, 2)} s (load ${fmt(s.startLoad, 1)})  idle ${fmt(idleMb, 0)} MB (load ${fmt(idleLoad, 1)})  ` +
        `restart ${fmt(s.restartMs / 1000, 2)} s (load ${fmt(s.restartLoad, 1)})  idle ${fmt(restartIdleMb, 0)} MB`,
    );
    return s;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const status = await templateStatus();
if (!status.usable || status.behind.length) {
  console.error(
    `The database template is not current (${status.usable ? `lacks ${status.behind.join(', ')}` : status.reason}): run npm run build:db-template first.`,
  );
  process.exit(1);
}
console.log(`Startup benchmark: ${RUNS} run(s) per variant, memory read after ${IDLE_S} s idle; load = 1-minute load average.`);
// The service's command line under npm start (package.json), so that the variants differ only in the
// template; `sources` runs the same service from its TypeScript through tsx (npm run dev), as before the bundle.
const variants = (process.env.STARTUP_VARIANTS ?? 'template,initdb,sources,npm').split(',');
await buildServer();
// `npm start` with the build current: its launcher (scripts/start.mjs) skips the build check once one
// has passed since the last change, so run that check now rather than inside the first sample.
if (variants.includes('npm')) ensureBuildCurrent();
const main = [...startFlags(), 'dist/server/main.cjs'];
const sources = [...startFlags(), '--import', 'tsx', 'src/server/main.ts'];
const samples: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  if (variants.includes('template')) samples.push(await measure('template', process.execPath, main, {}, PORT));
  if (variants.includes('initdb')) samples.push(await measure('initdb', process.execPath, main, { DB_TEMPLATE_DIR: 'off' }, PORT + 1));
  if (variants.includes('sources')) samples.push(await measure('sources', process.execPath, sources, {}, PORT + 3));
  if (variants.includes('npm')) samples.push(await measure('npm start', 'npm', ['start', '--silent'], {}, PORT + 2));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const of = (variant: string, key: keyof Omit<Sample, 'variant'>) => median(samples.filter((s) => s.variant === variant).map((s) => s[key]));
console.log('\nMedians:');
for (const v of ['template', 'initdb', 'sources', 'npm start'].filter((v) => samples.some((s) => s.variant === v))) {
  console.log(
    `${v.padEnd(10)} first start ${fmt(of(v, 'startMs') / 1000, 2)} s, idle ${fmt(of(v, 'idleMb'), 0)} MB; restart ${fmt(of(v, 'restartMs') / 1000, 2)} s, idle ${fmt(of(v, 'restartIdleMb'), 0)} MB`,
  );
}
if (variants.includes('template') && variants.includes('initdb'))
  console.log(
    `initdb / template: first start ${fmt(of('initdb', 'startMs') / of('template', 'startMs'), 2)}×, idle memory after first start ${fmt(of('initdb', 'idleMb') / of('template', 'idleMb'), 2)}×`,
  );
