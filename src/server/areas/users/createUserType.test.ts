/**
 * createUser holds the role/user-type rule (shared/userTypes.ts) as updateUserRole and
 * updateUserLicenseType do: no Viewer-type administrator, whether the user type was sent or came
 * from the new-member defaults; nothing is created when the pair is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
let admin: string;

beforeAll(async () => {
  svc = await startService();
  admin = await svc.tokenFor('admin');
});
afterAll(() => svc.close());

async function create(username: string, extra: Record<string, string>) {
  const payload = { f: 'json', token: admin, username, password: 'Tiger.Lily.4821', email: `${username}@example.com`, ...extra };
  const res = await svc.app.inject({ method: 'POST', url: '/portaladmin/security/users/createUser', payload });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const exists = async (username: string) => (await svc.db.query('SELECT 1 FROM users WHERE username = $1', [username])).length === 1;

describe('createUser and the user type', () => {
  it('refuses an administrator of the Viewer user type, naming userLicenseTypeId, and creates nothing', async () => {
    const body = await create('viewer.admin', { role: 'org_admin', userLicenseTypeId: 'viewerUT' });
    expect(body.error).toMatchObject({ code: 400, message: 'Unable to create user.' });
    expect(body.error.fieldErrors.userLicenseTypeId).toMatch(/^is not compatible: The Viewer user type allows/);
    expect(await exists('viewer.admin')).toBe(false);
  });

  it('refuses a role the new-member default user type does not allow, naming role', async () => {
    expect(await svc.post(`portals/${svc.orgId}/setUserDefaultSettings`, { role: 'org_user', userLicenseType: 'contributorUT' }, admin)).toEqual({
      success: true,
    });
    try {
      const body = await create('contrib.publisher', { role: 'org_publisher' });
      expect(body.error.code).toBe(400);
      expect(body.error.fieldErrors.role).toMatch(/^is not compatible \(the new-member default user type\): The Contributor user type/);
      expect(await exists('contrib.publisher')).toBe(false);
      // A compatible pair is created with the default user type.
      expect(await create('contrib.user', { role: 'org_user' })).toEqual({ status: 'success', username: 'contrib.user' });
      expect((await svc.post('community/users/contrib.user', {}, admin)).userLicenseTypeId).toBe('contributorUT');
    } finally {
      await svc.post(`portals/${svc.orgId}/userDefaultSettings/delete`, {}, admin);
    }
  });

  it('creates an administrator of a type that allows the role', async () => {
    expect(await create('creator.admin', { role: 'org_admin', userLicenseTypeId: 'creatorUT' })).toEqual({ status: 'success', username: 'creator.admin' });
  });
});
