/**
 * The scheduler with a clock the test drives: runs at their time and not before, one run per
 * occurrence with two schedulers on one database, the misfire policy after downtime, a crashed
 * run taken over once, five failures disabling a task, maximum runs, and the executors against
 * real HTTP servers on loopback (a geoprocessing job server and an external runner).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { SCHEDULER_DEFAULTS, TASK_DEFAULTS, type TaskSettings } from '../config.ts';
import type { Executor } from '../areas/tasks/executors/index.ts';
import { TaskScheduler, type SchedulerOptions } from './scheduler.ts';

const MON_0730 = Date.parse('2026-11-23T07:30:00Z');
const clock = {
  t: MON_0730 - 3600_000,
  now() {
    return this.t;
  },
};
let svc: TestService;
let itemOfUser1: string;
/** A token signed in at the test clock's current time (the clock jumps past tokens' lifetimes). */
const token = (user: string) => svc.tokenFor(user);
/** Changes this service's task settings (its Config) for the tests that follow. */
const setTaskSettings = (patch: Partial<TaskSettings>) => {
  svc.config.tasks = { ...(svc.config.tasks ?? TASK_DEFAULTS), ...patch };
};

beforeAll(async () => {
  svc = await startService({ clock });
  itemOfUser1 = (await svc.post('content/users/user1/addItem', { title: 'wf', type: 'Workflow', text: '{}' }, await token('user1'))).id;
});
afterAll(() => svc.close());
beforeEach(async () => {
  clock.t = MON_0730 - 3600_000;
  await svc.db.query('DELETE FROM tasks');
});

const weekdays730 = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
const hourly = { minute: '0', hour: '*', dayOfMonth: '?', month: '*', dayOfWeek: '*' };

async function createTask(user: 'admin' | 'user1', params: Record<string, string>): Promise<string> {
  const r = await svc.post(`community/users/${user}/tasks/createTask`, params, await token(user));
  if (!r.success) throw new Error(JSON.stringify(r));
  return r.taskId;
}
const runsOf = (taskId: string) =>
  svc.db.query<{ id: string; status: string; result: string; scheduled_at: number; attempts: number }>(
    'SELECT * FROM task_runs WHERE task_id = $1 ORDER BY scheduled_at',
    [taskId],
  );
const taskRow = async (id: string) => (await svc.db.query<any>('SELECT * FROM tasks WHERE id = $1', [id]))[0];
const scheduler = (executors?: SchedulerOptions['executors'], extra: SchedulerOptions = {}) =>
  new TaskScheduler(svc.app.portal, { clock, executors, ...extra });

/** An executor that does its (test) work: counts each run it is given. */
function counting(): { executor: Executor; runs: string[] } {
  const runs: string[] = [];
  return { runs, executor: async ({ runId }) => (runs.push(runId), `counted ${runId}`) };
}

