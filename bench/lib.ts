/** Shared pieces of the benchmarks: start the real service as a process, load it with autocannon. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** The Node flags of package.json's `start` script (`node <flags> scripts/start.mjs`): benchmarks run the service as `npm start` does. */
export function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = /^node((?:\s+--\S+)*)\s/.exec(scripts.start)?.[1];
  if (flags === undefined) throw new Error(`package.json's start script is not 'node <flags> <script>': ${scripts.start}`);
  return flags.trim().split(/\s+/);
}

export interface RunningService {
  proc: ChildProcess;
  baseUrl: string;
  /** Milliseconds from spawning the process to the first answered request. */
  readyMs: number;
  stop(): Promise<void>;
}

export function freshDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
}

/** Spawns `node --import tsx <entry>` and polls `probePath` until it answers 200. */
export async function startProcess(entry: string, env: Record<string, string>, port: number, probePath: string): Promise<RunningService> {
  const t0 = performance.now();
  // BENCH_NODE_FLAGS: flags for the service's Node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where its time goes).
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const proc = spawn(process.execPath, [...flags, '--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited with ${proc.exitCode}`);
    try {
      const res = await fetch(baseUrl + probePath);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - t0;
  return {
    proc,
    baseUrl,
    readyMs,
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const r = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
