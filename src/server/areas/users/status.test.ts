/**
 * `community/users/<u>/disable` and `/enable`: who may, what a disabled member can no longer do
 * (sign in, use a token or a refresh token issued before), what is recorded, and the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember } from '../../../../test/support/members.ts';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  // A member whose custom administrative role holds portal:admin:disableUsers (and what it requires): not a default administrator.
  const keeper = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:disableUsers']);
  tokens.keeper = await svc.tokenFor(keeper.username);
});
afterAll(() => svc.close());

async function post(path: string, token?: string, params: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload: { f: 'json', ...params, ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const signIn = (username: string) => post('generateToken', undefined, { username, password: DEMO_PASSWORD, referer: 'http://127.0.0.1' });

describe('disable and enable', () => {
  it('disables a member: no sign-in, every earlier token refused, shown as disabled; enabling lets them sign in again but never revives an old token', async () => {
    const before = tokens.user1;
    expect((await post('community/self', before)).username).toBe('user1');

    expect(await post('community/users/user1/disable', tokens.admin)).toEqual({ success: true, user: 'user1' });

    expect((await post('community/self', before)).error.code).toBe(498);
    const refused = await signIn('user1');
    expect(refused.error.code).toBe(400);
    expect(JSON.stringify(refused.error)).toContain('This account has been disabled.');
    expect((await post('community/users/user1', tokens.admin)).disabled).toBe(true);

    // Disabling again changes nothing and records nothing more.
    expect(await post('community/users/user1/disable', tokens.admin)).toEqual({ success: true, user: 'user1' });

    expect(await post('community/users/user1/enable', tokens.admin)).toEqual({ success: true, user: 'user1' });
    expect((await post('community/users/user1', tokens.admin)).disabled).toBe(false);
    expect((await post('community/self', before)).error.code).toBe(498);
    const again = await signIn('user1');
    expect(again.token).toEqual(expect.any(String));

    const events = await svc.db.query<{ operation: string; username: string; properties: unknown }>(
      `SELECT operation, username FROM events WHERE source = 'user' AND subject_id = 'user1' AND operation IN ('disable', 'enable') ORDER BY seq`,
    );
    expect(events.map((e) => [e.operation, e.username])).toEqual([
      ['disable', 'admin'],
      ['enable', 'admin'],
    ]);
    const history = await post(`portals/${svc.orgId}/history`, tokens.admin, { id: 'user1', num: '100' });
    const changes = (history.items as { operation: string; action: string; actor: string; data: unknown }[]).filter((e) => e.operation.endsWith('ableUser'));
    expect(changes.reverse()).toEqual([
      expect.objectContaining({ operation: 'disableUser', action: 'update', actor: 'admin', data: { before: { disabled: false }, after: { disabled: true } } }),
      expect.objectContaining({ operation: 'enableUser', action: 'update', actor: 'admin', data: { before: { disabled: true }, after: { disabled: false } } }),
    ]);
  });

  it('ends the OAuth refresh tokens of a member who is disabled', async () => {
    const { id } = (await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'viewer1'`))[0];
    const item = await post('content/users/admin/addItem', tokens.admin, { title: 'Field app', type: 'Application' });
    const app = await post('oauth2/registerApp', tokens.admin, { itemId: item.id, appType: 'browser', redirect_uris: '[]' });
    await svc.db.query(
      `INSERT INTO oauth_refresh_tokens (token_hash, client_id, user_id, redirect_uri, created, expires) VALUES ('viewer1-refresh', $1, $2, 'urn:ietf:wg:oauth:2.0:oob', 0, 9e15)`,
      [app.client_id, id],
    );
    expect(await post('community/users/viewer1/disable', tokens.admin)).toEqual({ success: true, user: 'viewer1' });
    expect(await svc.db.query(`SELECT 1 FROM oauth_refresh_tokens WHERE user_id = $1`, [id])).toEqual([]);
    expect(await post('community/users/viewer1/enable', tokens.admin)).toEqual({ success: true, user: 'viewer1' });
  });

  it('needs portal:admin:disableUsers; an administrator is disabled only by a default administrator; never oneself', async () => {
    // user1's token of the first test ended when they were disabled.
    const denied = await post('community/users/viewer1/disable', await svc.tokenFor('user1'));
    expect(denied.error.code).toBe(403);
    expect(JSON.stringify(denied.error)).toContain('portal:admin:disableUsers');

    // The custom role holds the privilege: it disables a member, not the administrator, not itself.
    expect(await post('community/users/viewer1/disable', tokens.keeper)).toEqual({ success: true, user: 'viewer1' });
    expect(await post('community/users/viewer1/enable', tokens.keeper)).toEqual({ success: true, user: 'viewer1' });
    const onAdmin = await post('community/users/admin/disable', tokens.keeper);
    expect(onAdmin.error.code).toBe(403);
    expect(JSON.stringify(onAdmin.error)).toContain('Only default administrators can disable an administrator.');
    const self = await post('community/users/admin/disable', tokens.admin);
    expect(self.error.code).toBe(403);
    expect(JSON.stringify(self.error)).toContain('You cannot disable your own account.');
    expect((await post('community/users/admin', tokens.admin)).disabled).toBe(false);
  });

  it('a member of another organization answers exactly as a name that does not exist', async () => {
    const other = await post('community/users/partner_admin/disable', tokens.admin);
    const madeUp = await post('community/users/nobody_here_at_all/disable', tokens.admin);
    expect(other.error.code).toBe(400);
    expect({ ...other.error, message: other.error.message.replace('partner_admin', 'X'), details: [] }).toEqual({
      ...madeUp.error,
      message: madeUp.error.message.replace('nobody_here_at_all', 'X'),
      details: [],
    });
    expect((await post('community/users/partner_admin', tokens.partner_admin)).disabled).toBe(false);
  });

  it('answers GET with 405 and an anonymous caller with the token error', async () => {
    const get = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/users/user1/disable?f=json&token=${tokens.admin}` });
    expect(get.json().error.code).toBe(405);
    expect((await post('community/users/user1/disable')).error.code).toBe(499);
  });
});