describe('runs at their time', () => {
  it('an ExecuteReport task runs at 07:30, not before, and builds a CSV item of the members owned by the task owner', async () => {
    const id = await createTask('admin', { type: 'ExecuteReport', title: 'Members', parameters: '{"reportType":"members"}', ...weekdays730 });
    const s = scheduler();
    clock.t = MON_0730 - 1;
    expect(await s.runDue()).toEqual({ fired: 0, runs: 0 });
    clock.t = MON_0730 + 400;
    expect(await s.runDue()).toEqual({ fired: 1, runs: 1 });
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ id: `${id}-${MON_0730}`, status: 'succeeded', scheduled_at: MON_0730, attempts: 1 });
    const itemId = /CSV item ([0-9a-f]{32})/.exec(run.result)![1];
    const [item] = await svc.db.query<any>('SELECT i.*, u.username FROM items i JOIN users u ON u.id = i.owner_id WHERE i.id = $1', [itemId]);
    expect(item).toMatchObject({ type: 'CSV', username: 'admin', data_mime: 'text/csv', title: 'Members 2026-11-23 07:30 UTC' });
    const csv = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${itemId}/data?token=${await token('admin')}` })).body;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('username,fullName,email,role,customRole,disabled,created,lastLogin');
    const users = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = $1', [svc.orgId]);
    expect(lines.length - 1).toBe(users[0].n);
    expect(csv).toContain('user1,');
    expect(csv).not.toContain('partner_admin');
    // Next: Tuesday 07:30; the record shows the last result.
    const t = await taskRow(id);
    expect(Number(t.next_run_at)).toBe(MON_0730 + 86_400_000);
    expect(t).toMatchObject({ last_status: 'succeeded', run_count: 1, consecutive_failures: 0 });
    // Nothing more until then.
    clock.t = MON_0730 + 86_400_000 - 1;
    expect(await s.runDue()).toEqual({ fired: 0, runs: 0 });
  });

  it('items and groups reports list the organization’s items and groups', async () => {
    const items = await createTask('admin', { type: 'ExecuteReport', parameters: '{"reportType":"items"}', ...weekdays730 });
    const groups = await createTask('admin', { type: 'ExecuteReport', parameters: '{"reportType":"groups"}', ...weekdays730 });
    clock.t = MON_0730;
    await scheduler().runDue();
    for (const [id, header] of [
      [items, 'id,title,type,owner,access,size,created,modified'],
      [groups, 'id,title,owner,access,members,created'],
    ]) {
      const [run] = await runsOf(id);
      expect(run.status).toBe('succeeded');
      const itemId = /CSV item ([0-9a-f]{32})/.exec(run.result)![1];
      const csv = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${itemId}/data?token=${await token('admin')}` })).body;
      expect(csv.split('\r\n')[0]).toBe(header);
    }
    const [itemsRun] = await runsOf(items);
    const csv = (
      await svc.app.inject({
        method: 'GET',
        url: `/sharing/rest/content/items/${/CSV item (\w+)/.exec(itemsRun.result)![1]}/data?token=${await token('admin')}`,
      })
    ).body;
    expect(csv).toContain(itemOfUser1);
  });
});

describe('no run twice, none lost', () => {
  it('two schedulers on one database racing for the same due minute: one run', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 }));
    const a = counting();
    const b = counting();
    clock.t = MON_0730 + 10;
    await Promise.all([scheduler({ ExecuteWorkflowManager: a.executor }).runDue(), scheduler({ ExecuteWorkflowManager: b.executor }).runDue()]);
    expect([...a.runs, ...b.runs].sort()).toEqual(ids.map((id) => `${id}-${MON_0730}`).sort());
    for (const id of ids) expect((await runsOf(id)).map((r) => r.status)).toEqual(['succeeded']);
    // A third pass at the same moment finds nothing to do.
    expect(await scheduler({ ExecuteWorkflowManager: a.executor }).runDue()).toEqual({ fired: 0, runs: 0 });
  });

  it('after downtime the latest missed run fires once on recovery; earlier ones are recorded as skipped', async () => {
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...hourly });
    const first = Number((await taskRow(id)).next_run_at);
    // The service is down for 5 hours and 20 minutes; a new process starts.
    clock.t = first + 4 * 3600_000 + 20 * 60_000;
    const c = counting();
    await scheduler({ ExecuteWorkflowManager: c.executor }).runDue();
    const runs = await runsOf(id);
    expect(runs.map((r) => [r.scheduled_at - first, r.status])).toEqual([
      [0, 'skipped'],
      [3600_000, 'skipped'],
      [2 * 3600_000, 'skipped'],
      [3 * 3600_000, 'skipped'],
      [4 * 3600_000, 'succeeded'],
    ]);
    expect(c.runs).toEqual([`${id}-${first + 4 * 3600_000}`]);
    expect(runs[0].result).toMatch(/Missed while the scheduler was not running/);
    expect(Number((await taskRow(id)).next_run_at)).toBe(first + 5 * 3600_000);
    const listed = await svc.post(`community/users/user1/tasks/${id}/runs`, {}, await token('user1'));
    expect(listed.runs[0]).toMatchObject({ status: 'succeeded' });
  });

  it('a run whose process died is taken over once its lease runs out, and the first process cannot finish it afterwards', async () => {
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 });
    clock.t = MON_0730;
    const dead = scheduler(undefined, { leaseMs: 60_000 });
    await dead.materialize();
    const [claimed] = await dead.claim(10); // claimed, then the process "dies" before executing
    expect(claimed.id).toBe(`${id}-${MON_0730}`);
    const c = counting();
    const other = scheduler({ ExecuteWorkflowManager: c.executor }, { leaseMs: 60_000 });
    clock.t = MON_0730 + 30_000;
    expect((await other.runDue()).runs).toBe(0); // lease still held
    clock.t = MON_0730 + 61_000;
    expect((await other.runDue()).runs).toBe(1);
    expect(c.runs).toEqual([claimed.id]);
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: 'succeeded', attempts: 2 });
    // The first process waking up late must not overwrite the outcome.
    await scheduler({ ExecuteWorkflowManager: async () => 'late' }).execute(claimed);
    expect((await runsOf(id))[0].result).toBe(`counted ${claimed.id}`);
  });
});

