/**
 * Bulk member jobs benchmark (issue 37): a bulk disable of many members as a server job.
 *
 * 1. Per-member cost as the count grows: for each size (10,000 and 50,000 by default), a fresh
 *    portal on the embedded database on disk, that many members, one disable job over all of them
 *    (started through the operation, with a member filter), run to its end by the job runner in
 *    this process. Prints the time and the cost per member of each, and the ratio of the largest
 *    size's per-member cost to the smallest's (flat: about 1).
 * 2. Exactly once across a crash: the portal as a process of its own (src/server/main.ts), a job
 *    over BENCH_KILL_MEMBERS members, `kill -9` once part of it is done, the same data directory
 *    started again; when the job is done, every member is disabled, recorded as succeeded once,
 *    with exactly one `disable` event each.
 *
 * Usage: npm run bench:member-jobs   (BENCH_MEMBER_JOB_SIZES=10000,50000; BENCH_KILL_MEMBERS=10000;
 * BENCH_KILL_AT=0.4, the share done when the process is killed; BENCH_PORT=3521)
 */
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { runDueMemberJobs } from '../src/server/jobs/memberJobs.ts';
import { openDb } from '../src/server/store/db.ts';
import type { Db } from '../src/server/store/dbInterface.ts';
import { startService } from '../test/support/service.ts';
import { fmt, freshDataDir, startProcess, type RunningService } from './lib.ts';

const SIZES = (process.env.BENCH_MEMBER_JOB_SIZES ?? '10000,50000').split(',').map(Number);
const KILL_MEMBERS = Number(process.env.BENCH_KILL_MEMBERS ?? 10_000);
const KILL_AT = Number(process.env.BENCH_KILL_AT ?? 0.4);
const PORT = Number(process.env.BENCH_PORT ?? 3521);

/** `n` enabled Mobile Worker members named bench.000001…, the only members the job's filter matches. */
async function seedMembers(db: Db, orgId: string, n: number): Promise<void> {
  const [{ password_hash }] = await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'user1'");
  for (let from = 1; from <= n; from += 20_000) {
    await db.query(
      `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, user_license_type_id, created, modified)
       SELECT md5('bench' || i), $1, 'bench.' || lpad(i::text, 6, '0'), $2, 'Bench ' || i, 'bench' || i || '@example.com', 'org_user', 'mobileWorkerUT', 0, 0
         FROM generate_series($3::bigint, $4::bigint) AS i`,
      [orgId, password_hash, from, Math.min(n, from + 19_999)],
    );
  }
  await db.query('ANALYZE users');
}

const JOB_FILTER = { userLicenseType: 'mobileWorkerUT', disabled: 'false' };

// ---- 1. per-member cost by size
// CPU time of this process (the job runner and the embedded database run here): unlike the wall
// time, it does not move with what else the machine is doing.
const perMember: { size: number; ms: number; cpuMs: number }[] = [];
for (const size of SIZES) {
  const svc = await startService({ config: { dataDir: freshDataDir() } });
  await seedMembers(svc.db, svc.orgId, size);
  const token = await svc.tokenFor('admin');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const created = await svc.post(`portals/${svc.orgId}/memberJobs/disableUsers`, JOB_FILTER, token);
  if (created.job?.total !== size) throw new Error(`the job names ${created.job?.total} members, not ${size}: ${JSON.stringify(created).slice(0, 300)}`);
  const tCreated = performance.now();
  await runDueMemberJobs(svc.app.portal);
  const ms = performance.now() - t0;
  const { user, system } = process.cpuUsage(cpu0);
  const cpuMs = (user + system) / 1000;
  const status = await svc.post(`portals/${svc.orgId}/memberJobs/${created.jobId}`, {}, token);
  if (status.state !== 'done' || status.succeeded !== size) throw new Error(`job not done: ${JSON.stringify(status)}`);
  await svc.close();
  perMember.push({ size, ms, cpuMs });
  console.log(
    `${fmt(size)} members: started in ${fmt(tCreated - t0)} ms, done in ${fmt(ms / 1000, 1)} s, ${fmt((ms / size) * 1000)} µs a member ` +
      `(${fmt(size / (ms / 1000))} members/s), CPU ${fmt((cpuMs / size) * 1000)} µs a member`,
  );
}
if (perMember.length > 1) {
  const [small, large] = [perMember[0], perMember[perMember.length - 1]];
  console.log(
    `per-member cost ratio ${fmt(large.size)}/${fmt(small.size)}: wall ${fmt(large.ms / large.size / (small.ms / small.size), 2)}, ` +
      `CPU ${fmt(large.cpuMs / large.size / (small.cpuMs / small.size), 2)} (flat: 1)`,
  );
}

