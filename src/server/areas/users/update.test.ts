/**
 * `community/users/<u>/update`: a member's own profile, another member's by portal:admin:updateUsers,
 * an administrator's password reset, what history and webhooks record, and the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember, insertMember } from '../../../../test/support/members.ts';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let editor: string;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'publisher1']) tokens[u] = await svc.tokenFor(u);
  // A custom administrative role holding only "Update member accounts" (and what it requires).
  editor = (await insertCustomRoleMember(svc.db, svc.orgId, ['portal:user:joinGroup', 'portal:admin:viewUsers', 'portal:admin:updateUsers'])).username;
  tokens.editor = await svc.tokenFor(editor);
});
afterAll(() => svc.close());

async function post(path: string, token?: string, params: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload: { f: 'json', ...params, ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const historyOf = async (username: string) =>
  (
    (await post(`portals/${svc.orgId}/history`, tokens.admin, { id: username, num: '100' })).items as { operation: string; actor: string; data: unknown }[]
  ).filter((e) => e.operation === 'updateUser');

describe('update user', () => {
  it('changes only the properties sent, shows them in the record, and records before/after and the webhook event', async () => {
    const member = `upd.${Date.now()}`;
    await insertMember(svc.db, member, svc.orgId);
    const answer = await post(`community/users/${member}/update`, tokens.admin, {
      fullName: 'Ada Lovelace',
      description: 'Analyst',
      tags: 'GIS Analyst, Redlands',
      access: 'public',
      culture: 'pt-BR',
      region: 'BR',
      units: 'english',
      preferredView: 'GIS',
    });
    expect(answer).toEqual({ success: true, username: member });
    const record = await post(`community/users/${member}`, tokens.admin);
    expect(record).toMatchObject({
      fullName: 'Ada Lovelace',
      description: 'Analyst',
      tags: ['GIS Analyst', 'Redlands'],
      access: 'public',
      culture: 'pt-BR',
      region: 'BR',
      units: 'english',
      preferredView: 'GIS',
    });
    // Only what is sent changes.
    expect(await post(`community/users/${member}/update`, tokens.admin, { description: 'Lead analyst' })).toEqual({ success: true, username: member });
    expect(await post(`community/users/${member}`, tokens.admin)).toMatchObject({ fullName: 'Ada Lovelace', description: 'Lead analyst', units: 'english' });
    // The same values again change nothing and record nothing.
    await post(`community/users/${member}/update`, tokens.admin, { description: 'Lead analyst' });

    const changes = await historyOf(member);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({ actor: 'admin', data: { before: { description: 'Analyst' }, after: { description: 'Lead analyst' } } });
    expect(changes[1].data).toMatchObject({
      before: { fullName: member, description: null, tags: [], access: 'org', culture: null },
      after: { fullName: 'Ada Lovelace', tags: ['GIS Analyst', 'Redlands'], access: 'public', culture: 'pt-BR', preferredView: 'GIS' },
    });
    const events = await svc.db.query<{ uri: string; properties: { updatedFields: string[] } }>(
      `SELECT uri, properties FROM events WHERE source = 'user' AND subject_id = $1 AND operation = 'update' ORDER BY seq`,
      [member],
    );
    expect(events.map((e) => e.uri)).toEqual([`/users/${member}/update`, `/users/${member}/update`]);
    expect(events[1].properties.updatedFields).toEqual(['description']);
  });

  it('a member updates their own profile without any privilege; not another member’s', async () => {
    expect(await post('community/users/user1/update', tokens.user1, { description: 'Mine' })).toEqual({ success: true, username: 'user1' });
    expect((await post('community/self', tokens.user1)).description).toBe('Mine');
    const denied = await post('community/users/publisher1/update', tokens.user1, { description: 'Not mine' });
    expect(denied.error.code).toBe(403);
    expect(JSON.stringify(denied.error)).toContain('portal:admin:updateUsers');
    expect((await post('community/users/publisher1', tokens.admin)).description).not.toBe('Not mine');
  });

  it('portal:admin:updateUsers updates another member, but an administrator only by a default administrator', async () => {
    expect(await post('community/users/publisher1/update', tokens.editor, { fullName: 'Pub One' })).toEqual({ success: true, username: 'publisher1' });
    const onAdmin = await post('community/users/admin/update', tokens.editor, { fullName: 'Taken over' });
    expect(onAdmin.error.code).toBe(403);
    expect(JSON.stringify(onAdmin.error)).toContain('Only default administrators can update an administrator.');
    expect((await post('community/self', tokens.admin)).fullName).not.toBe('Taken over');
  });

  it('refuses bad values by parameter, in the error envelope', async () => {
    const bad = await post('community/users/user1/update', tokens.admin, { access: 'everyone', units: 'imperial', culture: 'not a culture!' });
    expect(bad.error.code).toBe(400);
    expect(bad.error.fieldErrors).toEqual({ access: expect.any(String), units: expect.any(String), culture: expect.any(String) });
    const get = await svc.app.inject({ method: 'GET', url: `/sharing/rest/community/users/user1/update?f=json&token=${tokens.admin}` });
    expect(get.json().error.code).toBe(405);
    expect((await post('community/users/partner_admin/update', tokens.admin, { description: 'x' })).error.code).toBe(400);
    expect((await post('community/users/user1/update', undefined, { description: 'x' })).error.code).toBe(499);
  });
});

describe('password reset by an administrator', () => {
  const signIn = (username: string, password: string) => post('generateToken', undefined, { username, password, referer: 'http://127.0.0.1' });

  it('sets a new password, hashed; ends the member’s sessions; records no password', async () => {
    const member = `reset.${Date.now()}`;
    await insertMember(svc.db, member, svc.orgId);
    const old = (await signIn(member, DEMO_PASSWORD)).token as string;
    expect(await post(`community/users/${member}/update`, tokens.admin, { password: 'Fresh.Start.2468' })).toEqual({ success: true, username: member });
    expect((await post('community/self', old)).error.code).toBe(498);
    expect((await signIn(member, DEMO_PASSWORD)).error.code).toBe(400);
    expect((await signIn(member, 'Fresh.Start.2468')).token).toEqual(expect.any(String));
    const [{ password_hash }] = await svc.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE username = $1', [member]);
    expect(password_hash).not.toContain('Fresh.Start.2468');
    const [change] = await historyOf(member);
    expect(change.data).toEqual({ before: { password: 'unchanged' }, after: { password: 'reset' } });
    const stored = await svc.db.query<{ data: unknown; properties: unknown }>(`SELECT data, properties FROM events WHERE subject_id = $1`, [member]);
    expect(JSON.stringify(stored)).not.toContain('Fresh.Start');
  });

  it('refuses one’s own password, a weak one, and a member whose role holds privileges the caller lacks', async () => {
    const own = await post('community/users/admin/update', tokens.admin, { password: 'Fresh.Start.2468' });
    expect(own.error.code).toBe(403);
    const weak = await post('community/users/user1/update', tokens.admin, { password: 'short' });
    expect(weak.error.code).toBe(400);
    expect(weak.error.fieldErrors.password).toEqual(expect.any(String));
    const common = await post('community/users/user1/update', tokens.admin, { password: 'password1' });
    expect(common.error.code).toBe(400);
    // The editor's role lacks the publisher's privileges: signing in as them would take those.
    const stronger = await post('community/users/publisher1/update', tokens.editor, { password: 'Fresh.Start.2468' });
    expect(stronger.error.code).toBe(403);
    expect(JSON.stringify(stronger.error)).toContain('their role holds privileges you do not hold');
    expect((await signIn('publisher1', DEMO_PASSWORD)).token).toEqual(expect.any(String));
  });
});
