/**
 * Scheduled tasks are not wrapped by @esri/arcgis-rest-portal: a console (or script) calls them
 * with rest-js `request()` (POST, urlencoded, f=json, token in the form). These run over real HTTP
 * and check rest-js's flattening — `parameters` object → JSON text, a Date → epoch ms, a boolean →
 * "true" — reaches the service as meant, the paging envelope the Python client loops on, and that
 * refusals surface as rest-js errors naming the field.
 */
import { ArcGISIdentityManager, ArcGISRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service.ts';
import { signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, user1] = await signInDemo(portal, 'admin', 'user1');
});
afterAll(() => svc.close());

const schedule = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };

describe('scheduled tasks through request()', () => {
  let taskId: string;

  it('createTask with a parameters object and Date start/end answers {success, taskId}', async () => {
    const startDate = new Date(Date.now() + 86_400_000);
    const endDate = new Date(Date.now() + 30 * 86_400_000);
    const res = await request(`${portal}/community/users/admin/tasks/createTask`, {
      authentication: admin,
      params: { type: 'ExecuteReport', title: 'Weekday members', parameters: { reportType: 'members' }, startDate, endDate, maxOccurrences: 10, ...schedule },
    });
    expect(res).toEqual({ success: true, taskId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    taskId = res.taskId;
    const task = await request(`${portal}/community/users/admin/tasks/${taskId}`, { authentication: admin, httpMethod: 'GET' });
    expect(task).toMatchObject({
      id: taskId,
      type: 'ExecuteReport',
      parameters: { reportType: 'members' },
      startDate: startDate.getTime(),
      endDate: endDate.getTime(),
      maxOccurrences: 10,
      cronSchedule: schedule,
      active: true,
    });
  });

  it('a geoprocessing task takes the token from the form rest-js sends', async () => {
    const res = await request(`${portal}/community/users/admin/createTask`, {
      authentication: admin,
      params: {
        type: 'GPService',
        taskURL: 'http://127.0.0.1:9/server/rest/services/Buffer/GPServer/Buffer',
        parameters: { Input: { url: 'https://x/FeatureServer/0' } },
        ...schedule,
      },
    });
    expect(res.success).toBe(true);
  });

  it('the list carries the paging envelope and activeTasksAvailable; filters are read from flattened values', async () => {
    const list = await request(`${portal}/community/users/admin/tasks`, {
      authentication: admin,
      params: { num: 1, active: true, types: ['ExecuteReport', 'GPService'] },
    });
    expect(list).toMatchObject({ total: 2, start: 1, num: 1, nextStart: 2, activeTasksAvailable: 18 });
    const page2 = await request(`${portal}/community/users/admin/tasks`, { authentication: admin, params: { start: list.nextStart, num: 1 } });
    expect(page2.nextStart).toBe(-1);
    const all = await request(`${portal}/portals/${svc.orgId}/allScheduledTasks`, { authentication: admin, params: { userFilter: 'admin' } });
    expect(all.total).toBe(2);
  });

  it('update with isActive=false, enable, runs, delete', async () => {
    expect(
      await request(`${portal}/community/users/admin/tasks/${taskId}/update`, { authentication: admin, params: { isActive: false, ...schedule, hour: '8' } }),
    ).toEqual({ success: true });
    expect(await request(`${portal}/community/users/admin/tasks/${taskId}`, { authentication: admin, httpMethod: 'GET' })).toMatchObject({
      active: false,
      cronSchedule: { hour: '8' },
    });
    expect(await request(`${portal}/community/users/admin/tasks/${taskId}/enable`, { authentication: admin })).toEqual({ success: true });
    expect(await request(`${portal}/community/users/admin/tasks/${taskId}/runs`, { authentication: admin, httpMethod: 'GET' })).toEqual({ runs: [] });
    expect(await request(`${portal}/community/users/admin/tasks/${taskId}/delete`, { authentication: admin })).toEqual({ success: true });
  });

  it('errors surface as ArcGISRequestError with the field named', async () => {
    const err = await request(`${portal}/community/users/admin/tasks/createTask`, {
      authentication: admin,
      params: { type: 'ExecuteReport', parameters: { reportType: 'members' }, ...schedule, minute: '75' },
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.code).toBe(400);
    expect(err.response.error.fieldErrors.minute).toMatch(/75 is outside 0–59/);
    const denied = await request(`${portal}/community/users/admin/tasks`, { authentication: user1 }).catch((e) => e);
    expect(denied).toBeInstanceOf(ArcGISRequestError);
    expect(denied.response.error.code).toBe(403);
  });
});
