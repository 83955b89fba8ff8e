/**
 * Add-to-groups jobs follow addUsers' documented rule (community/groups/<id>/addUsers): a group's
 * owner and managers add members of their organization to it with no administrative privilege; an
 * administrator needs portal:admin:assignToGroups for groups they neither own nor manage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember, insertMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { runDueMemberJobs } from '../../jobs/memberJobs.ts';

let svc: TestService;
const REFUSAL = "Only the group's owner, its managers or an administrator (portal:admin:assignToGroups) can do this.";
const tokens: Record<string, string> = {};
const JOBS = () => `portals/${svc.orgId}/memberJobs`;
const post = (path: string, token: string, params: Record<string, string> = {}) => svc.post(path, params, token);
let ownGroup: string;
let managedGroup: string;
let adminsGroup: string;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'publisher1']) tokens[u] = await svc.tokenFor(u);
  const assigner = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:viewGroups', 'portal:admin:assignToGroups']);
  tokens.assigner = await svc.tokenFor(assigner.username);
  for (const name of ['joiner1', 'joiner2']) await insertMember(svc.db, name, svc.orgId);
  ownGroup = (await post('community/createGroup', tokens.publisher1, { title: 'Publisher owns', access: 'org' })).group.id;
  adminsGroup = (await post('community/createGroup', tokens.admin, { title: 'Admin owns', access: 'org' })).group.id;
  managedGroup = (await post('community/createGroup', tokens.admin, { title: 'Publisher manages', access: 'org' })).group.id;
  expect((await post(`community/groups/${managedGroup}/addUsers`, tokens.admin, { admins: 'publisher1' })).notAdded).toEqual([]);
});
afterAll(() => svc.close());

async function groupMembers(groupId: string): Promise<string[]> {
  const { users } = await post(`community/groups/${groupId}/users`, tokens.admin);
  return [...users].sort();
}

describe('an add-to-groups job', () => {
  it("lets a group's owner and manager add members to their groups without portal:admin:assignToGroups", async () => {
    const created = await post(`${JOBS()}/addUsersToGroups`, tokens.publisher1, { usernames: 'joiner1,joiner2', groupIds: `${ownGroup},${managedGroup}` });
    expect(created).toMatchObject({ success: true, job: { action: 'addToGroups', total: 2 } });
    await runDueMemberJobs(svc.app.portal);
    const status = await post(`${JOBS()}/${created.jobId}`, tokens.publisher1);
    expect(status).toMatchObject({ state: 'done', succeeded: 2, failed: 0 });
    expect(await groupMembers(ownGroup)).toEqual(['joiner1', 'joiner2']);
    expect(await groupMembers(managedGroup)).toEqual(['joiner1', 'joiner2']);
  });

  it('refuses a member for a group they neither own nor manage, in the error envelope, and starts nothing', async () => {
    const mixed = await post(`${JOBS()}/addUsersToGroups`, tokens.publisher1, { usernames: 'joiner1', groupIds: `${ownGroup},${adminsGroup}` });
    expect(mixed.error).toMatchObject({ code: 403, details: [REFUSAL] });
    const outsider = await post(`${JOBS()}/addUsersToGroups`, tokens.user1, { usernames: 'joiner1', groupIds: ownGroup });
    expect(outsider.error).toMatchObject({ code: 403, details: [REFUSAL] });
    const [{ n }] = await svc.db.query<{ n: number }>("SELECT count(*)::int AS n FROM member_jobs WHERE created_by_username = 'user1'");
    expect(n).toBe(0);
    expect(await groupMembers(adminsGroup)).toEqual([]);
  });

  it("lets an administrator with portal:admin:assignToGroups add members to others' groups", async () => {
    const created = await post(`${JOBS()}/addUsersToGroups`, tokens.assigner, { usernames: 'joiner1', groupIds: adminsGroup });
    expect(created.success).toBe(true);
    await runDueMemberJobs(svc.app.portal);
    expect(await groupMembers(adminsGroup)).toEqual(['joiner1']);
  });

  it('answers a group that does not exist as addUsers does', async () => {
    const missing = await post(`${JOBS()}/addUsersToGroups`, tokens.publisher1, { usernames: 'joiner1', groupIds: 'f'.repeat(32) });
    expect(missing.error).toMatchObject({ code: 400, message: expect.stringMatching(/does not exist or is inaccessible/) });
  });
});
