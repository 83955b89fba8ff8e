/**
 * `portals/<orgId>/updateUserLicenseType`: who may, the per-member answer, the user-type rule
 * (a type that does not allow the member's role is refused for that member and changes nothing
 * of theirs), what is recorded; and `updateUserRole` refusing a role the member's type does not allow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  // A member whose custom administrative role holds portal:admin:manageLicenses (and what it requires): not a default administrator.
  const keeper = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:manageLicenses']);
  tokens.keeper = await svc.tokenFor(keeper.username);
});
afterAll(() => svc.close());

async function post(path: string, token?: string, params: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload: { f: 'json', ...params, ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const licenseTypeOf = async (username: string) =>
  (await svc.db.query<{ t: string }>('SELECT user_license_type_id AS t FROM users WHERE username = $1', [username]))[0].t;
const setType = (username: string, type: string) => svc.db.query('UPDATE users SET user_license_type_id = $2 WHERE username = $1', [username, type]);
const update = (users: string, userLicenseType: string, token = tokens.admin, org = 'self') =>
  post(`portals/${org}/updateUserLicenseType`, token, { users, userLicenseType });

describe('updateUserLicenseType', () => {
  it('changes a member’s user type, records the event and the history', async () => {
    await setType('user1', 'creatorUT');
    expect(await update('user1', 'contributorUT')).toEqual({ results: [{ username: 'user1', status: true }] });
    expect(await licenseTypeOf('user1')).toBe('contributorUT');
    expect((await post('community/users/user1', tokens.admin)).userLicenseTypeId).toBe('contributorUT');

    // The same type again succeeds and records nothing more.
    expect(await update('user1', 'contributorUT', tokens.admin, svc.orgId)).toEqual({ results: [{ username: 'user1', status: true }] });

    const events = await svc.db.query<{ username: string; properties: unknown }>(
      `SELECT username, properties FROM events WHERE source = 'user' AND subject_id = 'user1' AND operation = 'updateUserLicenseType' ORDER BY seq`,
    );
    expect(events).toEqual([{ username: 'admin', properties: { userLicenseTypeUpdatedTo: ['contributorUT'] } }]);
    const history = await post(`portals/${svc.orgId}/history`, tokens.admin, { id: 'user1', num: '100' });
    const changes = (history.items as { operation: string }[]).filter((e) => e.operation === 'updateUserLicenseType');
    expect(changes).toEqual([
      expect.objectContaining({
        action: 'update',
        actor: 'admin',
        data: { before: { userLicenseTypeId: 'creatorUT' }, after: { userLicenseTypeId: 'contributorUT' } },
      }),
    ]);
  });

  it('answers per member: a type the role does not allow, another organization’s member and a made-up name are refused with the reason; the others change', async () => {
    await setType('user1', 'creatorUT');
    await setType('viewer1', 'creatorUT');
    const answer = await update('viewer1,user1,partner_admin,nobody_here_at_all', 'viewerUT');
    expect(answer.results.map((r: { username: string; status: boolean }) => [r.username, r.status])).toEqual([
      ['viewer1', true],
      ['user1', false],
      ['partner_admin', false],
      ['nobody_here_at_all', false],
    ]);
    expect(answer.results[1].error.message).toMatch(/^The Viewer user type allows only viewing .*the role 'User' holds privileges it does not allow/);
    // Another organization's member answers exactly as a name that does not exist.
    expect(answer.results[2].error.message.replace('partner_admin', 'X')).toBe(answer.results[3].error.message.replace('nobody_here_at_all', 'X'));
    expect(await licenseTypeOf('viewer1')).toBe('viewerUT');
    expect(await licenseTypeOf('user1')).toBe('creatorUT');
    expect(await licenseTypeOf('partner_admin')).not.toBe('viewerUT');
    const refusedEvents = await svc.db.query(
      `SELECT 1 FROM events WHERE operation = 'updateUserLicenseType' AND subject_id IN ('user1', 'partner_admin') AND properties::text LIKE '%viewerUT%'`,
    );
    expect(refusedEvents).toEqual([]);
    // An administrator cannot be given a type that does not allow administering.
    const admin = await update('admin', 'mobileWorkerUT');
    expect(admin.results[0]).toMatchObject({ username: 'admin', status: false, error: { message: expect.stringContaining('Mobile Worker') } });
  });

  it('needs portal:admin:manageLicenses, in the caller’s own organization', async () => {
    const denied = await update('viewer1', 'creatorUT', tokens.user1);
    expect(denied.error.code).toBe(403);
    expect(JSON.stringify(denied.error)).toContain('portal:admin:manageLicenses');
    expect(await update('viewer1', 'creatorUT', tokens.keeper)).toEqual({ results: [{ username: 'viewer1', status: true }] });
    const elsewhere = await update('partner_admin', 'creatorUT', tokens.admin, svc.partnerOrgId);
    expect(elsewhere.error.code).toBe(403);
    const fromPartner = await update('viewer1', 'viewerUT', tokens.partner_admin, svc.orgId);
    expect(fromPartner.error.code).toBe(403);
    expect(await licenseTypeOf('viewer1')).toBe('creatorUT');
  });

  it('refuses an unknown type or no names, answers GET with 405 and an anonymous caller with the token error', async () => {
    expect((await update('viewer1', 'platinumUT')).error.code).toBe(400);
    expect((await update('', 'viewerUT')).error.code).toBe(400);
    const get = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/portals/self/updateUserLicenseType?f=json&users=viewer1&userLicenseType=viewerUT&token=${tokens.admin}`,
    });
    expect(get.json().error.code).toBe(405);
    expect((await post('portals/self/updateUserLicenseType', undefined, { users: 'viewer1', userLicenseType: 'viewerUT' })).error.code).toBe(499);
  });
});

describe('updateUserRole and the user type', () => {
  it('refuses a role the member’s user type does not allow, and changes nothing', async () => {
    await setType('viewer1', 'viewerUT');
    const refused = await post(`portals/${svc.orgId}/updateUserRole`, tokens.admin, { user: 'viewer1', role: 'org_user' });
    expect(refused.error.code).toBe(400);
    expect(JSON.stringify(refused.error)).toContain("The Viewer user type allows only viewing (roles like Viewer): the role 'User'");
    expect((await post('community/users/viewer1', tokens.admin)).roleId).toBe('iAAAAAAAAAAAAAAA');
    // With a type that allows it, the same change succeeds.
    await setType('viewer1', 'contributorUT');
    expect(await post(`portals/${svc.orgId}/updateUserRole`, tokens.admin, { user: 'viewer1', role: 'org_user' })).toEqual({
      success: true,
      username: 'viewer1',
    });
    const publisher = await post(`portals/${svc.orgId}/updateUserRole`, tokens.admin, { user: 'viewer1', role: 'org_publisher' });
    expect(publisher.error.code).toBe(400);
    expect(JSON.stringify(publisher.error)).toContain('Contributor user type');
  });
});
