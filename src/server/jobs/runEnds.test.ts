/**
 * Run ends written together: many ends in few statements, two ends of one task both counted, a
 * stale end (the run was taken over) not recorded, and the fifth consecutive failure disabling the
 * task as a single end would.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import type { Db } from '../store/db.ts';
import { TASK_DEFAULTS } from '../config.ts';
import { RunEndWriter } from './runEnds.ts';

const clock = { now: () => Date.parse('2026-11-23T08:00:00Z') };
let svc: TestService;
/** The service's database, counting the statements the writer sends. */
let statements = 0;
let counted: Db;

beforeAll(async () => {
  svc = await startService({ clock, config: { tasks: { ...TASK_DEFAULTS, activePerUser: 100, activePerOrg: 100 } } });
  counted = new Proxy(svc.db, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (...args: Parameters<Db['query']>) => {
          statements++;
          return target.query(...args);
        };
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
});
afterAll(() => svc.close());
beforeEach(async () => {
  statements = 0;
  await svc.db.query('DELETE FROM tasks');
});

async function createTask(title: string): Promise<string> {
  const params = { type: 'ExecuteReport', title, parameters: '{"reportType":"members"}', minute: '0', hour: '*', dayOfMonth: '?', month: '*', dayOfWeek: '*' };
  const r = await svc.post('community/users/admin/tasks/createTask', params, await svc.tokenFor('admin'));
  if (!r.success) throw new Error(JSON.stringify(r));
  return r.taskId as string;
}

/** A run of `taskId` being executed by a scheduler, at its `attempt`. */
async function executingRun(taskId: string, scheduledAt: number, attempt = 1): Promise<string> {
  const id = `${taskId}-${scheduledAt}`;
  await svc.db.query(
    `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, attempts, locked_until, started, created, modified)
     VALUES ($1, $2, $3, $4::bigint, 'executing', $5, $4::bigint + 60000, $4::bigint, $4::bigint, $4::bigint)`,
    [id, taskId, svc.orgId, scheduledAt, attempt],
  );
  return id;
}

const run = async (id: string) => (await svc.db.query<any>('SELECT * FROM task_runs WHERE id = $1', [id]))[0];
const task = async (id: string) => (await svc.db.query<any>('SELECT * FROM tasks WHERE id = $1', [id]))[0];

it('writes the ends of 60 runs that arrive together in a few statements, each with its own result and start', async () => {
  const writer = new RunEndWriter(counted, clock);
  const runs: { taskId: string; runId: string }[] = [];
  for (let i = 0; i < 60; i++) {
    const taskId = await createTask(`t${i}`);
    runs.push({ taskId, runId: await executingRun(taskId, 1000 + i) });
  }
  await Promise.all(
    runs.map((r, i) =>
      writer.record({ runId: r.runId, taskId: r.taskId, attempt: 1, status: i % 2 ? 'failed' : 'succeeded', result: `result ${i}`, startedAt: 5000 + i }),
    ),
  );
  expect(statements).toBeLessThanOrEqual(2); // the first end alone, then the 59 that waited for it
  for (const [i, r] of runs.entries()) {
    expect(await run(r.runId)).toMatchObject({
      status: i % 2 ? 'failed' : 'succeeded',
      result: `result ${i}`,
      started: 5000 + i,
      finished: clock.now(),
      locked_until: 0,
    });
    expect(await task(r.taskId)).toMatchObject({ last_status: i % 2 ? 'failed' : 'succeeded', consecutive_failures: i % 2 });
  }
});

it('holds the writes while the scheduler asks (runs wait to start), then writes what waited in one statement; a hold lasts at most maxHoldMs', async () => {
  let holding = true;
  const writer = new RunEndWriter(counted, clock, { holdWhile: () => holding, maxHoldMs: 60_000 });
  const runs: { taskId: string; runId: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const taskId = await createTask(`held ${i}`);
    runs.push({ taskId, runId: await executingRun(taskId, 1000 + i) });
  }
  const written = Promise.all(
    runs.map((r) => writer.record({ runId: r.runId, taskId: r.taskId, attempt: 1, status: 'succeeded', result: 'ok', startedAt: null })),
  );
  await new Promise((r) => setTimeout(r, 100));
  expect(statements).toBe(0);
  expect((await run(runs[0].runId)).status).toBe('executing');
  holding = false;
  writer.release();
  await written;
  expect(statements).toBe(1);
  for (const r of runs) expect(await run(r.runId)).toMatchObject({ status: 'succeeded', result: 'ok' });

  const bounded = new RunEndWriter(counted, clock, { holdWhile: () => true, maxHoldMs: 50 });
  const taskId = await createTask('held at most');
  const runId = await executingRun(taskId, 1000);
  await bounded.record({ runId, taskId, attempt: 1, status: 'succeeded', result: 'late but written', startedAt: null });
  expect((await run(runId)).result).toBe('late but written');
});

it('counts both failures when two runs of one task end together', async () => {
  const writer = new RunEndWriter(counted, clock);
  const taskId = await createTask('twice');
  const first = await executingRun(taskId, 1000);
  const second = await executingRun(taskId, 2000);
  await Promise.all([
    writer.record({ runId: first, taskId, attempt: 1, status: 'failed', result: 'one', startedAt: null }),
    writer.record({ runId: second, taskId, attempt: 1, status: 'failed', result: 'two', startedAt: null }),
  ]);
  expect(await task(taskId)).toMatchObject({ consecutive_failures: 2, last_result: 'two', active: true });
  expect(await run(first)).toMatchObject({ status: 'failed', started: 1000 });
  expect(await run(second)).toMatchObject({ status: 'failed', started: 2000 });
});

it('does not record the end of a run another scheduler took over (a later attempt holds it)', async () => {
  const writer = new RunEndWriter(counted, clock);
  const taskId = await createTask('taken over');
  const runId = await executingRun(taskId, 1000, 2);
  await writer.record({ runId, taskId, attempt: 1, status: 'succeeded', result: 'stale', startedAt: 1500 });
  expect(await run(runId)).toMatchObject({ status: 'executing', attempts: 2, result: '' });
  expect(await task(taskId)).toMatchObject({ consecutive_failures: 0 });
  expect((await task(taskId)).last_result).not.toBe('stale');
});

it('disables the task at the fifth consecutive failure, with the reason, among other ends', async () => {
  const writer = new RunEndWriter(counted, clock);
  const failing = await createTask('failing');
  const other = await createTask('other');
  await svc.db.query('UPDATE tasks SET consecutive_failures = 4 WHERE id = $1', [failing]);
  const failingRun = await executingRun(failing, 1000);
  const otherRun = await executingRun(other, 1000);
  await Promise.all([
    writer.record({ runId: otherRun, taskId: other, attempt: 1, status: 'failed', result: 'no runner', startedAt: null }),
    writer.record({ runId: failingRun, taskId: failing, attempt: 1, status: 'failed', result: 'No runner is configured', startedAt: null }),
  ]);
  expect(await task(failing)).toMatchObject({ active: false, state: 'failed', next_run_at: null, consecutive_failures: 5 });
  expect((await task(failing)).state_reason).toMatch(/^Disabled after 5 consecutive failed runs\. The last: No runner is configured/);
  expect(await task(other)).toMatchObject({ active: true, state: 'active', consecutive_failures: 1 });
});

it('rejects every end of a write that fails, and writes later ends', async () => {
  let fail = true;
  const flaky = new Proxy(svc.db, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (...args: Parameters<Db['query']>) => {
          if (fail) {
            fail = false;
            return Promise.reject(new Error('connection lost'));
          }
          return target.query(...args);
        };
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  const writer = new RunEndWriter(flaky, clock);
  const taskId = await createTask('flaky');
  const runId = await executingRun(taskId, 1000);
  await expect(writer.record({ runId, taskId, attempt: 1, status: 'succeeded', result: 'lost', startedAt: null })).rejects.toThrow('connection lost');
  await writer.record({ runId, taskId, attempt: 1, status: 'succeeded', result: 'kept', startedAt: null });
  expect(await run(runId)).toMatchObject({ status: 'succeeded', result: 'kept' });
});
