/**
 * Members of other organizations and made-up names look the same (http/userPath.ts): every
 * operation under `content/users/<u>` and `community/users/<u>` answers a signed-in caller who
 * names another organization's member exactly as it answers a name nobody has, so no answer
 * confirms that an account exists elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { REST } from './operation.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
const MADE_UP = 'nobody_here_42';

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function call(method: 'GET' | 'POST', path: string, token: string) {
  const res = await svc.app.inject(
    method === 'GET'
      ? { method, url: `/sharing/rest/${path}?${new URLSearchParams({ f: 'json', token })}` }
      : { method, url: `/sharing/rest/${path}`, payload: { f: 'json', token } },
  );
  return { status: res.statusCode, body: res.body };
}

/** The answer naming partner_admin, and the one naming a made-up user, with the name swapped back. */
async function bothAnswers(method: 'GET' | 'POST', path: (u: string) => string, token: string) {
  const other = await call(method, path('partner_admin'), token);
  const none = await call(method, path(MADE_UP), token);
  return { other, none: { ...none, body: none.body.replaceAll(MADE_UP, 'partner_admin') } };
}

const NOT_FOUND = { code: 400, message: "User 'partner_admin' does not exist or is inaccessible." };

describe("another organization's member answers as a made-up name", () => {
  it('content/users/<u> and community/users/<u>/tasks: the 400 "does not exist or is inaccessible", for a member and an administrator', async () => {
    for (const who of ['user1', 'admin']) {
      for (const path of [(u: string) => `content/users/${u}`, (u: string) => `community/users/${u}/tasks`]) {
        const { other, none } = await bothAnswers('GET', path, tokens[who]);
        expect(JSON.parse(other.body).error, `${who} ${path('<u>')}`).toMatchObject(NOT_FOUND);
        expect(other, `${who} ${path('<u>')}`).toEqual(none);
      }
    }
  });

  it('every operation under content/users/<u> and community/users/<u>', async () => {
    const ops = svc.app.operations.filter(
      (op) => op.path.startsWith(`${REST}/content/users/:username`) || op.path.startsWith(`${REST}/community/users/:username`),
    );
    expect(ops.length).toBeGreaterThan(20);
    for (const op of ops) {
      const path = (u: string) =>
        op.path
          .slice(REST.length + 1)
          .replace(':username', u)
          .replace(/:[A-Za-z]+|\*/g, '0123456789abcdef0123456789abcdef');
      for (const method of op.method === 'read' ? (['GET'] as const) : (['POST'] as const)) {
        for (const who of ['user1', 'admin']) {
          const { other, none } = await bothAnswers(method, path, tokens[who]);
          expect(other, `${who} ${method} ${op.path}`).toEqual(none);
          expect(other.body, `${who} ${method} ${op.path}`).not.toMatch(/"code":403/);
        }
      }
    }
  });

  it('the member themself and their own organization still answer as before', async () => {
    expect(JSON.parse((await call('GET', 'content/users/partner_admin', tokens.partner_admin)).body).username).toBe('partner_admin');
    expect(JSON.parse((await call('GET', 'community/users/partner_admin/tasks', tokens.partner_admin)).body).error).toBeUndefined();
    // In one organization, a member without the privilege is refused as before (the account is visible there).
    expect(JSON.parse((await call('GET', 'content/users/admin', tokens.user1)).body).error.code).toBe(403);
  });
});
