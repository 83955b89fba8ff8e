/**
 * Service benchmark (issue: walking skeleton). Prints, measured in this run on this machine:
 *  - start-to-ready of the service on a fresh embedded database, and on restart;
 *  - requests/s and p50/p99 of `community/self` with a valid token, against a bare Fastify route
 *    answering a small body (the goal: a ratio of at least 0.3), and against a bare route answering
 *    a body as long as community/self's (what is left is the service's own work per request: the
 *    token, the member, parameters, serialising; the first ratio also carries the cost of sending
 *    the ~4.5 KB answer, which depends on the machine's loopback);
 *  - the CPU time each server process spent per answered request (from /proc): on a shared machine
 *    the throughput ratio moves with whatever else runs, the CPU per request much less. The load
 *    average is printed with the figures.
 * Usage: npm run bench   (BENCH_SECONDS=10 by default)
 */
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { loadavg } from 'node:os';
import { fmt, freshDataDir, load, startProcess, type LoadResult, type RunningService } from './lib.ts';
import { cpuSeconds } from './processSampler.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 10;

const dataDir = freshDataDir();
const fresh = await startProcess('src/server/main.ts', { DATA_DIR: dataDir, DEMO_DATA: 'on' }, 3301, '/sharing/rest/portals/self?f=json');
console.log(`start-to-ready, fresh embedded database: ${fmt(fresh.readyMs)} ms (goal < 5000)`);
await fresh.stop();
const service = await startProcess('src/server/main.ts', { DATA_DIR: dataDir }, 3301, '/sharing/rest/portals/self?f=json');
console.log(`start-to-ready, restart on existing data: ${fmt(service.readyMs)} ms`);

const tokenRes = await fetch(`${service.baseUrl}/sharing/rest/generateToken`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ username: 'admin', password: DEMO_PASSWORD, expiration: '60', f: 'json' }),
});
const { token } = (await tokenRes.json()) as { token: string };

const selfUrl = `${service.baseUrl}/sharing/rest/community/self?f=json&token=${token}`;
const selfBytes = (await (await fetch(selfUrl)).text()).length;
const bare = await startProcess('bench/bare-fastify.ts', { BARE_BODY_BYTES: String(selfBytes) }, 3302, '/hello');
// Warm each up before measuring.
for (const url of [`${bare.baseUrl}/hello`, `${bare.baseUrl}/sized`, selfUrl]) await load(url, { connections, seconds: 2 });

/** A load run with the CPU microseconds the answering process spent per request. */
async function measured(server: RunningService, url: string): Promise<LoadResult & { cpuUsPerRequest: number }> {
  const pid = server.proc.pid!;
  const before = await cpuSeconds(pid);
  const result = await load(url, { connections, seconds });
  const cpu = (await cpuSeconds(pid)) - before;
  return { ...result, cpuUsPerRequest: (cpu * 1e6) / (result.rps * seconds) };
}

const loadBefore = loadavg();
const baseline = await measured(bare, `${bare.baseUrl}/hello`);
const sized = await measured(bare, `${bare.baseUrl}/sized`);
const self = await measured(service, selfUrl);
const loadAfter = loadavg();
await bare.stop();
await service.stop();

if (self.errors || self.non2xx) throw new Error(`community/self had ${self.errors} errors and ${self.non2xx} non-2xx answers`);
const cpu = (r: { cpuUsPerRequest: number }) => `CPU ${fmt(r.cpuUsPerRequest).padStart(4)} µs/req`;
console.log(
  `\n${connections} connections, ${seconds} s each; load average ${loadBefore.map((l) => fmt(l, 2)).join(' ')} before, ${loadAfter.map((l) => fmt(l, 2)).join(' ')} after`,
);
console.log(`bare Fastify route                 ${fmt(baseline.rps).padStart(8)} req/s  p50 ${baseline.p50} ms  p99 ${baseline.p99} ms  ${cpu(baseline)}`);
console.log(`bare route, ${fmt(selfBytes)}-byte body     ${fmt(sized.rps).padStart(8)} req/s  p50 ${sized.p50} ms  p99 ${sized.p99} ms  ${cpu(sized)}`);
console.log(`community/self + token (${fmt(selfBytes)} B) ${fmt(self.rps).padStart(8)} req/s  p50 ${self.p50} ms  p99 ${self.p99} ms  ${cpu(self)}`);
console.log(`CPU per request community/self : bare with a body as long = ${fmt(self.cpuUsPerRequest / sized.cpuUsPerRequest, 2)}`);
console.log(`ratio community/self : bare = ${fmt(self.rps / baseline.rps, 3)} (goal >= 0.3)`);
console.log(
  `ratio community/self : bare with a body as long = ${fmt(self.rps / sized.rps, 3)}; bare with that body : bare = ${fmt(sized.rps / baseline.rps, 3)}`,
);
