/**
 * Webhook delivery benchmark. The real service in this process (embedded database, demo data,
 * loopback receivers allowed), its background dispatcher, and receivers on 127.0.0.1. Events are
 * written to the outbox in committed transactions exactly as operations write them; each event's
 * commit time is kept and compared with the moment its delivery reaches the receiver.
 *
 *  1. Burst: EVENTS (10,000) events to 4 webhooks = 40,000 deliveries. Deliveries per second from
 *     the first commit to the last delivery, against a plain HTTP client (fetch, keep-alive)
 *     posting the same bodies to the same receiver with the dispatcher's concurrency (32 in
 *     flight), in this run; prints the ratio (goal >= 0.5).
 *  2. Healthy receivers at a steady rate (RATE events/s for 10 s, 4 webhooks): p50/p99 from commit
 *     to delivery (goal p99 < 1 s).
 *  3. The same with one of the 4 receivers answering after 2 s: the other three's p99, and how far
 *     the slow one got.
 * Usage: node --import tsx bench/webhooks.bench.ts   (BENCH_WEBHOOK_EVENTS=10000, BENCH_WEBHOOK_RATE=50)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordEvent } from '../src/server/store/events.ts';
import { buildRequest } from '../src/server/jobs/webhooks/deliver.ts';
import { startWebhookDispatcher } from '../src/server/jobs/webhooks/dispatcher.ts';
import { webhookDispatchOf } from '../src/server/config.ts';
import { raise } from '../src/server/core/signals.ts';
import { startService } from '../test/support/service.ts';
import { fmt } from './lib.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 50);
const STEADY_SECONDS = 10;
const COMMIT_BATCH = 100;

/** When each delivery arrived, by webhook and event subject. */
const arrivals = new Map<string, number>();
let received = 0;
const slowDelayMs = 2000;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    const finish = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":"true"}');
    if (req.url === '/plain') return finish();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const key = `${body.info.webhookId}|${body.events[0].id}`;
    if (!arrivals.has(key)) {
      arrivals.set(key, at);
      received++;
    }
    if (req.url?.startsWith('/slow')) setTimeout(finish, slowDelayMs);
    else finish();
  });
});
receiver.keepAliveTimeout = 5000;
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const svc = await startService();
const ctx = svc.app.portal;
const token = await svc.tokenFor('admin');
const hooksPath = `portals/${svc.orgId}/webhooks`;
await svc.post(`${hooksPath}/settings/update`, { notificationAttempts: '3', notificationTimeOutInSeconds: '10', notificationElapsedTimeInSeconds: '5' }, token);
const [admin] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);

async function makeHooks(paths: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, p] of paths.entries()) {
    const res = await svc.post(
      `${hooksPath}/createWebhook`,
      { name: `bench ${i} ${p}`, url: `${base}${p}`, secret: 'benchSecret', changes: 'manualChanges', events: '/groups/update' },
      token,
    );
    if (!res.success) throw new Error(JSON.stringify(res));
    ids.push(res.id);
  }
  return ids;
}
/** Turns a phase's webhooks off (deleting them would also delete their tens of thousands of delivery rows in the middle of the run). */
async function dropHooks(ids: string[]): Promise<void> {
  for (const id of ids) await svc.post(`${hooksPath}/${id}/deactivate`, {}, token);
}

/** Commits `count` events in transactions of COMMIT_BATCH; answers each subject's commit time. */
let serial = 0;
async function commitEvents(count: number, commits: Map<string, number>): Promise<void> {
  for (let done = 0; done < count; done += COMMIT_BATCH) {
    const subjects = Array.from({ length: Math.min(COMMIT_BATCH, count - done) }, () => `bench${++serial}`);
    await ctx.db.tx(async (q) => {
      for (const s of subjects)
        await recordEvent(q, {
          orgId: svc.orgId,
          source: 'group',
          operation: 'update',
          subjectId: s,
          actor: { userId: admin.id, username: 'admin' },
          when: Date.now(),
        });
    });
    const at = performance.now();
    for (const s of subjects) commits.set(s, at);
    // What a POST answered by this process does: nudge the dispatcher.
    raise('webhookWorkQueued');
  }
}

/** Steady events: RATE per second for `seconds`, one small transaction every 1/RATE s. */
async function commitSteadily(seconds: number, commits: Map<string, number>): Promise<void> {
  const total = RATE * seconds;
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const s = `bench${++serial}`;
    await ctx.db.tx((q) =>
      recordEvent(q, {
        orgId: svc.orgId,
        source: 'group',
        operation: 'update',
        subjectId: s,
        actor: { userId: admin.id, username: 'admin' },
        when: Date.now(),
      }),
    );
    commits.set(s, performance.now());
    raise('webhookWorkQueued');
  }
}

