/**
 * A field hidden from the caller is not searchable by the caller: members without
 * portal:admin:viewUsers do not see other members' email addresses, so a search by address —
 * whole, by prefix, as a free term or negated — answers a right guess exactly as a wrong one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'viewer1']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function get(path: string, token: string, params: Record<string, string>) {
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${new URLSearchParams({ f: 'json', num: '100', ...params, token })}` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The members each search answers for `q`, by username. */
const SEARCHES: [string, (q: string, token: string) => Promise<string[]>][] = [
  ['community/users', async (q, t) => (await get('community/users', t, { q })).results.map((u: { username: string }) => u.username).sort()],
  ['portals/self/users/search', async (q, t) => (await get('portals/self/users/search', t, { q })).results.map((u: { username: string }) => u.username).sort()],
  // portals/self/users takes free terms only.
  [
    'portals/self/users',
    async (q, t) => (await get('portals/self/users', t, { q: q.replace(/^email:/, '') })).users.map((u: { username: string }) => u.username).sort(),
  ],
];

/** Guesses at publisher1's address (publisher1@demo.example.com), each with a wrong guess of the same form. */
const GUESSES: [string, string][] = [
  ['email:publisher1@demo.example.com', 'email:publisher9@demo.example.com'],
  ['email:publisher1*', 'email:publisher9*'],
  ['email:"publisher1@demo"', 'email:"publisher9@demo"'],
  ['publisher1@demo.example.com', 'publisher9@demo.example.com'],
  ['publisher1@*', 'publisher9@*'],
  ['NOT email:publisher1@demo.example.com', 'NOT email:publisher9@demo.example.com'],
  ['username:publisher1 AND email:publisher1@demo', 'username:publisher1 AND email:publisher9@demo'],
  ['email:ublisher1@demo', 'email:ublisher9@demo'],
];

describe('searching members by a field the caller cannot see', () => {
  for (const [name, search] of SEARCHES) {
    it(`${name}: without portal:admin:viewUsers a right guess at an address answers as a wrong one`, async () => {
      for (const who of ['user1', 'viewer1']) {
        for (const [right, wrong] of GUESSES) {
          expect(await search(right, tokens[who]), `${who}: ${right}`).toEqual(await search(wrong, tokens[who]));
        }
      }
    });

    it(`${name}: the caller's own address and administrators' searches still match`, async () => {
      expect(await search('email:user1@demo.example.com', tokens.user1)).toEqual(['user1']);
      expect(await search('email:publisher1@demo', tokens.admin)).toEqual(['publisher1']);
      expect(await search('email:demo.example.com', tokens.admin)).toEqual(['admin', 'publisher1', 'user1', 'viewer1']);
    });
  }
});
