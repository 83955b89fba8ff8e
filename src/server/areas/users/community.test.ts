/**
 * User Search (`community/users`), a member's `groups` on `community/users/<u>`, and User Tags
 * (`community/users/<u>/tags`), as the public API documents them and the Maps SDK reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRoleMember } from '../../../../test/support/members.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function get(path: string, token?: string, params: Record<string, string> = {}) {
  const res = await svc.app.inject({
    method: 'GET',
    url: `/sharing/rest/${path}?${new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) })}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const names = (list: { username: string }[]) => list.map((u) => u.username);

describe('User Search: community/users', () => {
  it('finds members of the caller’s organization, paged with the documented envelope, sorted as asked', async () => {
    const all = await get('community/users', tokens.admin, { q: '*', num: '100', sortField: 'username', sortOrder: 'asc' });
    expect(all).toMatchObject({ query: '*', start: 1 });
    const orgMembers = await svc.db.query<{ username: string }>('SELECT username FROM users WHERE org_id = $1', [svc.orgId]);
    expect(all.total).toBe(orgMembers.length);
    expect(names(all.results)).toEqual(orgMembers.map((m) => m.username).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names(all.results)).not.toContain('partner_admin');

    const page = await get('community/users', tokens.admin, { q: '*', num: '2', start: '2', sortField: 'username', sortOrder: 'desc' });
    expect(page).toMatchObject({ total: all.total, start: 2, num: 2, nextStart: 4 });
    expect(names(page.results)).toEqual(names(all.results).reverse().slice(1, 3));
  });

  it('reads the search syntax (username:, free text) and the SDK’s extra orgid: clause', async () => {
    expect(names((await get('community/users', tokens.admin, { q: 'username:publisher1' })).results)).toEqual(['publisher1']);
    expect(names((await get('community/users', tokens.admin, { q: `(publisher1) AND orgid:${svc.orgId}` })).results)).toEqual(['publisher1']);
    expect((await get('community/users', tokens.admin, { q: 'username:nobody_has_this' })).total).toBe(0);
  });

  it('another organization finds only its own members', async () => {
    const partner = await get('community/users', tokens.partner_admin, { q: 'username:user1' });
    expect(partner.results).toEqual([]);
  });

  it('a member without the right to view members finds only themselves', async () => {
    const { username } = await insertCustomRoleMember(svc.db, svc.orgId, ['portal:user:createItem']);
    const found = await get('community/users', await svc.tokenFor(username), { q: '*' });
    expect(found).toMatchObject({ total: 1, nextStart: -1 });
    expect(names(found.results)).toEqual([username]);
  });

  it('needs a token (499) and refuses bad parameters (400)', async () => {
    expect((await get('community/users', undefined, { q: '*' })).error.code).toBe(499);
    expect((await get('community/users', tokens.admin, { q: '*', sortField: 'password' })).error.code).toBe(400);
    expect((await get('community/users', tokens.admin, { q: '*', start: '0' })).error.code).toBe(400);
  });
});

describe('groups on community/users/<u>', () => {
  beforeAll(async () => {
    const made = await svc.post('community/createGroup', { title: 'Publisher crew', access: 'org', tags: 'crew' }, tokens.publisher1);
    expect(made).toMatchObject({ success: true });
  });

  it('the member themselves: the same answer as community/self, groups included', async () => {
    const self = await svc.post('community/self', {}, tokens.publisher1);
    expect(self.groups.length).toBeGreaterThan(0);
    expect(await get('community/users/publisher1', tokens.publisher1)).toEqual(self);
  });

  it('an administrator sees another member’s groups, with the member’s own membership', async () => {
    const self = await svc.post('community/self', {}, tokens.publisher1);
    const seen = await get('community/users/publisher1', tokens.admin);
    expect(seen.groups.map((g: { id: string }) => g.id).sort()).toEqual(self.groups.map((g: { id: string }) => g.id).sort());
    for (const g of seen.groups) expect(g.userMembership).toEqual({ username: 'publisher1', memberType: expect.stringMatching(/^(owner|admin|member)$/) });
  });

  it('another member (not an administrator) gets no groups', async () => {
    const seen = await get('community/users/publisher1', tokens.user1);
    expect(seen.username).toBe('publisher1');
    expect(seen).not.toHaveProperty('groups');
  });
});

describe('User Tags: community/users/<u>/tags', () => {
  beforeAll(async () => {
    for (const tags of ['Streets,bike lanes', 'Streets', 'streets-2']) {
      expect(
        await svc.post('content/users/publisher1/addItem', { title: `Tagged ${tags}`, type: 'Web Map', text: '{}', tags }, tokens.publisher1),
      ).toMatchObject({ success: true });
    }
  });

  it('counts each tag over the member’s items, alphabetically', async () => {
    const { tags } = await get('community/users/publisher1/tags', tokens.publisher1);
    const mine = tags.filter((t: { tag: string }) => ['Streets', 'bike lanes', 'streets-2'].includes(t.tag));
    expect(mine).toEqual([
      { tag: 'bike lanes', count: 1 },
      { tag: 'Streets', count: 2 },
      { tag: 'streets-2', count: 1 },
    ]);
    const [{ n }] = await svc.db.query<{ n: number }>(
      `SELECT count(DISTINCT t)::int AS n FROM items, unnest(tags) t WHERE owner_id = (SELECT id FROM users WHERE username = 'publisher1')`,
    );
    expect(tags).toHaveLength(Number(n));
  });

  it('an administrator who views items reads them; another member is refused; another organization finds no such user', async () => {
    expect((await get('community/users/publisher1/tags', tokens.admin)).tags.length).toBeGreaterThan(0);
    expect((await get('community/users/publisher1/tags', tokens.user1)).error?.code).toBeGreaterThanOrEqual(400);
    const partner = await get('community/users/publisher1/tags', tokens.partner_admin);
    expect(partner.error).toMatchObject({ code: 400, message: "User 'publisher1' does not exist or is inaccessible." });
    expect((await get('community/users/nobody_here/tags', tokens.admin)).error.code).toBe(400);
    expect((await get('community/users/publisher1/tags')).error.code).toBe(499);
  });
});
