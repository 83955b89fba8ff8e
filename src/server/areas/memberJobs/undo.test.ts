/**
 * Undo of a whole member job: the finished job is one history entry; undoing it starts a job of the
 * inverse action over the members it changed, each put back through the single-member operation,
 * and a member changed since the job is skipped with the reason. A job is undone once; a delete
 * cannot be; only its starter or a default administrator may — each in the error envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember, insertMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { runDueMemberJobs } from '../../jobs/memberJobs.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
const JOBS = () => `portals/${svc.orgId}/memberJobs`;
const post = (path: string, token: string, params: Record<string, string> = {}) => svc.post(path, params, token);

beforeAll(async () => {
  svc = await startService();
  tokens.admin = await svc.tokenFor('admin');
  const keeper = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:disableUsers']);
  tokens.keeper = await svc.tokenFor(keeper.username);
});
afterAll(() => svc.close());

async function members(prefix: string, n: number): Promise<string[]> {
  const names = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  for (const name of names) await insertMember(svc.db, name, svc.orgId);
  return names;
}

/** Starts the job, runs it to its end and answers its id. */
async function ranJob(path: string, params: Record<string, string>, token = tokens.admin): Promise<string> {
  const created = await post(`${JOBS()}/${path}`, token, params);
  expect(created.success).toBe(true);
  await runDueMemberJobs(svc.app.portal);
  return created.jobId;
}

const resultsOf = async (jobId: string) =>
  (await post(`${JOBS()}/${jobId}/results`, tokens.admin)).results as { username: string; state: string; reason: string | null }[];
const memberOf = async (username: string) => (await post(`community/users/${username}`, tokens.admin)) as { disabled: boolean; role: string; roleId?: string };

describe('undoing a whole member job', () => {
  it('enables again the members a disable job disabled, skipping one enabled since, and only once', async () => {
    const [a, b, c] = await members('undo.dis', 3);
    await post(`community/users/${c}/disable`, tokens.admin);
    const jobId = await ranJob('disableUsers', { usernames: [a, b, c].join(',') });
    // The job is one entry in the organization's history.
    const history = await post(`portals/${svc.orgId}/history`, tokens.admin, { actions: 'runMemberJob' });
    expect(history.items.find((e: { id: string }) => e.id === jobId)).toMatchObject({
      operation: 'runMemberJob',
      actor: 'admin',
      data: { memberJob: jobId, action: 'disable', total: 3, succeeded: 3 },
    });
    await post(`community/users/${b}/enable`, tokens.admin);

    const undo = await post(`${JOBS()}/${jobId}/undo`, tokens.admin);
    // c was disabled before the job: the job changed nothing for them, so the undo leaves them be.
    expect(undo).toMatchObject({ success: true, job: { action: 'enable', total: 2, undoes: jobId } });
    await runDueMemberJobs(svc.app.portal);
    expect(await resultsOf(undo.jobId)).toEqual([
      expect.objectContaining({ username: a, state: 'succeeded' }),
      expect.objectContaining({ username: b, state: 'failed', reason: 'Skipped: the member was enabled again since the job, so it is left as it is.' }),
    ]);
    expect((await memberOf(a)).disabled).toBe(false);
    expect((await memberOf(c)).disabled).toBe(true);
    expect((await post(`${JOBS()}/${jobId}`, tokens.admin)).undoneBy).toBe(undo.jobId);

    const again = await post(`${JOBS()}/${jobId}/undo`, tokens.admin);
    expect(again.error).toMatchObject({ code: 400, message: 'Unable to undo the job.', details: [`The job was already undone (job ${undo.jobId}).`] });
  });

  it('gives each member their previous role back, and takes members out of the groups a job added them to', async () => {
    const [a, b] = await members('undo.role', 2);
    const roleJob = await ranJob('updateUserRoles', { usernames: `${a},${b}`, newRole: 'org_publisher' });
    await post('portals/self/updateUserRole', tokens.admin, { user: b, role: 'org_user' });
    const undo = await post(`${JOBS()}/${roleJob}/undo`, tokens.admin);
    await runDueMemberJobs(svc.app.portal);
    expect(await resultsOf(undo.jobId)).toEqual([
      expect.objectContaining({ username: a, state: 'succeeded' }),
      expect.objectContaining({ username: b, state: 'failed', reason: expect.stringMatching(/^Skipped: the role was changed \(now org_user\) since the job/) }),
    ]);
    expect((await memberOf(a)).role).toBe('org_user');

    const group = (await post('community/createGroup', tokens.admin, { title: 'Undo crew', access: 'org' })).group.id;
    await post(`community/groups/${group}/addUsers`, tokens.admin, { users: b });
    const addJob = await ranJob('addUsersToGroups', { usernames: `${a},${b}`, groupIds: group });
    const undoAdd = await post(`${JOBS()}/${addJob}/undo`, tokens.admin);
    // b was in the group before the job: only a is taken out.
    expect(undoAdd.job).toMatchObject({ action: 'removeFromGroups', total: 1 });
    await runDueMemberJobs(svc.app.portal);
    expect((await post(`community/groups/${group}/users`, tokens.admin)).users).toEqual([b]);
  });

  it('refuses a delete, an unfinished job and a member who neither started it nor is a default administrator', async () => {
    const [a, b] = await members('undo.del', 2);
    const deleted = await ranJob('removeUsers', { usernames: a });
    expect((await post(`${JOBS()}/${deleted}/undo`, tokens.admin)).error).toMatchObject({
      code: 400,
      details: ['Deleted members cannot be brought back: their accounts are gone.'],
    });
    const running = await post(`${JOBS()}/disableUsers`, tokens.admin, { usernames: b });
    expect((await post(`${JOBS()}/${running.jobId}/undo`, tokens.admin)).error).toMatchObject({
      code: 400,
      details: ['The job is running; only a finished or cancelled job can be undone.'],
    });
    await runDueMemberJobs(svc.app.portal);
    const refused = await post(`${JOBS()}/${running.jobId}/undo`, tokens.keeper);
    expect(refused.error).toMatchObject({ code: 403 });
    expect((await memberOf(b)).disabled).toBe(true);
  });
});
