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
  // viewer1 is seeded with the Viewer user type, which allows only viewing roles.
  await svc.db.query(`UPDATE users SET user_license_type_id = 'creatorUT' WHERE username = 'viewer1'`);
  expect(await svc.post('portals/self/updateUserRole', { username: 'viewer1', role: 'org_publisher' }, admin)).toMatchObject({ success: true });
  const after = await self(token);
  expect(after.role).toBe('org_publisher');
  expect(after.privileges).toContain('portal:publisher:publishFeatures');
  // An administrator's own reads are unaffected by someone else's list.
  expect((await self(admin)).privileges).toContain('portal:admin:viewUsers');
  await svc.db.query(`UPDATE users SET disabled = true WHERE username = 'viewer1'`);
  expect((await self(token)).error).toMatchObject({ code: 498 });
});

it("community/self's answer, kept between calls, follows a new group, a new role and the pjson format", async () => {
  const admin = await svc.tokenFor('admin');
  const token = await svc.tokenFor('publisher1');
  const first = await self(token);
  expect(await self(token)).toEqual(first);
  // A group the member joins (someone else's write) is in the next answer.
  const made = await svc.post('community/createGroup', { title: `Reuse ${Date.now()}`, access: 'org', isInvitationOnly: 'false' }, admin);
  expect(await svc.post(`community/groups/${made.group.id}/join`, {}, token)).toMatchObject({ success: true });
  const joined = await self(token);
  expect((joined.groups as { id: string }[]).map((g) => g.id)).toContain(made.group.id);
  expect(joined.groups).toHaveLength((first.groups as unknown[]).length + 1);
  // A changed role: the privileges and the role in the next answer.
  expect(await svc.post('portals/self/updateUserRole', { username: 'publisher1', role: 'org_user' }, admin)).toMatchObject({ success: true });
  const demoted = await self(token);
  expect(demoted.role).toBe('org_user');
  expect(demoted.privileges).not.toContain('portal:publisher:publishFeatures');
  // f=pjson: the same answer, indented.
  const pretty = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=pjson&token=${token}` });
  expect(pretty.body).toContain('\n  "username": "publisher1"');
  expect(JSON.parse(pretty.body)).toEqual(demoted);
});

it('a kept token stops working once revoked, and once it expires, on the very next request', async () => {
  const token = await svc.tokenFor('user1');
  for (let i = 0; i < 3; i++) expect(await self(token)).toMatchObject({ username: 'user1' });
  const revoked = await svc.app.inject({ method: 'POST', url: '/sharing/rest/oauth2/revokeToken/', payload: { auth_token: token, f: 'json' } });
  expect(revoked.statusCode).toBe(200);
  expect(await self(token)).toMatchObject({ error: { code: 498 } });
  // Expiry is checked on each request against the clock: no write happens in between here.
  const second = await svc.tokenFor('user1');
  expect(await self(second)).toMatchObject({ username: 'user1' });
  const [{ expires }] = await svc.db.query<{ expires: number }>('SELECT expires FROM tokens ORDER BY expires DESC LIMIT 1');
  const realNow = Date.now;
  Date.now = () => Number(expires) + 1;
  try {
    expect(await self(second)).toMatchObject({ error: { code: 498 } });
  } finally {
    Date.now = realNow;
  }
  expect(await self(second)).toMatchObject({ username: 'user1' });
});
