/**
 * Bulk member jobs: every member acted on exactly once through the single-member operation (after
 * a crash mid-batch too), pause, resume and cancel, per-member reasons, and who may start and see a
 * job — in the error envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember, insertMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { MEMBER_JOB_DEFAULTS } from '../../config.ts';
import type { PortalContext } from '../../context.ts';
import { DatabaseUnavailableError, type Queryable } from '../../store/dbInterface.ts';
import { runDueMemberJobs, runOneMemberJob } from '../../jobs/memberJobs.ts';
import { runJobBatch } from './service.ts';

let svc: TestService;
let now = Date.now();
const tokens: Record<string, string> = {};
const JOBS = () => `portals/${svc.orgId}/memberJobs`;

beforeAll(async () => {
  svc = await startService({ clock: { now: () => now } });
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  const keeper = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:disableUsers']);
  tokens.keeper = await svc.tokenFor(keeper.username);
});
afterAll(() => svc.close());

const post = (path: string, token: string, params: Record<string, string> = {}) => svc.post(path, params, token);
const portal = () => svc.app.portal;

async function members(prefix: string, n: number): Promise<string[]> {
  const names = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
  for (const name of names) await insertMember(svc.db, name, svc.orgId);
  return names;
}

async function disableEvents(names: readonly string[]) {
  return svc.db.query<{ subject_id: string; n: number }>(
    `SELECT subject_id, count(*)::int AS n FROM events WHERE source = 'user' AND operation = 'disable' AND subject_id = ANY($1::text[]) GROUP BY subject_id`,
    [names],
  );
}

describe('a bulk disable job', () => {
  it('acts on each member through disableUser, with the reason for each one it refuses', async () => {
    const [alpha, beta] = await members('mj.reasons.', 2);
    const created = await post(`${JOBS()}/disableUsers`, tokens.keeper, { usernames: [alpha, 'admin', 'partner_admin', 'nobody.here', beta].join(',') });
    expect(created).toMatchObject({ success: true, jobId: expect.any(String), job: { action: 'disable', state: 'running', total: 5, done: 0 } });

    await runDueMemberJobs(portal());
    const status = await post(`${JOBS()}/${created.jobId}`, tokens.keeper);
    expect(status).toMatchObject({ state: 'done', total: 5, done: 5, succeeded: 2, failed: 3 });
    const results = await post(`${JOBS()}/${created.jobId}/results`, tokens.keeper, { num: '10' });
    expect(results).toMatchObject({ total: 5, start: 1, num: 5, nextStart: -1 });
    const byName = Object.fromEntries((results.results as { username: string; state: string; reason: string | null }[]).map((r) => [r.username, r]));
    expect(byName[alpha]).toMatchObject({ state: 'succeeded', reason: null });
    // The single operation's own refusals: an administrator only by a default administrator; another organization's member does not exist here.
    expect(byName.admin).toMatchObject({ state: 'failed', reason: 'Only default administrators can disable an administrator.' });
    expect(byName.partner_admin).toMatchObject({ state: 'failed', reason: "User 'partner_admin' does not exist or is inaccessible." });
    expect(byName['nobody.here'].state).toBe('failed');
    expect((await svc.db.query(`SELECT disabled FROM users WHERE username = 'partner_admin'`))[0]).toEqual({ disabled: false });

    // Failed ones only, for a retry.
    const failed = await post(`${JOBS()}/${created.jobId}/results`, tokens.keeper, { state: 'failed' });
    expect(failed.results.map((r: { username: string }) => r.username)).toEqual(['admin', 'partner_admin', 'nobody.here']);

    // History and events as disableUser writes them, by the member who started the job.
    const events = await svc.db.query<{ username: string }>(`SELECT username FROM events WHERE source = 'user' AND operation = 'disable' AND subject_id = $1`, [
      alpha,
    ]);
    expect(events).toHaveLength(1);
    const history = await post(`portals/${svc.orgId}/history`, tokens.admin, { id: alpha });
    expect(history.items.map((e: { operation: string }) => e.operation)).toContain('disableUser');
  });

  it('does every member exactly once when a batch dies midway and another runner takes the job over', async () => {
    const names = await members('mj.crash.', 130);
    const { jobId } = await post(`${JOBS()}/disableUsers`, tokens.admin, { usernames: names.join(',') });
    // The first batch commits; the second dies after some members' changes were written (a crash
    // of the process: its transaction never commits).
    expect(await runJobBatch(portal(), jobId, 50)).toBe('more');
    let statements = 0;
    const dying: PortalContext = {
      ...portal(),
      config: { ...portal().config, memberJobs: { ...MEMBER_JOB_DEFAULTS, sliceMs: Number.POSITIVE_INFINITY } },
      db: {
        ...portal().db,
        tx: (fn) =>
          portal().db.tx((q) =>
            fn({
              query: (sql, params) => {
                if (++statements > 200) throw new DatabaseUnavailableError('the process died');
                return q.query(sql, params);
              },
            } satisfies Queryable),
          ),
      },
    };
    await expect(runOneMemberJob(dying)).rejects.toThrow('the process died');
    const mid = await post(`${JOBS()}/${jobId}`, tokens.admin);
    expect(mid).toMatchObject({ state: 'running', done: 50 });
    // The dead runner's lease holds the job until it runs out.
    expect(await runOneMemberJob(portal())).toBe(false);
    now += MEMBER_JOB_DEFAULTS.leaseMs + 1;
    await runDueMemberJobs(portal());

    expect(await post(`${JOBS()}/${jobId}`, tokens.admin)).toMatchObject({ state: 'done', total: 130, done: 130, succeeded: 130, failed: 0 });
    const events = await disableEvents(names);
    expect(events).toHaveLength(130);
    expect(events.every((e) => e.n === 1)).toBe(true);
    const [{ n }] = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE username = ANY($1::text[]) AND disabled`, [names]);
    expect(n).toBe(130);
  });

  it('pauses, resumes and cancels, each only from the states it makes sense in', async () => {
    const names = await members('mj.pause.', 120);
    const { jobId } = await post(`${JOBS()}/disableUsers`, tokens.admin, { usernames: names.join(',') });
    await runJobBatch(portal(), jobId, 50);
    expect(await post(`${JOBS()}/${jobId}/pause`, tokens.admin)).toMatchObject({ success: true, job: { state: 'paused', done: 50 } });
    expect(await runJobBatch(portal(), jobId, 50)).toBe('stopped');
    await runDueMemberJobs(portal());
    expect(await post(`${JOBS()}/${jobId}`, tokens.admin)).toMatchObject({ state: 'paused', done: 50 });
    const again = await post(`${JOBS()}/${jobId}/pause`, tokens.admin);
    expect(again.error).toMatchObject({ code: 400, message: 'Unable to pause the job.' });

    expect((await post(`${JOBS()}/${jobId}/resume`, tokens.admin)).job.state).toBe('running');
    await runDueMemberJobs(portal());
    expect(await post(`${JOBS()}/${jobId}`, tokens.admin)).toMatchObject({ state: 'done', done: 120, succeeded: 120 });
    expect((await post(`${JOBS()}/${jobId}/resume`, tokens.admin)).error.code).toBe(400);

    // Cancelled: the members not reached stay as they were, each listed as cancelled.
    const more = await members('mj.cancel.', 80);
    const second = await post(`${JOBS()}/enableUsers`, tokens.admin, { usernames: [...names.slice(0, 60), ...more].join(',') });
    await runJobBatch(portal(), second.jobId, 50);
    expect(await post(`${JOBS()}/${second.jobId}/cancel`, tokens.admin)).toMatchObject({ job: { state: 'cancelled', done: 140, succeeded: 50 } });
    await runDueMemberJobs(portal());
    const cancelled = await post(`${JOBS()}/${second.jobId}/results`, tokens.admin, { state: 'cancelled', num: '100' });
    expect(cancelled.total).toBe(90);
    const [{ n }] = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE username = ANY($1::text[]) AND disabled`, [
      names.slice(50, 60),
    ]);
    expect(n).toBe(10);
  });

  it('starts a job for every member matching a filter', async () => {
    await svc.db.query(`UPDATE users SET user_license_type_id = 'mobileWorkerUT' WHERE username LIKE 'mj.filter.%'`);
    const names = await members('mj.filter.', 3);
    await svc.db.query(`UPDATE users SET user_license_type_id = 'mobileWorkerUT' WHERE username = ANY($1::text[])`, [names]);
    const created = await post(`${JOBS()}/disableUsers`, tokens.admin, { userLicenseType: 'mobileWorkerUT', disabled: 'false' });
    expect(created.job.total).toBe(3);
    const none = await post(`${JOBS()}/disableUsers`, tokens.admin, {});
    expect(none.error).toMatchObject({ code: 400, details: [expect.stringContaining("'usernames' is required")] });
  });
});

describe('who may start and see a job', () => {
  it('refuses a member without the privilege, in the error envelope, and changes nothing', async () => {
    const refused = await post(`${JOBS()}/disableUsers`, tokens.user1, { usernames: 'viewer1' });
    expect(refused.error).toMatchObject({ code: 403, messageCode: expect.any(String), details: ['Requires the privilege portal:admin:disableUsers.'] });
    // disableUsers does not give deleteUsers or changeUserRoles.
    expect((await post(`${JOBS()}/removeUsers`, tokens.keeper, { usernames: 'viewer1' })).error.code).toBe(403);
    expect((await post(`${JOBS()}/updateUserRoles`, tokens.keeper, { usernames: 'viewer1', newRole: 'org_publisher' })).error.code).toBe(403);
    const [{ n }] = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM member_jobs WHERE created_by_username = $1', ['user1']);
    expect(n).toBe(0);
  });

  it("keeps each organization's jobs to itself", async () => {
    const { jobId } = await post(`${JOBS()}/disableUsers`, tokens.admin, { usernames: 'viewer1' });
    expect((await post(`${JOBS()}/disableUsers`, tokens.partner_admin, { usernames: 'viewer1' })).error.code).toBe(403);
    expect((await post(`${JOBS()}/${jobId}`, tokens.partner_admin)).error.code).toBe(403);
    expect((await post(`${JOBS()}/${jobId}/cancel`, tokens.partner_admin)).error.code).toBe(403);
    // A member who did not start it and is not a default administrator cannot stop it.
    expect((await post(`${JOBS()}/${jobId}/pause`, tokens.keeper)).error.code).toBe(403);
    const partnerJobs = await post(`portals/${svc.partnerOrgId}/memberJobs`, tokens.partner_admin);
    expect(partnerJobs.jobs.map((j: { id: string }) => j.id)).not.toContain(jobId);
    // The partner's administrator naming this organization's member: refused for that member.
    const theirs = await post(`portals/${svc.partnerOrgId}/memberJobs/disableUsers`, tokens.partner_admin, { usernames: 'viewer1' });
    await runDueMemberJobs(portal());
    const results = await post(`portals/${svc.partnerOrgId}/memberJobs/${theirs.jobId}/results`, tokens.partner_admin);
    expect(results.results[0]).toMatchObject({ username: 'viewer1', state: 'failed', reason: "User 'viewer1' does not exist or is inaccessible." });
    await runDueMemberJobs(portal());
  });

  it('applies the role and user type rule per member, in the words updateUserRole uses', async () => {
    const { jobId } = await post(`${JOBS()}/updateUserRoles`, tokens.admin, { usernames: 'viewer1', newRole: 'org_publisher' });
    await runDueMemberJobs(portal());
    const { results } = await post(`${JOBS()}/${jobId}/results`, tokens.admin);
    expect(results[0]).toMatchObject({ username: 'viewer1', state: 'failed', reason: expect.stringContaining("'role' is not compatible") });
  });
});