async function waitFor(count: () => number, target: number, limitMs: number): Promise<boolean> {
  const t0 = performance.now();
  while (count() < target) {
    if (performance.now() - t0 > limitMs) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

function latencies(hooks: string[], commits: Map<string, number>): number[] {
  const out: number[] = [];
  for (const h of hooks)
    for (const [s, at] of commits) {
      const got = arrivals.get(`${h}|${s}`);
      if (got !== undefined) out.push(got - at);
    }
  return out.sort((a, b) => a - b);
}
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

// Events written before this run's webhooks exist are consumed first.
const dispatcher = startWebhookDispatcher(ctx);
const { maxInFlight, perWebhook } = webhookDispatchOf(ctx.config);
await new Promise((r) => setTimeout(r, 500));

console.log(`Webhook delivery benchmark — ${EVENTS.toLocaleString('en-US')} events, dispatcher: ${maxInFlight} in flight, ${perWebhook} per webhook`);

// 1. Burst throughput.
{
  const hooks = await makeHooks(['/a', '/b', '/c', '/d']);
  const commits = new Map<string, number>();
  received = 0;
  const t0 = performance.now();
  await commitEvents(EVENTS, commits);
  const committedMs = performance.now() - t0;
  const total = EVENTS * hooks.length;
  const ok = await waitFor(() => received, total, 30 * 60_000);
  let last = t0;
  for (const at of arrivals.values()) if (at > last) last = at;
  const serviceMs = last - t0;
  const serviceRate = (received / serviceMs) * 1000;
  const burst = latencies(hooks, commits);

  // The same bodies from a plain client, same receiver, same concurrency.
  const sample = buildRequest(
    {
      id: '00000000-0000-4000-8000-000000000000',
      webhook_id: hooks[0],
      name: 'bench 0 /a',
      secret: 'benchSecret',
      event: { userId: admin.id, username: 'admin', when: Date.now(), operation: 'update', source: 'group', id: 'bench1', properties: {} },
    },
    'http://127.0.0.1/',
    Date.now(),
  );
  let next = 0;
  const p0 = performance.now();
  await Promise.all(
    Array.from({ length: maxInFlight }, async () => {
      while (next < total) {
        next++;
        const res = await fetch(`${base}/plain`, { method: 'POST', headers: sample.headers, body: sample.body });
        await res.arrayBuffer();
      }
    }),
  );
  const plainRate = (total / (performance.now() - p0)) * 1000;
  console.log(`\n1. Burst: ${fmt(total)} deliveries${ok ? '' : ' (NOT all delivered within 30 min)'}; events committed in ${fmt(committedMs)} ms`);
  console.log(`   service:      ${fmt(serviceRate)} deliveries/s (first commit to last delivery ${fmt(serviceMs / 1000, 1)} s)`);
  console.log(`   plain client: ${fmt(plainRate)} posts/s (fetch, keep-alive, ${maxInFlight} at once)`);
  console.log(`   ratio service : plain = ${fmt(serviceRate / plainRate, 2)} (goal >= 0.5)`);
  console.log(`   commit -> delivery under the burst: p50 ${fmt(pct(burst, 50))} ms, p99 ${fmt(pct(burst, 99))} ms`);
  await dropHooks(hooks);
}

// 2. Healthy receivers, steady rate.
let healthyP99 = NaN;
{
  const hooks = await makeHooks(['/e', '/f', '/g', '/h']);
  const commits = new Map<string, number>();
  received = 0;
  await commitSteadily(STEADY_SECONDS, commits);
  const ok = await waitFor(() => received, commits.size * hooks.length, 120_000);
  const l = latencies(hooks, commits);
  healthyP99 = pct(l, 99);
  console.log(`\n2. Steady ${RATE} events/s for ${STEADY_SECONDS} s to 4 healthy receivers: ${fmt(l.length)} deliveries${ok ? '' : ' (some missing)'}`);
  console.log(`   commit -> delivery: p50 ${fmt(pct(l, 50))} ms, p99 ${fmt(healthyP99)} ms, max ${fmt(l[l.length - 1])} ms (goal p99 < 1000 ms)`);
  await dropHooks(hooks);
}

// 3. One slow receiver (2 s answers) among four.
{
  const hooks = await makeHooks(['/i', '/j', '/k', '/slow']);
  const fast = hooks.slice(0, 3);
  const commits = new Map<string, number>();
  received = 0;
  const t0 = performance.now();
  await commitSteadily(STEADY_SECONDS, commits);
  const ok = await waitFor(() => latencies(fast, commits).length, commits.size * fast.length, 120_000);
  const l = latencies(fast, commits);
  const slow = latencies([hooks[3]], commits);
  const elapsed = (performance.now() - t0) / 1000;
  console.log(`\n3. Same rate, one receiver answering after ${slowDelayMs / 1000} s:`);
  console.log(
    `   the three healthy receivers: p50 ${fmt(pct(l, 50))} ms, p99 ${fmt(pct(l, 99))} ms${ok ? '' : ' (some missing)'} (healthy run p99 ${fmt(healthyP99)} ms)`,
  );
  console.log(
    `   the slow receiver: ${fmt(slow.length)} of ${fmt(commits.size)} delivered after ${fmt(elapsed, 1)} s (${perWebhook} at a time: ~${perWebhook / (slowDelayMs / 1000)}/s); the rest stay queued, not lost`,
  );
}

await dispatcher.stop();
await svc.close();
receiver.closeAllConnections();
receiver.close();
process.exit(0);