describe('run history', () => {
  it('keeps the newest 100 finished runs of each task', async () => {
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...hourly });
    for (let i = 0; i < 105; i++) {
      await svc.db.query(
        `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified) VALUES ($1, $2, $3, $4, 'succeeded', '', 0, 0)`,
        [`${id}-${i}`, id, svc.orgId, i],
      );
    }
    await svc.db.query(
      `INSERT INTO task_runs (id, task_id, org_id, scheduled_at, status, result, created, modified) VALUES ($1, $2, $3, -1, 'scheduled', '', 0, 0)`,
      [`${id}--1`, id, svc.orgId],
    );
    expect(await scheduler().prune()).toBe(5);
    const left = await runsOf(id);
    expect(left.length).toBe(101); // 100 finished + the one still waiting
    expect(left.filter((r) => r.status === 'succeeded').map((r) => Number(r.scheduled_at))).toEqual(Array.from({ length: 100 }, (_, i) => i + 5));
  });

  it('Config scheduler sets how many missed runs are recorded and how many finished runs are kept; an option overrides it', async () => {
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...hourly });
    const first = Number((await taskRow(id)).next_run_at);
    const portal = { ...svc.app.portal, config: { ...svc.app.portal.config, scheduler: { ...SCHEDULER_DEFAULTS, skippedRecorded: 2, runsKept: 2 } } };
    clock.t = first + 4 * 3600_000;
    const c = counting();
    await new TaskScheduler(portal, { clock, executors: { ExecuteWorkflowManager: c.executor } }).runDue();
    // Four missed, two of them recorded; the latest fired.
    expect((await runsOf(id)).map((r) => [r.scheduled_at - first, r.status])).toEqual([
      [2 * 3600_000, 'skipped'],
      [3 * 3600_000, 'skipped'],
      [4 * 3600_000, 'succeeded'],
    ]);
    expect(await new TaskScheduler(portal, { clock, runsKept: 3 }).prune()).toBe(0);
    expect(await new TaskScheduler(portal, { clock }).prune()).toBe(1);
    expect((await runsOf(id)).map((r) => r.scheduled_at - first)).toEqual([3 * 3600_000, 4 * 3600_000]);
  });
});