// ---- 2. kill -9 mid-job, restart, every member exactly once
const dataDir = freshDataDir();
const probe = '/sharing/rest/portals/self?f=json';
const env = { DATA_DIR: dataDir, DEMO_DATA: 'on' };
let portal: RunningService = await startProcess('src/server/main.ts', env, PORT, probe);
await portal.stop();
{
  const db = await openDb({ dataDir });
  const [{ id: orgId }] = await db.query<{ id: string }>("SELECT org_id AS id FROM users WHERE username = 'admin'");
  await seedMembers(db, orgId, KILL_MEMBERS);
  await db.close();
}
portal = await startProcess('src/server/main.ts', env, PORT, probe);
const rest = `${portal.baseUrl}/sharing/rest`;
const call = async (path: string, params: Record<string, string> = {}) => {
  const res = await fetch(`${rest}/${path}`, { method: 'POST', body: new URLSearchParams({ f: 'json', ...params }) });
  return (await res.json()) as Record<string, any>;
};
const { token } = await call('generateToken', { username: 'admin', password: DEMO_PASSWORD, expiration: '120' });
const { jobId } = await call('portals/self/memberJobs/disableUsers', { ...JOB_FILTER, token });
if (!jobId) throw new Error('the job was not created');
for (;;) {
  const s = await call(`portals/self/memberJobs/${jobId}`, { token });
  if (s.done >= KILL_AT * KILL_MEMBERS) {
    portal.proc.kill('SIGKILL');
    await new Promise((r) => portal.proc.once('exit', r));
    console.log(`kill -9 with ${fmt(s.done)} of ${fmt(KILL_MEMBERS)} members recorded done (a batch in flight is rolled back)`);
    break;
  }
  await new Promise((r) => setTimeout(r, 100));
}
const t0 = performance.now();
portal = await startProcess('src/server/main.ts', env, PORT, probe);
const again = await call('generateToken', { username: 'admin', password: DEMO_PASSWORD, expiration: '120' });
for (;;) {
  const s = await call(`portals/self/memberJobs/${jobId}`, { token: again.token });
  if (s.state === 'done') {
    console.log(`restarted: the job went on once the dead runner's lease ran out, done ${fmt((performance.now() - t0) / 1000, 1)} s after the restart`);
    break;
  }
  await new Promise((r) => setTimeout(r, 200));
}
await portal.stop();
const db = await openDb({ dataDir });
const [rows] = await db.query<{ succeeded: number; other: number }>(
  `SELECT count(*) FILTER (WHERE state = 'succeeded')::int AS succeeded, count(*) FILTER (WHERE state <> 'succeeded')::int AS other FROM member_job_members WHERE job_id = $1`,
  [jobId],
);
const [events] = await db.query<{ members: number; once: number; more: number }>(
  `SELECT count(*)::int AS members, count(*) FILTER (WHERE n = 1)::int AS once, count(*) FILTER (WHERE n > 1)::int AS more
     FROM (SELECT subject_id, count(*) AS n FROM events WHERE source = 'user' AND operation = 'disable' AND subject_id LIKE 'bench.%' GROUP BY subject_id) e`,
);
const [{ disabled }] = await db.query<{ disabled: number }>(`SELECT count(*)::int AS disabled FROM users WHERE username LIKE 'bench.%' AND disabled`);
await db.close();
console.log(
  `after the restart: ${fmt(rows.succeeded)} members recorded succeeded (${fmt(rows.other)} otherwise), ${fmt(disabled)} disabled, ` +
    `${fmt(events.once)} with exactly one disable event, ${fmt(events.more)} with more than one`,
);
const exactlyOnce = rows.succeeded === KILL_MEMBERS && rows.other === 0 && disabled === KILL_MEMBERS && events.once === KILL_MEMBERS && events.more === 0;
console.log(exactlyOnce ? 'every member done exactly once' : 'NOT exactly once');
if (!exactlyOnce) process.exitCode = 1;
