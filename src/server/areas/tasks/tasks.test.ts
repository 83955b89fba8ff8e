/**
 * Scheduled tasks through the service: create per type (required fields, parameter shapes,
 * schedule errors naming the field), who may do what, list filters and activeTasksAvailable,
 * update/enable/disable/delete, limits, the organization's list, and deactivateItemTasks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { deactivateItemTasks } from './itemTasks.ts';
import { TASK_DEFAULTS } from '../../config.ts';

const T0 = Date.parse('2026-11-20T08:00:00Z'); // a Friday
const clock = {
  t: T0,
  now() {
    return this.t;
  },
};
let svc: TestService;
const tokens: Record<string, string> = {};
let itemOfUser1: string;
let itemOfAdmin: string;

const weekdays730 = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
const report = { type: 'ExecuteReport', title: 'Members report', parameters: JSON.stringify({ reportType: 'members' }), ...weekdays730 };

async function addItem(user: string, title: string): Promise<string> {
  const r = await svc.post(`content/users/${user}/addItem`, { title, type: 'Notebook', text: '{}' }, tokens[user]);
  expect(r.success).toBe(true);
  return r.id;
}

beforeAll(async () => {
  svc = await startService({ clock });
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  itemOfUser1 = await addItem('user1', 'notebook of user1');
  itemOfAdmin = await addItem('admin', 'notebook of admin');
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.db.query('DELETE FROM tasks');
});

const create = (user: string, params: Record<string, string>) => svc.post(`community/users/${user}/tasks/createTask`, params, tokens[user]);
const get = (user: string, id: string, as = user) => svc.post(`community/users/${user}/tasks/${id}`, {}, tokens[as]);

describe('createTask', () => {
  it('creates a report task and answers {success, taskId}; the record follows the facts file', async () => {
    const r = await create('admin', report);
    expect(r).toEqual({ success: true, taskId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const t = await get('admin', r.taskId);
    expect(t).toMatchObject({
      id: r.taskId,
      itemId: null,
      type: 'ExecuteReport',
      title: 'Members report',
      userId: 'admin',
      cronSchedule: weekdays730,
      maxOccurrences: -1,
      parameters: { reportType: 'members' },
      created: T0,
      updated: T0,
      startDate: null,
      endDate: null,
      active: true,
      taskState: 'active',
      // Friday 08:00 → Monday 07:30 UTC
      nextRun: Date.parse('2026-11-23T07:30:00Z'),
      runCount: 0,
    });
  });

  it('accepts the alternate paths: a task id segment before createTask, and the user path', async () => {
    expect((await svc.post('community/users/admin/tasks/anything/createTask', report, tokens.admin)).success).toBe(true);
    expect((await svc.post('community/users/admin/createTask', report, tokens.admin)).success).toBe(true);
  });

  it('accepts the Unix-style fields the Python client sends', async () => {
    const r = await create('admin', { ...report, minute: '0', hour: '0', dayOfMonth: '*', month: '*', dayOfWeek: '0' });
    expect((await get('admin', r.taskId)).nextRun).toBe(Date.parse('2026-11-22T00:00:00Z')); // Sunday
  });

  it('names the schedule field in error', async () => {
    const r = await create('admin', { ...report, hour: '25' });
    expect(r.error).toMatchObject({ code: 400, fieldErrors: { hour: expect.stringMatching(/25 is outside 0–23/) } });
    const both = await create('admin', { ...report, dayOfMonth: '?', dayOfWeek: '?' });
    expect(both.error.fieldErrors.dayOfWeek).toMatch(/only one/);
    const missing = await create('admin', { ...report, minute: '' });
    expect(missing.error.fieldErrors.minute).toBeDefined();
    expect((await svc.db.query('SELECT 1 FROM tasks')).length).toBe(0);
  });

  it('refuses an unknown type, naming the values', async () => {
    const r = await create('admin', { ...report, type: 'Bogus' });
    expect(r.error.fieldErrors.type).toMatch(/ExecuteNotebook/);
  });

  it('per type: itemId required except reports and geoprocessing; parameters required for scene, report, geoprocessing', async () => {
    const nb = await create('publisher1', { type: 'ExecuteNotebook', ...weekdays730 });
    expect(nb.error.fieldErrors).toEqual({ itemId: 'is required for ExecuteNotebook tasks' });
    const rep = await create('admin', { type: 'ExecuteReport', ...weekdays730 });
    expect(rep.error.fieldErrors).toEqual({ parameters: 'is required for ExecuteReport tasks' });
    const scene = await create('admin', { type: 'ExecuteSceneCook', itemId: itemOfAdmin, ...weekdays730 });
    expect(scene.error.fieldErrors).toEqual({ parameters: 'is required for ExecuteSceneCook tasks' });
    const gp = await create('admin', { type: 'GPService', parameters: '{"in":1}', ...weekdays730 });
    expect(gp.error.fieldErrors).toEqual({ taskURL: 'is required for GPService tasks' });
  });

  it('validates parameter shapes with the path of the problem', async () => {
    const scene = await create('admin', {
      type: 'ExecuteSceneCook',
      itemId: itemOfAdmin,
      parameters: JSON.stringify({ service_url: 'https://x/SceneServer', num_of_caching_service_instances: 2, update_mode: 'SOMETIMES' }),
      ...weekdays730,
    });
    expect(scene.error.details.join()).toMatch(/parameters\.update_mode/);
    const okScene = await create('admin', {
      type: 'ExecuteSceneCook',
      itemId: itemOfAdmin,
      parameters: JSON.stringify({
        service_url: 'https://x/SceneServer',
        num_of_caching_service_instances: 2,
        layer: '0',
        update_mode: 'PARTIAL_UPDATE_NODES',
      }),
      ...weekdays730,
    });
    expect(okScene.success).toBe(true);
    const rep = await create('admin', { ...report, parameters: '{"reportType":"everything"}' });
    expect(rep.error.details.join()).toMatch(/parameters\.reportType/);
    const notJson = await create('admin', { ...report, parameters: '{not json' });
    expect(notJson.error.fieldErrors.parameters).toMatch(/valid JSON/);
  });

  it('a geoprocessing task needs an administrator and the token in the form field; the token is never shown', async () => {
    const gp = {
      type: 'GPService',
      taskURL: 'http://127.0.0.1:9/arcgis/rest/services/Tool/GPServer/Run',
      parameters: JSON.stringify({ Input: { url: 'https://x/FeatureServer/0' }, Distance: { distance: 5, units: 'esriMiles' } }),
      ...weekdays730,
    };
    const r = await create('admin', gp);
    expect(r.success).toBe(true);
    const record = await get('admin', r.taskId);
    expect(JSON.stringify(record)).not.toContain(tokens.admin);
    expect(record.taskUrl).toBe(gp.taskURL);
    const noForm = await svc.app.inject({
      method: 'POST',
      url: '/sharing/rest/community/users/admin/tasks/createTask',
      headers: { authorization: `Bearer ${tokens.admin}` },
      payload: { f: 'json', ...gp },
    });
    expect(noForm.json().error.fieldErrors).toEqual({ token: expect.stringMatching(/administrator token/) });
    expect((await create('publisher1', gp)).error.code).toBe(403);
  });

  it('only the named member creates; viewers cannot; reports are for administrators; items must be in the organization and the caller’s', async () => {
    const underAnotherName = (await svc.post('community/users/user1/tasks/createTask', report, tokens.admin)).error;
    expect(underAnotherName).toMatchObject({ code: 403, details: ['Only user1 can do this.'] });
    // What createTask reaches beyond its path (TASKS_OF_OTHERS): a default administrator's own task on another member's item.
    expect((await create('admin', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 })).success).toBe(true);
    expect((await create('viewer1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 })).error.code).toBe(403);
    expect((await create('user1', report)).error.code).toBe(403);
    const foreign = await create('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfAdmin, ...weekdays730 });
    expect(foreign.error.code).toBe(403);
    const missing = await create('user1', { type: 'ExecuteWorkflowManager', itemId: 'f'.repeat(32), ...weekdays730 });
    expect(missing.error.fieldErrors.itemId).toMatch(/does not exist/);
    expect((await create('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 })).success).toBe(true);
    const partner = await svc.post(
      'community/users/partner_admin/tasks/createTask',
      { type: 'ExecuteWorkflowManager', itemId: itemOfAdmin, ...weekdays730 },
      tokens.partner_admin,
    );
    expect(partner.error.fieldErrors.itemId).toMatch(/does not exist in this organization/);
  });

  it('startDate, endDate and maxOccurrences: stored, window respected, a window with no run refused', async () => {
    const start = Date.parse('2026-12-01T00:00:00Z');
    const r = await create('admin', { ...report, startDate: String(start), endDate: String(start + 30 * 86_400_000), maxOccurrences: '3' });
    expect(await get('admin', r.taskId)).toMatchObject({ startDate: start, maxOccurrences: 3, nextRun: Date.parse('2026-12-01T07:30:00Z') });
    const none = await create('admin', { ...report, endDate: String(T0 + 60_000) });
    expect(none.error.fieldErrors.endDate).toMatch(/no run/);
    const backwards = await create('admin', { ...report, startDate: String(start), endDate: String(start - 1) });
    expect(backwards.error.fieldErrors.endDate).toMatch(/after startDate/);
    expect((await create('admin', { ...report, maxOccurrences: '0' })).error.fieldErrors.maxOccurrences).toBeDefined();
    expect((await create('admin', { ...report, maxOccurrences: 'x' })).error.fieldErrors.maxOccurrences).toBeDefined();
  });
});

describe('list, get, update, enable, disable, delete', () => {
  it('lists the member’s tasks with filters, paging and activeTasksAvailable', async () => {
    const a = (await create('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, title: 'A', ...weekdays730 })).taskId;
    const b = (await create('user1', { type: 'UpdateInsightsWorkbook', itemId: itemOfUser1, title: 'B', ...weekdays730 })).taskId;
    await svc.post(`community/users/user1/tasks/${b}/disable`, {}, tokens.user1);
    const all = await svc.post('community/users/user1/tasks', { num: '1' }, tokens.user1);
    expect(all).toMatchObject({ total: 2, start: 1, num: 1, nextStart: 2, activeTasksAvailable: TASK_DEFAULTS.activePerUser - 1 });
    expect((await svc.post('community/users/user1/tasks', { active: 'true' }, tokens.user1)).tasks.map((t: any) => t.id)).toEqual([a]);
    expect((await svc.post('community/users/user1/tasks', { types: 'UpdateInsightsWorkbook' }, tokens.user1)).tasks.map((t: any) => t.id)).toEqual([b]);
    expect(
      (await svc.post('community/users/user1/tasks', { itemId: itemOfUser1, sortField: 'title', sortOrder: 'asc' }, tokens.user1)).tasks.map(
        (t: any) => t.title,
      ),
    ).toEqual(['A', 'B']);
    expect((await svc.post('community/users/user1/tasks', { types: 'Nope' }, tokens.user1)).error.code).toBe(400);
    // An administrator of the organization reads them; another member and another organization do not.
    expect((await svc.post('community/users/user1/tasks', {}, tokens.admin)).total).toBe(2);
    expect((await svc.post('community/users/user1/tasks', {}, tokens.publisher1)).error.code).toBe(403);
    // Another organization's member answers as a made-up name does (http/userPath.ts).
    expect((await svc.post('community/users/user1/tasks', {}, tokens.partner_admin)).error).toMatchObject({
      code: 400,
      message: "User 'user1' does not exist or is inaccessible.",
    });
    expect((await get('user1', a, 'publisher1')).error.code).toBe(403);
    // A task id through another member's path is not found.
    expect((await get('admin', a, 'admin')).error.code).toBe(400);
  });

  it('disable records who and why; enable recomputes the next run; update changes the schedule', async () => {
    const id = (await create('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 })).taskId;
    expect(await svc.post(`community/users/user1/tasks/${id}/disable`, {}, tokens.user1)).toEqual({ success: true });
    expect(await get('user1', id)).toMatchObject({ active: false, taskState: 'paused', stateReason: 'Paused by user1.', nextRun: null });
    expect(await svc.post(`community/users/user1/tasks/${id}/enable`, {}, tokens.user1)).toEqual({ success: true });
    expect(await get('user1', id)).toMatchObject({ active: true, taskState: 'active', stateReason: null, nextRun: Date.parse('2026-11-23T07:30:00Z') });
    const up = await svc.post(
      `community/users/user1/tasks/${id}/update`,
      { title: 'Renamed', minute: '0', hour: '12', dayOfMonth: 'L', month: '*', dayOfWeek: '?' },
      tokens.user1,
    );
    expect(up).toEqual({ success: true });
    expect(await get('user1', id)).toMatchObject({ title: 'Renamed', cronSchedule: { dayOfMonth: 'L' }, nextRun: Date.parse('2026-11-30T12:00:00Z') });
    expect((await svc.post(`community/users/user1/tasks/${id}/update`, { dayOfMonth: '40' }, tokens.user1)).error.fieldErrors.dayOfMonth).toMatch(
      /40 is outside/,
    );
    expect((await svc.post(`community/users/user1/tasks/${id}/update`, { isActive: 'false' }, tokens.user1)).success).toBe(true);
    expect((await get('user1', id)).active).toBe(false);
    // An administrator manages a member's task.
    expect((await svc.post(`community/users/user1/tasks/${id}/enable`, {}, tokens.admin)).success).toBe(true);
    expect((await svc.post(`community/users/user1/tasks/${id}/delete`, {}, tokens.publisher1)).error.code).toBe(403);
    expect(await svc.post(`community/users/user1/tasks/${id}/delete`, {}, tokens.user1)).toEqual({ success: true });
    expect((await get('user1', id)).error.code).toBe(400);
    expect(
      (await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/users/user1/tasks/${id}/delete?f=json&token=${tokens.user1}` })).json().error.code,
    ).toBe(405);
  });

  it('runs: empty at first; a run started by hand is listed with its derived id', async () => {
    const id = (await create('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 })).taskId;
    expect(await svc.post(`community/users/user1/tasks/${id}/runs`, {}, tokens.user1)).toEqual({ runs: [] });
    const started = await svc.post(`community/users/user1/tasks/${id}/run`, {}, tokens.user1);
    expect(started).toEqual({ success: true, runId: `${id}-${T0}` });
    const runs = await svc.post(`community/users/user1/tasks/${id}/runs`, {}, tokens.user1);
    expect(runs.runs).toEqual([expect.objectContaining({ runId: `${id}-${T0}`, status: 'scheduled', scheduled: T0 })]);
    expect(await svc.post(`community/users/user1/tasks/${id}/runs/${id}-${T0}`, {}, tokens.user1)).toMatchObject({ runId: `${id}-${T0}`, taskId: id });
    expect((await svc.post(`community/users/user1/tasks/${id}/runs/nope`, {}, tokens.user1)).error.code).toBe(400);
  });
});

describe('limits', () => {
  it('active tasks per member and per organization; enabling counts too; the answer names the limit', async () => {
    const before = svc.config.tasks;
    svc.config.tasks = { ...TASK_DEFAULTS, activePerUser: 2, activePerOrg: 3 };
    try {
      const nb = { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 };
      const a = (await create('user1', nb)).taskId;
      await create('user1', nb);
      const third = await create('user1', nb);
      expect(third.error).toMatchObject({ code: 400, message: expect.stringMatching(/user1 already has 2 active tasks, the most allowed \(2\)/) });
      expect((await svc.post('community/users/user1/tasks', {}, tokens.user1)).activeTasksAvailable).toBe(0);
      await svc.post(`community/users/user1/tasks/${a}/disable`, {}, tokens.user1);
      // user1 has 1 active now; the organization reaches 3 with two more.
      expect((await create('admin', report)).success).toBe(true);
      expect((await create('admin', report)).success).toBe(true);
      expect((await create('user1', nb)).error.message).toMatch(/organization already has 3 active tasks, the most allowed \(3\)/);
      expect((await svc.post(`community/users/user1/tasks/${a}/enable`, {}, tokens.user1)).error.message).toMatch(/organization already has 3/);
    } finally {
      svc.config.tasks = before;
    }
  });
});

describe('the organization’s tasks', () => {
  it('administrators list every member’s tasks, filtered by user; others 403', async () => {
    await create('user1', { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 });
    await create('admin', report);
    const all = await svc.post(`portals/${svc.orgId}/allScheduledTasks`, {}, tokens.admin);
    expect(all.total).toBe(2);
    expect(all.tasks.map((t: any) => t.userId).sort()).toEqual(['admin', 'user1']);
    expect((await svc.post('portals/self/allScheduledTasks', { userFilter: 'user1' }, tokens.admin)).tasks.map((t: any) => t.userId)).toEqual(['user1']);
    expect((await svc.post(`portals/${svc.orgId}/allScheduledTasks`, {}, tokens.user1)).error.code).toBe(403);
    expect((await svc.post(`portals/${svc.orgId}/allScheduledTasks`, {}, tokens.partner_admin)).error.code).toBe(403);
    expect((await svc.post(`portals/${svc.partnerOrgId}/allScheduledTasks`, {}, tokens.partner_admin)).total).toBe(0);
  });
});

describe('deactivateItemTasks (item reassign)', () => {
  it('deactivates the item’s active tasks with the reason and answers how many', async () => {
    const nb = { type: 'ExecuteWorkflowManager', itemId: itemOfUser1, ...weekdays730 };
    const a = (await create('user1', nb)).taskId;
    const b = (await create('user1', nb)).taskId;
    await svc.post(`community/users/user1/tasks/${b}/disable`, {}, tokens.user1);
    const other = (await create('admin', report)).taskId;
    const n = await svc.db.tx((q) => deactivateItemTasks(q, svc.orgId, itemOfUser1));
    expect(n).toBe(1);
    expect(await get('user1', a)).toMatchObject({ active: false, taskState: 'paused', nextRun: null, stateReason: expect.stringMatching(/reassigned/) });
    expect((await get('admin', other)).active).toBe(true);
    expect(await svc.db.tx((q) => deactivateItemTasks(q, svc.partnerOrgId, itemOfUser1))).toBe(0);
  });
});

describe('deleting an item', () => {
  it('deactivates its tasks with the reason', async () => {
    const item = await addItem('user1', 'notebook to delete');
    const task = (await create('user1', { type: 'ExecuteWorkflowManager', itemId: item, ...weekdays730 })).taskId;
    expect((await svc.post(`content/users/user1/items/${item}/delete`, {}, tokens.user1)).success).toBe(true);
    expect(await get('user1', task)).toMatchObject({
      active: false,
      taskState: 'paused',
      nextRun: null,
      stateReason: 'The item was deleted; its tasks were deactivated.',
    });
  });
});
