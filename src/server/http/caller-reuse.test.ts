/**
 * The caller (token, member, role, privileges) is rebuilt after any write: reused callers and
 * privilege lists never outlive a change of role, a disabled member or a revoked token.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

const self = async (token: string) => (await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();

it('a changed role, then a disabled member, take effect on the next request', async () => {
  const admin = await svc.tokenFor('admin');
  const token = await svc.tokenFor('viewer1');
  for (let i = 0; i < 3; i++) expect(await self(token)).toMatchObject({ username: 'viewer1', role: 'org_user' });
  const before = (await self(token)).privileges as string[];
  expect(before).not.toContain('portal:publisher:publishFeatures');
  expect(await svc.post('portals/self/updateUserRole', { username: 'viewer1', role: 'org_publisher' }, admin)).toMatchObject({ success: true });
  const after = await self(token);
  expect(after.role).toBe('org_publisher');
  expect(after.privileges).toContain('portal:publisher:publishFeatures');
  // An administrator's own reads are unaffected by someone else's list.
  expect((await self(admin)).privileges).toContain('portal:admin:viewUsers');
  await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'viewer1'`);
  expect((await self(token)).error).toMatchObject({ code: 498 });
});