describe('failures and completion', () => {
  it('a type without a runner fails with a clear reason; five failures in a row disable the task', async () => {
    setTaskSettings({ runnerUrls: {} });
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...hourly });
    const s = scheduler();
    let t = Number((await taskRow(id)).next_run_at);
    for (let i = 0; i < 5; i++) {
      clock.t = t;
      await s.runDue();
      t += 3600_000;
    }
    const runs = await runsOf(id);
    expect(runs.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(runs[0].result).toBe(
      'No runner is configured for ExecuteWorkflowManager tasks: set TASK_RUNNER_WORKFLOW_URL to the runner\u2019s URL.'.replace('\u2019', "'"),
    );
    const row = await taskRow(id);
    expect(row).toMatchObject({ active: false, state: 'failed', next_run_at: null, consecutive_failures: 5 });
    expect(row.state_reason).toMatch(/^Disabled after 5 consecutive failed runs\. The last: No runner is configured/);
    clock.t = t + 10 * 3600_000;
    expect(await s.runDue()).toEqual({ fired: 0, runs: 0 });
    // Enabling starts counting afresh.
    expect((await svc.post(`community/users/user1/tasks/${id}/enable`, {}, await token('user1'))).success).toBe(true);
    expect(await taskRow(id)).toMatchObject({ active: true, state: 'active', consecutive_failures: 0 });
  });

  it('a success resets the failure count', async () => {
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...hourly });
    let n = 0;
    const flaky: Executor = async () => {
      n++;
      if (n % 4 === 0) return 'ok';
      throw new Error('boom');
    };
    const s = scheduler({ ExecuteWorkflowManager: flaky });
    let t = Number((await taskRow(id)).next_run_at);
    for (let i = 0; i < 8; i++) {
      clock.t = t;
      await s.runDue();
      t += 3600_000;
    }
    expect((await runsOf(id)).map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'succeeded', 'failed', 'failed', 'failed', 'succeeded']);
    expect(await taskRow(id)).toMatchObject({ active: true, consecutive_failures: 0 });
    expect((await runsOf(id))[0].result).toBe('The run failed: boom');
  });

  it('maxOccurrences: after that many runs the task is completed', async () => {
    const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, maxOccurrences: '2', ...hourly });
    const c = counting();
    const s = scheduler({ ExecuteWorkflowManager: c.executor });
    let t = Number((await taskRow(id)).next_run_at);
    for (let i = 0; i < 4; i++) {
      clock.t = t;
      await s.runDue();
      t += 3600_000;
    }
    expect(c.runs.length).toBe(2);
    expect(await taskRow(id)).toMatchObject({
      active: false,
      state: 'completed',
      next_run_at: null,
      state_reason: 'Completed: it ran the maximum of 2 times.',
    });
  });
});

// ---- executors against real HTTP servers on loopback ----

