/**
 * `npm test`'s runner: npm scripts run in stages, each step's start, end and duration printed as it
 * ends and a table of all of them at the end, so that a slow step shows in every run's output.
 *
 *   node --import tsx scripts/run-steps.ts lint,typecheck+layers+unused test:unit test:e2e
 *
 * Each argument is a stage; stages run one after another. In a stage, `,` separates lanes that run
 * side by side (their lines prefixed with the step's name) and `+` separates steps that run one
 * after another within a lane. A failed step ends its lane; the other lanes of the stage finish, and
 * the stages after it are skipped. The exit code is 1 when any step failed.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';

type Result = 'passed' | 'failed' | 'skipped';
interface StepRecord {
  name: string;
  start?: Date;
  end?: Date;
  result: Result;
  /** The machine's CPU ticks (all cores) when the step started and ended: how busy it kept the cores. */
  cpuStart?: CpuTicks;
  cpuEnd?: CpuTicks;
}

interface CpuTicks {
  busy: number;
  total: number;
}

/**
 * The machine's CPU ticks since boot (/proc/stat), undefined where there is none. Over a step,
 * busy ÷ total says whether the run was bound by CPU (near 100 %) or waited with cores idle — the
 * question to answer before making a slow step parallel.
 */
function cpuTicks(): CpuTicks | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    // idle and iowait are the 4th and 5th fields.
    return { busy: total - fields[3] - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

function busyShare(from: CpuTicks | undefined, to: CpuTicks | undefined): string {
  if (!from || !to || to.total === from.total) return '';
  return `${Math.round((100 * (to.busy - from.busy)) / (to.total - from.total))} %`;
}

const clock = (d: Date | undefined) => (d ? d.toISOString().slice(11, 19) : '');

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

/** Runs `npm run <name>`; with `prefix`, its output is piped line by line behind the step's name. */
function runScript(name: string, prefix: boolean): Promise<boolean> {
  const child = spawn('npm', ['run', '--silent', name], { stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (prefix) {
    for (const stream of [child.stdout!, child.stderr!]) {
      const out = stream === child.stdout ? process.stdout : process.stderr;
      createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

async function runLane(steps: StepRecord[], sideBySide: boolean): Promise<boolean> {
  for (const step of steps) {
    step.start = new Date();
    step.cpuStart = cpuTicks();
    console.log(`\n== ${step.name}: started at ${clock(step.start)}`);
    const ok = await runScript(step.name, sideBySide);
    step.end = new Date();
    step.cpuEnd = cpuTicks();
    step.result = ok ? 'passed' : 'failed';
    console.log(`== ${step.name}: ${step.result} in ${duration(step.end.getTime() - step.start.getTime())} (${clock(step.start)}–${clock(step.end)})`);
    if (!ok) return false;
  }
  return true;
}

function printSummary(records: StepRecord[], started: Date): void {
  const width = Math.max(...records.map((r) => r.name.length), 'total'.length);
  const rows = records.map((r) => {
    const time = r.start && r.end ? duration(r.end.getTime() - r.start.getTime()) : '';
    return `${r.name.padEnd(width)}  ${clock(r.start).padEnd(8)}  ${clock(r.end).padEnd(8)}  ${time.padStart(7)}  ${busyShare(r.cpuStart, r.cpuEnd).padStart(6)}  ${r.result}`;
  });
  const failed = records.some((r) => r.result === 'failed');
  console.log(`\n${'step'.padEnd(width)}  start     end          time  ${'CPU'.padStart(6)}  result`);
  console.log(rows.join('\n'));
  console.log(
    `${'total'.padEnd(width)}  ${clock(started)}  ${clock(new Date())}  ${duration(Date.now() - started.getTime()).padStart(7)}  ${busyShare(startedCpu, cpuTicks()).padStart(6)}  ${failed ? 'failed' : 'passed'}`,
  );
  console.log(`CPU: the share of the machine's ${availableParallelism()} cores busy (any process) while the step ran.`);
}

const stages = process.argv.slice(2).map((stage) => stage.split(',').map((lane) => lane.split('+').map((name): StepRecord => ({ name, result: 'skipped' }))));
if (stages.length === 0) {
  console.error('usage: run-steps.ts <stage> [<stage>...], a stage being lane[,lane...], a lane step[+step...]');
  process.exit(2);
}

const started = new Date();
const startedCpu = cpuTicks();
let ok = true;
for (const lanes of stages) {
  if (!ok) break;
  const results = await Promise.all(lanes.map((lane) => runLane(lane, lanes.length > 1)));
  ok = results.every(Boolean);
}
printSummary(stages.flat(2), started);
process.exitCode = ok ? 0 : 1;
