/**
 * What a process uses while a benchmark step runs, read from /proc (Linux): its resident memory
 * (VmRSS) sampled at an interval — before, peak during, growth — and the CPU time it spent, so a
 * slow step can be told apart as waiting or as computing.
 */
import { readFile } from 'node:fs/promises';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux (getconf CLK_TCK)

export async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** User + system CPU seconds a process has used so far (fields 14 and 15 of /proc/<pid>/stat). */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds of several processes; one that has gone counts as 0. */
export async function cpuSecondsOf(pids: readonly number[]): Promise<number> {
  const each = await Promise.all(pids.map((pid) => cpuSeconds(pid).catch(() => 0)));
  return each.reduce((a, b) => a + b, 0);
}

/** CPU seconds used so far by each group (name → pids); the difference of two is a step's use. */
export async function cpuSnapshot(watch: Record<string, readonly number[]>): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(Object.entries(watch).map(async ([k, pids]) => [k, await cpuSecondsOf(pids)] as const)));
}

/** b − a per group, rounded to 0.01 s. */
export function cpuBetween(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(a).map((k) => [k, Math.round((b[k] - a[k]) * 100) / 100]));
}

export interface Sampled<T> {
  value: T;
  ms: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** Peak during the step minus before it. */
  rssGrowthMb: number;
  /** CPU seconds each watched group used during the step. */
  cpu: Record<string, number>;
}

/**
 * Runs `step`, sampling `pid`'s RSS every `intervalMs`, and the CPU time of each group in `watch`
 * (name → pids) before and after. If the process ends meanwhile, sampling stops (never an
 * unhandled rejection that would skip the caller's clean-up) and the step's result is refused.
 */
export async function sampled<T>(pid: number, watch: Record<string, readonly number[]>, step: () => Promise<T>, intervalMs = 50): Promise<Sampled<T>> {
  const before = await rssKb(pid);
  const cpuBefore = await cpuSnapshot(watch);
  let peak = before;
  let running = true;
  let lost: unknown;
  const sampler = (async () => {
    while (running) {
      try {
        peak = Math.max(peak, await rssKb(pid));
      } catch (err) {
        lost = err;
        return;
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  const t0 = performance.now();
  try {
    const value = await step();
    const ms = performance.now() - t0;
    running = false;
    await sampler;
    if (lost) throw new Error(`process ${pid} ended during the step`, { cause: lost });
    peak = Math.max(peak, await rssKb(pid));
    const cpu = cpuBetween(cpuBefore, await cpuSnapshot(watch));
    return { value, ms, rssBeforeMb: before / 1024, rssPeakMb: peak / 1024, rssGrowthMb: (peak - before) / 1024, cpu };
  } finally {
    running = false;
    await sampler;
  }
}