async function listen(
  handler: (req: IncomingMessage, body: string) => { status?: number; json?: unknown; text?: string },
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const out = handler(req, body);
      res.writeHead(out.status ?? 200, { 'content-type': out.json !== undefined ? 'application/json' : 'text/plain' });
      res.end(out.json !== undefined ? JSON.stringify(out.json) : (out.text ?? ''));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('GPService executor against a geoprocessing job server', () => {
  let gp: { server: Server; url: string };
  const submitted: { path: string; form: URLSearchParams }[] = [];
  const polls: string[] = [];
  /** Job id → statuses it reports, one per poll. */
  const scripts = new Map<string, string[]>();
  let nextJob = 0;

  beforeAll(async () => {
    setTaskSettings({ gpPollMs: 10, gpTimeoutMs: 5000 });
    gp = await listen((req, body) => {
      const u = new URL(req.url!, 'http://x');
      if (req.method === 'POST' && u.pathname.endsWith('/submitJob')) {
        const form = new URLSearchParams(body);
        submitted.push({ path: u.pathname, form });
        if (form.get('token') !== 'gp-admin-token') return { json: { error: { code: 498, message: 'Invalid token.', details: [] } } };
        const jobId = `j${++nextJob}`;
        const mode = form.get('Mode');
        scripts.set(
          jobId,
          mode === 'fail'
            ? ['esriJobExecuting', 'esriJobFailed']
            : mode === 'slow'
              ? [...Array(40).fill('esriJobExecuting'), 'esriJobSucceeded']
              : ['esriJobExecuting', 'esriJobExecuting', 'esriJobSucceeded'],
        );
        return { json: { jobId, jobStatus: 'esriJobSubmitted' } };
      }
      const m = /\/jobs\/(\w+)$/.exec(u.pathname);
      if (req.method === 'GET' && m) {
        polls.push(`${m[1]}:${u.searchParams.get('token')}`);
        const script = scripts.get(m[1]);
        if (!script) return { json: { error: { code: 400, message: 'Job not found' } } };
        const status = script.length > 1 ? script.shift()! : script[0];
        return {
          json: {
            jobId: m[1],
            jobStatus: status,
            messages: status === 'esriJobFailed' ? [{ type: 'esriJobMessageTypeError', description: 'Input layer has no features.' }] : [],
            ...(status === 'esriJobSucceeded' ? { results: { Output: { paramUrl: 'results/Output' } } } : {}),
          },
        };
      }
      return { status: 404, text: 'not here' };
    });
  });
  afterAll(() => new Promise<void>((r) => gp.server.close(() => r())));

  async function gpTask(params: Record<string, unknown>, token = 'gp-admin-token'): Promise<string> {
    const id = await createTask('admin', {
      type: 'GPService',
      taskURL: `${gp.url}/arcgis/rest/services/Buffer/GPServer/Buffer`,
      parameters: JSON.stringify(params),
      ...weekdays730,
    });
    // The token the task keeps is the form token it was created with; here one the job server knows.
    await svc.db.query('UPDATE tasks SET run_token = $2 WHERE id = $1', [id, token]);
    return id;
  }

  it('submits the job with the parameters and the token, follows it to esriJobSucceeded', async () => {
    const id = await gpTask({ Input: { url: 'https://x/FeatureServer/0' }, Distance: { distance: 5, units: 'esriMiles' }, Mode: 'ok' });
    clock.t = MON_0730;
    await scheduler().runDue();
    const [run] = await runsOf(id);
    expect(run).toMatchObject({ status: 'succeeded', result: expect.stringMatching(/^Job j\d+ succeeded; results: Output\.$/) });
    const sent = submitted.at(-1)!;
    expect(sent.path).toBe('/arcgis/rest/services/Buffer/GPServer/Buffer/submitJob');
    expect(sent.form.get('f')).toBe('json');
    expect(JSON.parse(sent.form.get('Input')!)).toEqual({ url: 'https://x/FeatureServer/0' });
    expect(JSON.parse(sent.form.get('Distance')!)).toEqual({ distance: 5, units: 'esriMiles' });
    const jobId = /Job (j\d+)/.exec(run.result)![1];
    expect(polls.filter((p) => p.startsWith(`${jobId}:`))).toEqual([`${jobId}:gp-admin-token`, `${jobId}:gp-admin-token`, `${jobId}:gp-admin-token`]);
  });

  it('a failed job fails the run with the service’s messages; a refused token fails it with the error', async () => {
    const failing = await gpTask({ Mode: 'fail' });
    const refused = await gpTask({ Mode: 'ok' }, 'wrong-token');
    clock.t = MON_0730;
    await scheduler().runDue();
    expect((await runsOf(failing))[0]).toMatchObject({
      status: 'failed',
      result: expect.stringMatching(/^Job j\d+ ended with esriJobFailed: Input layer has no features\.$/),
    });
    expect((await runsOf(refused))[0]).toMatchObject({ status: 'failed', result: 'submitJob failed: 498 Invalid token.' });
  });

  it('a service stopping mid-job hands the run back; the next start runs it to the end (not lost, not failed)', async () => {
    const id = await gpTask({ Mode: 'slow' });
    clock.t = MON_0730;
    const first = scheduler();
    await first.materialize();
    const [run] = await first.claim(10);
    const executing = first.execute(run);
    await new Promise((r) => setTimeout(r, 60)); // the job is running
    await first.stop();
    await executing;
    expect((await runsOf(id))[0]).toMatchObject({ status: 'scheduled', attempts: 0 });
    await scheduler().runDue();
    expect((await runsOf(id)).map((r) => [r.status, r.attempts])).toEqual([['succeeded', 1]]);
  });

  it('an unreachable task URL fails the run with the reason', async () => {
    const id = await createTask('admin', { type: 'GPService', taskURL: 'http://127.0.0.1:9/GPServer/Tool', parameters: '{"a":1}', ...weekdays730 });
    clock.t = MON_0730;
    await scheduler().runDue();
    expect((await runsOf(id))[0]).toMatchObject({
      status: 'failed',
      result: expect.stringMatching(/request to http:\/\/127\.0\.0\.1:9\/GPServer\/Tool\/submitJob failed: .*ECONNREFUSED/),
    });
  });
});

describe('external runner', () => {
  it('the run is posted to the configured runner; 2xx succeeds, anything else fails with what it said', async () => {
    const received: any[] = [];
    let answer = 200;
    const runner = await listen((_req, body) => {
      received.push(JSON.parse(body));
      return answer === 200 ? { json: { ok: true } } : { status: answer, text: 'notebook kernel died' };
    });
    setTaskSettings({ runnerUrls: { ExecuteWorkflowManager: `${runner.url}/run` } });
    try {
      const id = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, parameters: '{"jobTemplate":"daily"}', ...hourly });
      const first = Number((await taskRow(id)).next_run_at);
      clock.t = first;
      await scheduler().runDue();
      answer = 500;
      clock.t = first + 3600_000;
      await scheduler().runDue();
      expect(received.map((r) => [r.taskId, r.runId, r.type, r.itemId, r.owner, r.parameters])).toEqual([
        [id, `${id}-${first}`, 'ExecuteWorkflowManager', itemOfUser1, 'user1', { jobTemplate: 'daily' }],
        [id, `${id}-${first + 3600_000}`, 'ExecuteWorkflowManager', itemOfUser1, 'user1', { jobTemplate: 'daily' }],
      ]);
      const runs = await runsOf(id);
      expect(runs.map((r) => r.status)).toEqual(['succeeded', 'failed']);
      expect(runs[1].result).toBe(`The runner at ${runner.url}/run answered HTTP 500: notebook kernel died.`);
      // A task whose item is gone fails without calling the runner. (Deleting an item through the
      // API deactivates its tasks; the row is removed directly here so the run still comes due.)
      const gone = (await svc.post('content/users/user1/addItem', { title: 'gone', type: 'Workflow', text: '{}' }, await token('user1'))).id;
      const orphan = await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: gone, ...hourly });
      await svc.db.query('DELETE FROM items WHERE id = $1', [gone]);
      clock.t = Number((await taskRow(orphan)).next_run_at);
      await scheduler().runDue();
      expect((await runsOf(orphan))[0]).toMatchObject({ status: 'failed', result: `The item ${gone} the task runs on no longer exists.` });
      expect(received.filter((r) => r.taskId === orphan)).toEqual([]);
    } finally {
      setTaskSettings({ runnerUrls: {} });
      await new Promise<void>((r) => runner.server.close(() => r()));
    }
  });
});

