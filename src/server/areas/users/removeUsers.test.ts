/**
 * `portals/<orgId>/removeUsers`: several members deleted as `community/users/<u>/delete` deletes one,
 * each on its own, answering the documented `notRemoved` with the local `notRemovedReasons`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember, insertMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1']) tokens[u] = await svc.tokenFor(u);
  const remover = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:admin:viewUsers', 'portal:admin:deleteUsers']);
  tokens.remover = await svc.tokenFor(remover.username);
});
afterAll(() => svc.close());

const removeUsers = (users: string, token = tokens.admin, org = svc.orgId) => svc.post(`portals/${org}/removeUsers`, { users }, token);
const exists = async (username: string) => (await svc.db.query('SELECT 1 FROM users WHERE username = $1', [username])).length === 1;

describe('removeUsers', () => {
  it('removes each member it may, and lists the others in notRemoved with the reason', async () => {
    for (const u of ['gone.a', 'gone.b', 'owner.c']) await insertMember(svc.db, u, svc.orgId);
    const owner = await svc.tokenFor('owner.c');
    await svc.post('content/users/owner.c/addItem', { title: 'Kept', type: 'Web Map', text: '{}' }, owner);

    const body = await removeUsers('gone.a, owner.c,nobody.here,partner_admin,gone.b,admin');
    expect(body.notRemoved).toEqual(['owner.c', 'nobody.here', 'partner_admin', 'admin']);
    const reasons = Object.fromEntries((body.notRemovedReasons as { username: string; reason: string }[]).map((r) => [r.username, r.reason]));
    expect(reasons['owner.c']).toContain('owner.c owns 1 item');
    expect(reasons['nobody.here']).toContain('does not exist or is inaccessible');
    // Another organization's member answers as a name that does not exist.
    expect(reasons.partner_admin.replaceAll('partner_admin', 'X')).toBe(reasons['nobody.here'].replaceAll('nobody.here', 'X'));
    expect(reasons.admin).toContain('You cannot delete your own account.');

    expect([await exists('gone.a'), await exists('gone.b'), await exists('owner.c'), await exists('partner_admin')]).toEqual([false, false, true, true]);
    const events = await svc.db.query<{ subject_id: string }>(`SELECT subject_id FROM events WHERE source = 'user' AND operation = 'delete' ORDER BY seq`);
    expect(events.map((e) => e.subject_id)).toEqual(['gone.a', 'gone.b']);
  });

  it('answers empty lists when every member is removed', async () => {
    await insertMember(svc.db, 'gone.d', svc.orgId);
    expect(await removeUsers('gone.d')).toEqual({ notRemoved: [], notRemovedReasons: [] });
  });

  it('needs portal:admin:deleteUsers in the organization; an administrator only by a default administrator', async () => {
    await insertMember(svc.db, 'gone.e', svc.orgId);
    const denied = await removeUsers('gone.e', tokens.user1);
    expect(denied.error.code).toBe(403);
    expect(JSON.stringify(denied.error)).toContain('portal:admin:deleteUsers');
    const otherOrg = await removeUsers('gone.e', tokens.admin, svc.partnerOrgId);
    expect(otherOrg.error.code).toBe(403);
    expect(await exists('gone.e')).toBe(true);
    const byRemover = await removeUsers('gone.e,admin', tokens.remover);
    expect(byRemover.notRemoved).toEqual(['admin']);
    expect(byRemover.notRemovedReasons[0].reason).toContain('Only default administrators can delete an administrator.');
    expect(await exists('gone.e')).toBe(false);
  });

  it('refuses a missing list and more than 100 names, in the error envelope', async () => {
    const none = await svc.post(`portals/${svc.orgId}/removeUsers`, {}, tokens.admin);
    expect(none.error).toMatchObject({ code: 400, fieldErrors: { users: expect.any(String) } });
    const many = await removeUsers(Array.from({ length: 101 }, (_, i) => `n${i}`).join(','));
    expect(many.error.code).toBe(400);
    const get = await svc.app.inject({ method: 'GET', url: `/sharing/rest/portals/self/removeUsers?f=json&users=x&token=${tokens.admin}` });
    expect(get.json().error.code).toBe(405);
  });
});
