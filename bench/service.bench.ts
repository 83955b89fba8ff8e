/**
 * Service benchmark (issue: walking skeleton). Prints, measured in this run on this machine:
 *  - start-to-ready of the service on a fresh embedded database, and on restart;
 *  - requests/s and p50/p99 of `community/self` with a valid token (every request resolves the
 *    token and the member's role in the database: no cache), against a bare Fastify route.
 * Usage: npm run bench   (BENCH_SECONDS=10 by default)
 */
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { fmt, freshDataDir, load, startProcess } from './lib.ts';

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

const bare = await startProcess('bench/bare-fastify.ts', {}, 3302, '/hello');
// Warm both up before measuring.
await load(`${bare.baseUrl}/hello`, { connections, seconds: 2 });
await load(`${service.baseUrl}/sharing/rest/community/self?f=json&token=${token}`, { connections, seconds: 2 });

const baseline = await load(`${bare.baseUrl}/hello`, { connections, seconds });
const self = await load(`${service.baseUrl}/sharing/rest/community/self?f=json&token=${token}`, { connections, seconds });
await bare.stop();
await service.stop();

if (self.errors || self.non2xx) throw new Error(`community/self had ${self.errors} errors and ${self.non2xx} non-2xx answers`);
console.log(`\n${connections} connections, ${seconds} s each`);
console.log(`bare Fastify route     ${fmt(baseline.rps).padStart(8)} req/s  p50 ${baseline.p50} ms  p99 ${baseline.p99} ms`);
console.log(`community/self + token ${fmt(self.rps).padStart(8)} req/s  p50 ${self.p50} ms  p99 ${self.p99} ms`);
console.log(`ratio community/self : bare = ${fmt(self.rps / baseline.rps, 3)} (goal >= 0.1)`);
