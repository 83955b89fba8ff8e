/**
 * A group's `membershipAccess` (who may join): stored by createGroup and update, returned in the
 * group record, refused when unknown (naming the parameter), and kept by addUsers (refused names in
 * notAdded with the reason) and join.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
let n = 0;
const unique = (prefix: string) => `${prefix} ${++n}-${randomUUID().slice(0, 6)}`;
const PASSWORD = 'Partner.Member.2468';

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, token?: string) => svc.post(path, params, token);

async function get(path: string, token: string) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?f=json&token=${token}` });
  return res.json();
}

async function createGroup(fields: Record<string, string>, token = tokens.admin): Promise<string> {
  const body = await post('community/createGroup', { title: unique('Access'), ...fields }, token);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.group.id;
}

let seq = 0;
/** A member of the partner organization, made by its administrator, and their token. */
async function partnerMember(): Promise<{ username: string; token: string }> {
  const username = `acc.member${++seq}.${randomUUID().slice(0, 4)}`;
  const res = await svc.app.inject({
    method: 'POST',
    url: '/portaladmin/security/users/createUser',
    payload: { f: 'json', token: tokens.partner_admin, username, password: PASSWORD, email: `${username}@partner.example.com` },
  });
  expect(res.json()).toMatchObject({ status: 'success' });
  const signIn = await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { f: 'json', username, password: PASSWORD } });
  return { username, token: signIn.json().token as string };
}

/** Whether the partner organization takes part in a collaboration with the demo organization. */
async function setPartnered(on: boolean) {
  await svc.db.query(`UPDATE collaboration_participants SET status = $2 WHERE org_id = $1 AND role = 'guest'`, [svc.partnerOrgId, on ? 'active' : 'left']);
}

describe('membershipAccess on the group record', () => {
  it('createGroup stores each value; anyone (none) by default; an empty value means anyone', async () => {
    for (const [sent, stored] of [
      [undefined, 'none'],
      ['org', 'org'],
      ['collaboration', 'collaboration'],
      ['none', 'none'],
      ['', 'none'],
    ] as const) {
      const body = await post('community/createGroup', { title: unique('Create'), ...(sent === undefined ? {} : { membershipAccess: sent }) }, tokens.admin);
      expect(body.group.membershipAccess, String(sent)).toBe(stored);
      expect((await get(`community/groups/${body.group.id}`, tokens.admin)).membershipAccess).toBe(stored);
    }
  });

  it('update changes it (and only it); search results carry it', async () => {
    const g = await createGroup({ membershipAccess: 'org', snippet: 'kept' });
    expect(await post(`community/groups/${g}/update`, { membershipAccess: 'collaboration' }, tokens.admin)).toEqual({ success: true, groupId: g });
    expect(await get(`community/groups/${g}`, tokens.admin)).toMatchObject({ membershipAccess: 'collaboration', snippet: 'kept' });
    expect(await post(`community/groups/${g}/update`, { membershipAccess: '' }, tokens.admin)).toEqual({ success: true, groupId: g });
    expect((await get(`community/groups/${g}`, tokens.admin)).membershipAccess).toBe('none');
    const search = await post('community/groups', { q: `id:${g}` }, tokens.admin);
    expect(search.results[0].membershipAccess).toBe('none');
  });

  it('an unknown value is refused with 400 naming membershipAccess, on create and on update', async () => {
    const created = await post('community/createGroup', { title: unique('Bad'), membershipAccess: 'partners' }, tokens.admin);
    expect(created.error).toMatchObject({ code: 400, fieldErrors: { membershipAccess: expect.stringContaining('collaboration') } });
    expect(created.error.details.join(' ')).toContain('membershipAccess');
    const g = await createGroup({ membershipAccess: 'org' });
    const updated = await post(`community/groups/${g}/update`, { membershipAccess: 'ORG-ONLY' }, tokens.admin);
    expect(updated.error).toMatchObject({ code: 400, fieldErrors: { membershipAccess: expect.any(String) } });
    expect((await get(`community/groups/${g}`, tokens.admin)).membershipAccess).toBe('org');
  });
});

describe('membershipAccess keeps people out', () => {
  it('org: addUsers lists a member of another organization in notAdded with the reason; members of the organization are added', async () => {
    const ext = await partnerMember();
    const g = await createGroup({ membershipAccess: 'org' });
    const body = await post(`community/groups/${g}/addUsers`, { users: `${ext.username},user1` }, tokens.admin);
    expect(body.notAdded).toEqual([ext.username]);
    expect(body.notAddedReasons).toEqual([{ username: ext.username, reason: expect.stringContaining('only members of its own organization') }]);
    expect((await get(`community/groups/${g}/users`, tokens.admin)).users).toEqual(['user1']);
  });

  it('org: a member of another organization cannot join a public group; anyone (none) lets them', async () => {
    const ext = await partnerMember();
    const closed = await createGroup({ access: 'public', membershipAccess: 'org' });
    const refused = await post(`community/groups/${closed}/join`, {}, ext.token);
    expect(refused.error).toMatchObject({ code: 400 });
    expect(refused.error.details.join(' ')).toContain('only members of its own organization');
    const open = await createGroup({ access: 'public', membershipAccess: 'none' });
    expect(await post(`community/groups/${open}/join`, {}, ext.token)).toEqual({ success: true, groupId: open });
  });

  it('collaboration: a partnered organization is let in, the same organization once it left the collaboration is not', async () => {
    const [one, two, three] = [await partnerMember(), await partnerMember(), await partnerMember()];
    const g = await createGroup({ access: 'public', membershipAccess: 'collaboration' });
    try {
      await setPartnered(true);
      expect((await post(`community/groups/${g}/addUsers`, { users: one.username }, tokens.admin)).notAdded).toEqual([]);
      expect(await post(`community/groups/${g}/join`, {}, two.token)).toEqual({ success: true, groupId: g });
      await setPartnered(false);
      const body = await post(`community/groups/${g}/addUsers`, { admins: three.username }, tokens.admin);
      expect(body.notAdded).toEqual([three.username]);
      expect(body.notAddedReasons[0].reason).toContain('partnered collaboration');
      expect((await post(`community/groups/${g}/join`, {}, three.token)).error).toMatchObject({ code: 400 });
    } finally {
      await setPartnered(true);
    }
    const users = await get(`community/groups/${g}/users`, tokens.admin);
    expect([...users.users].sort()).toEqual([one.username, two.username].sort());
  });
});