describe('the background loop', () => {
  it('the loop claims in batches, executes at most maxInFlight at once, and hands back claimed runs it never started when stopped', async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 }));
    clock.t = MON_0730 + 10;
    let active = 0;
    let most = 0;
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blocking: Executor = async ({ runId }) => {
      started.push(runId);
      most = Math.max(most, ++active);
      await gate;
      active--;
      return 'done';
    };
    const loop = new TaskScheduler(svc.app.portal, {
      clock,
      maxInFlight: 2,
      claimAhead: 2,
      pollMs: 50,
      executors: { ExecuteWorkflowManager: blocking },
    }).start();
    const deadline = Date.now() + 5000;
    while (started.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200)); // time for more (wrong) starts, had the bound not held
    expect(started).toHaveLength(2);
    // Two executing and two claimed in the queue (claimAhead beyond those executing).
    const executing = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM task_runs WHERE status = 'executing'`);
    expect(executing[0].n).toBe(4);
    const stopping = loop.stop();
    release();
    await stopping;
    const states = await svc.db.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM task_runs ORDER BY status`);
    expect(states.map((r) => `${r.status}/${r.attempts}`)).toEqual(['scheduled/0', 'scheduled/0', 'scheduled/0', 'scheduled/0', 'succeeded/1', 'succeeded/1']);
    // The next scheduler runs the rest, each once.
    const c = counting();
    expect((await scheduler({ ExecuteWorkflowManager: c.executor }).runDue()).runs).toBe(4);
    expect([...started, ...c.runs].sort()).toEqual(ids.map((id) => `${id}-${MON_0730}`).sort());
    expect(most).toBe(2);
  });

  it('two loops on one database claim runs as they insert them: each run executes once, its task records the start', async () => {
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(await createTask('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 }));
    clock.t = MON_0730 + 10;
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blocking: Executor = async ({ runId }) => {
      started.push(runId);
      await gate;
      return 'done';
    };
    const loops = [0, 1].map(() =>
      new TaskScheduler(svc.app.portal, { clock, maxInFlight: 2, claimAhead: 2, pollMs: 50, executors: { ExecuteWorkflowManager: blocking } }).start(),
    );
    const deadline = Date.now() + 5000;
    while (started.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(started).toHaveLength(4);
    // A started run's task says so, as a claim records it.
    const tasks = await svc.db.query<{ id: string; last_status: string | null; last_start: number | null }>('SELECT id, last_status, last_start FROM tasks');
    const running = tasks.filter((t) => started.includes(`${t.id}-${MON_0730}`));
    expect(running.map((t) => `${t.last_status}@${Number(t.last_start)}`)).toEqual(Array(4).fill(`executing@${MON_0730 + 10}`));
    release();
    while (started.length < 8 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(loops.map((l) => l.stop()));
    expect([...started].sort()).toEqual(ids.map((id) => `${id}-${MON_0730}`).sort());
    const runs = await svc.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM task_runs');
    expect(runs.map((r) => `${r.status}/${r.attempts}`)).toEqual(Array(8).fill('succeeded/1'));
    const after = await svc.db.query<{ last_status: string; run_count: number; next_run_at: number }>('SELECT last_status, run_count, next_run_at FROM tasks');
    expect(after.every((t) => t.last_status === 'succeeded' && t.run_count === 1 && Number(t.next_run_at) > MON_0730)).toBe(true);
  });

  it('starts a due run within 2 s of its time', async () => {
    // A clock 1.5 s before a minute boundary, moving in real time.
    const real = Date.now();
    const offset = Math.ceil(real / 60_000) * 60_000 + 60_000 - 1500 - real;
    const moving = { now: () => Date.now() + offset };
    const c = counting();
    clock.t = moving.now();
    const id = await createTask('user1', {
      type: 'ExecuteWorkflowManager',
      itemId: itemOfUser1,
      minute: '*',
      hour: '*',
      dayOfMonth: '?',
      month: '*',
      dayOfWeek: '*',
    });
    const due = Number((await taskRow(id)).next_run_at);
    expect(due - moving.now()).toBeGreaterThan(1000);
    const loop = new TaskScheduler(svc.app.portal, { clock: moving, executors: { ExecuteWorkflowManager: c.executor } }).start();
    try {
      const deadline = Date.now() + 6000;
      while (!c.runs.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const [run] = await svc.db.query<{ started: number; scheduled_at: number }>('SELECT started, scheduled_at FROM task_runs WHERE task_id = $1', [id]);
      expect(Number(run.scheduled_at)).toBe(due);
      const lateness = Number(run.started) - due;
      expect(lateness).toBeGreaterThanOrEqual(0);
      expect(lateness).toBeLessThan(2000);
    } finally {
      await loop.stop();
    }
  });
});
