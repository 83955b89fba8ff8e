/** `POST /portaladmin/security/users/createUser`: new accounts, the password policy, who may create whom. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';

const INVITER = 'rINVITERAAAAAAAA';
const VIEWER = 'iAAAAAAAAAAAAAAA';
const GOOD_PASSWORD = 'Tiger.Lily.4821';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  await svc.db.query(
    'INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)',
    [svc.orgId, INVITER, 'Inviter', 'Adds members', ['portal:admin:inviteUsers', 'portal:admin:viewUsers', 'portal:user:viewOrgUsers']],
  );
  // user1 is a non-default administrator: a custom role that may add members.
  await svc.db.query(`UPDATE users SET role = 'org_admin', role_id = $1 WHERE username = 'user1'`, [INVITER]);
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function createUser(token: string | undefined, params: Record<string, string>) {
  const payload: Record<string, string> = { f: 'json', ...params };
  if (token) payload.token = token;
  const res = await svc.app.inject({ method: 'POST', url: '/portaladmin/security/users/createUser', payload });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const member = (username: string, extra: Record<string, string> = {}) => ({ username, password: GOOD_PASSWORD, email: `${username}@demo.example.com`, ...extra });

async function userRow(username: string) {
  const [row] = await svc.db.query<{ org_id: string; role: string; role_id: string | null; password_hash: string }>(
    'SELECT org_id, role, role_id, password_hash FROM users WHERE lower(username) = lower($1)',
    [username],
  );
  return row;
}

async function signIn(username: string, password: string) {
  const res = await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username, password, f: 'json' } });
  return res.json();
}

describe('an administrator creates a member', () => {
  it('who can then sign in and sees their record', async () => {
    const body = await createUser(tokens.admin, member('new.member1', { firstname: 'Nora', lastname: 'Newman' }));
    expect(body).toEqual({ status: 'success', username: 'new.member1' });
    const { token } = await signIn('new.member1', GOOD_PASSWORD);
    expect(token).toEqual(expect.any(String));
    const me = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();
    expect(me).toMatchObject({
      username: 'new.member1',
      orgId: svc.orgId,
      role: 'org_user',
      fullName: 'Nora Newman',
      firstName: 'Nora',
      lastName: 'Newman',
      email: 'new.member1@demo.example.com',
      userLicenseTypeId: 'creatorUT',
    });
    expect(me).not.toHaveProperty('roleId');
  });

  it('with a base role or a custom role', async () => {
    await createUser(tokens.admin, member('new.publisher', { role: 'org_publisher' }));
    expect(await userRow('new.publisher')).toMatchObject({ role: 'org_publisher', role_id: null });
    await createUser(tokens.admin, member('new.viewer', { role: VIEWER }));
    expect(await userRow('new.viewer')).toMatchObject({ role: 'org_user', role_id: VIEWER });
    const { token } = await signIn('new.viewer', GOOD_PASSWORD);
    const me = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();
    expect(me).toMatchObject({ role: 'org_user', roleId: VIEWER, userLicenseTypeId: 'viewerUT' });
  });

  it('including another default administrator', async () => {
    await createUser(tokens.admin, member('second.admin', { role: 'org_admin' }));
    expect(await userRow('second.admin')).toMatchObject({ role: 'org_admin', role_id: null });
  });

  it("in the caller's own organization", async () => {
    await createUser(tokens.partner_admin, member('partner.member'));
    expect((await userRow('partner.member')).org_id).toBe(svc.partnerOrgId);
  });

  it('stores the password as a scrypt PHC string only', async () => {
    await createUser(tokens.admin, member('hash.check'));
    const { password_hash } = await userRow('hash.check');
    expect(password_hash).toMatch(/^\$scrypt\$ln=\d+,r=8,p=1\$[\w-]{22}\$[\w-]{43}$/);
    expect(password_hash).not.toContain(GOOD_PASSWORD);
    // Two members with the same password get different salts.
    await createUser(tokens.admin, member('hash.check2'));
    expect((await userRow('hash.check2')).password_hash).not.toBe(password_hash);
  });

  it("writes a user 'add' event", async () => {
    await createUser(tokens.admin, member('event.check', { role: 'org_publisher' }));
    const rows = await svc.db.query<{ org_id: string; source: string; operation: string; uri: string; username: string; properties: unknown }>(
      `SELECT org_id, source, operation, uri, username, properties FROM events WHERE subject_id = 'event.check'`,
    );
    expect(rows).toEqual([
      { org_id: svc.orgId, source: 'user', operation: 'add', uri: '/users/event.check/add', username: 'admin', properties: { role: ['org_publisher'] } },
    ]);
  });
});

describe('refusals', () => {
  it('a taken username, whatever its case, with fieldErrors.username', async () => {
    for (const username of ['user1', 'USER1', 'Admin', 'partner_admin']) {
      const body = await createUser(tokens.admin, member(username));
      expect(body.error, username).toMatchObject({ code: 400, message: 'Unable to create user.' });
      expect(body.error.fieldErrors).toHaveProperty('username');
    }
    // The existing account is untouched: its password still works.
    expect((await signIn('user1', DEMO_PASSWORD)).token).toEqual(expect.any(String));
  });

  it('the same new name asked for several times at once: one account, the others refused as taken', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(tokens.admin, member(i % 2 ? 'Race.Name1' : 'race.name1'))));
    expect(results.filter((r) => r.status === 'success'), JSON.stringify(results)).toHaveLength(1);
    for (const r of results.filter((r) => r.error)) {
      expect(r.error).toMatchObject({ code: 400, message: 'Unable to create user.' });
      expect(r.error.fieldErrors).toHaveProperty('username');
    }
    const [{ n }] = await svc.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE lower(username) = 'race.name1'`);
    expect(n).toBe(1);
  });

  it.each([
    ['too short', 'Ab1.xyz'],
    ['without a digit', 'NoDigitsHere'],
    ['without a letter', '1234567890'],
    ['equal to the username', 'Weak.Member9'],
    ['a common password', 'Password123'],
    ['a common password in other case', 'QWERTY123'],
  ])('a password %s, naming password', async (_why, password) => {
    const body = await createUser(tokens.admin, { username: 'weak.member9', password, email: 'weak@demo.example.com' });
    expect(body.error).toMatchObject({ code: 400 });
    expect(Object.keys(body.error.fieldErrors)).toEqual(['password']);
    expect(body.error.details.join(' ')).toContain("'password'");
    expect(await userRow('weak.member9')).toBeUndefined();
  });

  it.each(['not-an-email', 'a@', '@example.com', 'two@@example.com'])('a bad email %s', async (email) => {
    const body = await createUser(tokens.admin, member('bad.email1', { email }));
    expect(body.error).toMatchObject({ code: 400 });
    expect(Object.keys(body.error.fieldErrors)).toEqual(['email']);
    expect(await userRow('bad.email1')).toBeUndefined();
  });

  it('a missing email or password', async () => {
    expect((await createUser(tokens.admin, { username: 'missing.one', password: GOOD_PASSWORD })).error.fieldErrors).toEqual({ email: 'is required' });
    expect((await createUser(tokens.admin, { username: 'missing.one', email: 'm@demo.example.com' })).error.fieldErrors).toEqual({ password: 'is required' });
  });

  it.each(['abc', '-leading', 'has space', 'semi;colon', 'x'.repeat(129)])('a bad username %s', async (username) => {
    const body = await createUser(tokens.admin, member(username));
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.fieldErrors).toHaveProperty('username');
  });

  it('an unknown role, or a role of another organization, naming role', async () => {
    for (const role of ['org_superuser', INVITER]) {
      const token = role === INVITER ? tokens.partner_admin : tokens.admin;
      const body = await createUser(token, member('bad.role1', { role }));
      expect(body.error, role).toMatchObject({ code: 400 });
      expect(body.error.fieldErrors).toHaveProperty('role');
    }
    expect(await userRow('bad.role1')).toBeUndefined();
  });

  it('an unknown user type', async () => {
    expect((await createUser(tokens.admin, member('bad.type1', { userLicenseTypeId: 'superUT' }))).error.fieldErrors).toHaveProperty('userLicenseTypeId');
  });

  it.each(['publisher1', 'viewer1'])('%s, who is no administrator (403)', async (who) => {
    const body = await createUser(tokens[who], member(`by.${who}`));
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    expect(await userRow(`by.${who}`)).toBeUndefined();
  });

  it('anonymous callers (499)', async () => {
    expect((await createUser(undefined, member('by.nobody'))).error).toMatchObject({ code: 499, messageCode: 'GWM_0003' });
  });
});

describe('a non-default administrator (custom role with inviteUsers)', () => {
  it('creates members with ordinary roles', async () => {
    expect(await createUser(tokens.user1, member('invited.one'))).toEqual({ status: 'success', username: 'invited.one' });
    expect(await createUser(tokens.user1, member('invited.two', { role: 'org_publisher' }))).toEqual({ status: 'success', username: 'invited.two' });
  });

  it('cannot create an administrator (403)', async () => {
    const body = await createUser(tokens.user1, member('invited.admin', { role: 'org_admin' }));
    expect(body.error).toMatchObject({ code: 403, messageCode: 'GWM_0003' });
    expect(await userRow('invited.admin')).toBeUndefined();
  });
});
