/**
 * Tasks run with their owner's authority (docs/security.md, "Authority"): a stored geoprocessing token
 * goes only to the URL it was given for, and a report lists only what its owner may view — checked
 * when it is scheduled and again when it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { BASE_ROLE_PRIVILEGES } from '../../../shared/privileges.ts';
import { executeReport } from './executors/report.ts';
import { findTask } from './repo.ts';

let svc: TestService;
let admin: string;
const schedule = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };
const TOOL = 'http://127.0.0.1:9/arcgis/rest/services/Tool/GPServer/Run';

beforeAll(async () => {
  svc = await startService();
  admin = await svc.tokenFor('admin');
});
afterAll(() => svc.close());

const storedToken = async (id: string) => (await svc.db.query<{ run_token: string | null }>('SELECT run_token FROM tasks WHERE id = $1', [id]))[0].run_token;

/** A member whose custom role holds a User's privileges and `extra`; answers their token and role id. */
async function memberWith(extra: string[]): Promise<{ token: string; roleId: string; username: string }> {
  const member = await insertCustomRoleMember(svc.db, svc.orgId, [...BASE_ROLE_PRIVILEGES.org_user, ...extra]);
  return { ...member, token: await svc.tokenFor(member.username) };
}

describe('a GPService task’s stored token', () => {
  it('is dropped when the task URL changes: the update is refused without a new token, and a new token replaces it', async () => {
    const created = await svc.post('community/users/admin/tasks/createTask', { type: 'GPService', taskURL: TOOL, parameters: '{"in":1}', ...schedule }, admin);
    expect(created.success).toBe(true);
    const id = created.taskId as string;
    const first = await storedToken(id);
    expect(first).toBe(admin);

    // Same destination: the stored token stays.
    const renamed = await svc.app.inject({
      method: 'POST',
      url: `/sharing/rest/community/users/admin/tasks/${id}/update`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { f: 'json', title: 'Renamed', ...schedule },
    });
    expect(renamed.json()).toEqual({ success: true });
    expect(await storedToken(id)).toBe(first);

    // Another destination without a token in the form: refused, nothing changed.
    const elsewhere = 'http://127.0.0.1:9/arcgis/rest/services/Other/GPServer/Run';
    const moved = await svc.app.inject({
      method: 'POST',
      url: `/sharing/rest/community/users/admin/tasks/${id}/update`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { f: 'json', taskURL: elsewhere, ...schedule },
    });
    expect(moved.json().error).toMatchObject({ code: 400, fieldErrors: { token: expect.stringMatching(/task URL changes/) } });
    const [row] = await svc.db.query<{ task_url: string; run_token: string }>('SELECT task_url, run_token FROM tasks WHERE id = $1', [id]);
    expect(row).toEqual({ task_url: TOOL, run_token: first });

    // With a token for the new destination: it replaces the stored one.
    const fresh = await svc.tokenFor('admin');
    expect(await svc.post(`community/users/admin/tasks/${id}/update`, { taskURL: elsewhere, ...schedule }, fresh)).toEqual({ success: true });
    expect(await storedToken(id)).toBe(fresh);
  });
});

describe('a report task', () => {
  const itemsReport = { type: 'ExecuteReport', parameters: JSON.stringify({ reportType: 'items' }), ...schedule };

  it('needs portal:admin:createReports and the view privilege of what it lists', async () => {
    const createOnly = await memberWith(['portal:admin:createReports']);
    const refused = await svc.post(`community/users/${createOnly.username}/tasks/createTask`, itemsReport, createOnly.token);
    expect(refused.error).toMatchObject({ code: 403, details: [expect.stringContaining('portal:admin:viewItems')] });

    const viewOnly = await memberWith(['portal:admin:viewItems']);
    expect((await svc.post(`community/users/${viewOnly.username}/tasks/createTask`, itemsReport, viewOnly.token)).error).toMatchObject({ code: 403 });

    const both = await memberWith(['portal:admin:createReports', 'portal:admin:viewItems']);
    expect((await svc.post(`community/users/${both.username}/tasks/createTask`, itemsReport, both.token)).success).toBe(true);
    // The same member may not list the organization's members: that report needs viewUsers.
    const members = { ...itemsReport, parameters: JSON.stringify({ reportType: 'members' }) };
    expect((await svc.post(`community/users/${both.username}/tasks/createTask`, members, both.token)).error).toMatchObject({ code: 403 });
  });

  it('runs with its owner’s privileges as they are when it runs: none once the view privilege is gone', async () => {
    const owner = await memberWith(['portal:admin:createReports', 'portal:admin:viewItems']);
    const created = await svc.post(`community/users/${owner.username}/tasks/createTask`, itemsReport, owner.token);
    expect(created.success).toBe(true);
    const task = (await findTask(svc.db, svc.orgId, created.taskId))!;
    const ran = await executeReport({ ctx: svc.app.portal, task, scheduledAt: Date.now() } as Parameters<typeof executeReport>[0]);
    expect(ran).toMatch(/^Created CSV item/);

    await svc.db.query('UPDATE roles SET privileges = $3 WHERE org_id = $1 AND id = $2', [
      svc.orgId,
      owner.roleId,
      [...BASE_ROLE_PRIVILEGES.org_user, 'portal:admin:createReports'],
    ]);
    const before = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE type = 'CSV'`);
    await expect(executeReport({ ctx: svc.app.portal, task, scheduledAt: Date.now() } as Parameters<typeof executeReport>[0])).rejects.toThrow(
      /lacks portal:admin:viewItems/,
    );
    expect(await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM items WHERE type = 'CSV'`)).toEqual(before);
  });
});
