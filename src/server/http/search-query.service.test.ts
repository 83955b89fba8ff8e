/** The parser behind member and group search: OR, NOT and parentheses now work there too. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';

let svc: TestService;
let admin: string;

beforeAll(async () => {
  svc = await startService();
  admin = await svc.tokenFor('admin');
});
afterAll(() => svc.close());

async function get(path: string, params: Record<string, string>) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${new URLSearchParams({ f: 'json', num: '100', ...params, token: admin })}` });
  const body = res.json();
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  return body;
}

describe('member search with the parser', () => {
  const names = async (q: string) =>
    ((await get('portals/self/users/search', { q, sortField: 'username' })).results as { username: string }[]).map((u) => u.username);

  it('OR, NOT, parentheses and field: value', async () => {
    expect(await names('username:user1 OR username:viewer1')).toEqual(['user1', 'viewer1']);
    expect(await names('role:org_admin OR role:org_publisher')).toEqual(['admin', 'publisher1']);
    expect(await names('email:demo.example.com AND NOT (role:org_admin OR role:org_user)')).toEqual(['publisher1', 'viewer1']);
    expect(await names('username: user1')).toEqual(['user1']);
    expect(await names('-username:er1')).toEqual(['admin']);
  });
});

describe('group search with the parser', () => {
  it('OR, NOT and parentheses', async () => {
    const word = `w${randomUUID().slice(0, 8)}`;
    for (const t of ['Red', 'Green', 'Blue']) {
      expect((await svc.post('community/createGroup', { title: `${word} ${t}`, tags: `${word},${t.toLowerCase()}` }, admin)).success).toBe(true);
    }
    const titles = async (q: string) => ((await get('community/groups', { q, sortField: 'title' })).results as { title: string }[]).map((g) => g.title);
    expect(await titles(`tags:${word} AND (tags:red OR tags:blue)`)).toEqual([`${word} Blue`, `${word} Red`]);
    expect(await titles(`tags:${word} NOT tags:green`)).toEqual([`${word} Blue`, `${word} Red`]);
    expect(await titles(`title:"${word} Green" OR title:"${word} Red"`)).toEqual([`${word} Green`, `${word} Red`]);
    expect(await titles(`tags:${word} AND created:[0 TO ${Date.now() + 60_000}]`)).toHaveLength(3);
    expect(await titles(`tags:${word} AND created:[0 TO 1]`)).toEqual([]);
  });
});
