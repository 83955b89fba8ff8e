/**
 * The wire rules every operation shares (facts §1, §8): the error envelope on HTTP 200, `f`,
 * the four ways a token travels, 499/498, POST-only writes, unknown paths, unreadable bodies.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { buildApp } from '../app.ts';

const REST = '/sharing/rest';

let svc: TestService;
let now = Date.UTC(2026, 2, 1, 12, 0, 0);
let userToken: string;

beforeAll(async () => {
  svc = await startService({ clock: { now: () => now } });
  userToken = await svc.tokenFor('user1');
});
afterAll(() => svc.close());

/** The body of an error answer, after checking it is the envelope on HTTP 200 as JSON. */
function envelope(res: LightMyRequestResponse): {
  code: number;
  messageCode?: string;
  message: string;
  details: unknown[];
  fieldErrors?: Record<string, string>;
} {
  expect(res.statusCode).toBe(200);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(res.body).not.toMatch(/<html|<!doctype/i);
  // No stack trace or source path ever reaches the caller.
  expect(res.body).not.toMatch(/\bat .+\(.+:\d+:\d+\)|node_modules|\.ts:\d+/);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.code).toBe('number');
  expect(typeof body.error.message).toBe('string');
  expect(Array.isArray(body.error.details)).toBe(true);
  return body.error;
}

/** A multipart/form-data body as a browser or rest-js would build it. */
async function multipartBody(fields: Record<string, string | Blob>): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}

describe('the error envelope', () => {
  it('is HTTP 200 with {error:{code, messageCode, message, details}}', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json` });
    expect(envelope(res)).toEqual({ code: 499, messageCode: 'GWM_0003', message: 'Token Required', details: ['Token Required'] });
  });

  it('names each bad parameter in details and fieldErrors', async () => {
    const res = await svc.app.inject({ method: 'POST', url: `${REST}/generateToken`, payload: { username: 'admin', f: 'json' } });
    const err = envelope(res);
    expect(err.code).toBe(400);
    expect(err.details).toEqual(["'password' is required"]);
    expect(err.fieldErrors).toEqual({ password: 'is required' });
  });

  it('says when a parameter was sent more than once', async () => {
    const res = await svc.app.inject({ method: 'POST', url: `${REST}/generateToken?username=admin&username=user1`, payload: { password: 'x', f: 'json' } });
    const err = envelope(res);
    expect(err.code).toBe(400);
    expect(err.fieldErrors?.username).toBe('was sent more than once');
  });

  it('hides the cause of an internal failure (500, no SQL, no stack)', async () => {
    await svc.db.query('ALTER TABLE organizations RENAME TO organizations_hidden');
    try {
      const res = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json` });
      expect(envelope(res)).toEqual({ code: 500, message: 'An internal error occurred.', details: [] });
      expect(res.body).not.toContain('organizations');
    } finally {
      await svc.db.query('ALTER TABLE organizations_hidden RENAME TO organizations');
    }
    const again = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json` });
    expect(again.json().id).toBe(svc.orgId);
  });
});

describe('f', () => {
  it('pjson is indented JSON with the same content as json', async () => {
    const pretty = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=pjson` });
    const compact = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json` });
    expect(pretty.statusCode).toBe(200);
    expect(String(pretty.headers['content-type'])).toMatch(/^application\/json/);
    expect(pretty.body).toContain('\n  "id": ');
    expect(compact.body).not.toContain('\n');
    expect(pretty.json()).toEqual(compact.json());
  });

  it('answers JSON when f is absent', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self` });
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(res.json().id).toBe(svc.orgId);
  });

  it.each(['xml', 'JSON2', 'kmz'])('refuses f=%s with 400 naming f', async (f) => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=${f}` });
    const err = envelope(res);
    expect(err.code).toBe(400);
    expect(err.details).toEqual(["'f' must be one of: json, pjson"]);
    expect(err.fieldErrors).toHaveProperty('f');
  });

  it('checks f on POST bodies too', async () => {
    const res = await svc.app.inject({ method: 'POST', url: `${REST}/portals/self`, payload: { f: 'csv' } });
    expect(envelope(res).code).toBe(400);
  });
});

describe('token transport', () => {
  const self = async (res: LightMyRequestResponse) => {
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.error).toBeUndefined();
    return body.username as string;
  };

  it('reads the token query parameter', async () => {
    expect(await self(await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json&token=${userToken}` }))).toBe('user1');
  });

  it('reads the token form field of an urlencoded POST', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/community/self`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ f: 'json', token: userToken }).toString(),
    });
    expect(await self(res)).toBe('user1');
  });

  it('reads the token field of a multipart POST', async () => {
    const body = await multipartBody({ f: 'json', token: userToken });
    expect(await self(await svc.app.inject({ method: 'POST', url: `${REST}/community/self`, ...body }))).toBe('user1');
  });

  it('reads the token field of a multipart POST that also carries a file (after the file, as rest-js sends it)', async () => {
    const body = await multipartBody({
      f: 'json',
      title: 'Hello',
      type: 'CSV',
      file: new File(['hello'], 'hello.txt', { type: 'text/plain' }),
      token: userToken,
    });
    const res = await svc.app.inject({ method: 'POST', url: `${REST}/content/users/user1/addItem`, ...body });
    expect(res.json()).toMatchObject({ success: true });
  });

  it('refuses a file part sent to an operation that takes no file', async () => {
    const body = await multipartBody({ f: 'json', file: new File(['hello'], 'hello.txt', { type: 'text/plain' }), token: userToken });
    expect(envelope(await svc.app.inject({ method: 'POST', url: `${REST}/community/self`, ...body }))).toMatchObject({ code: 400 });
  });

  it('reads X-Esri-Authorization: Bearer', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json`, headers: { 'X-Esri-Authorization': `Bearer ${userToken}` } });
    expect(await self(res)).toBe('user1');
  });

  it('reads Authorization: Bearer (scheme in any case)', async () => {
    expect(await self(await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json`, headers: { Authorization: `Bearer ${userToken}` } }))).toBe(
      'user1',
    );
    expect(await self(await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json`, headers: { authorization: `bearer ${userToken}` } }))).toBe(
      'user1',
    );
  });

  it('prefers the token parameter over a header', async () => {
    const adminToken = await svc.tokenFor('admin');
    const res = await svc.app.inject({
      method: 'GET',
      url: `${REST}/community/self?f=json&token=${userToken}`,
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    expect(await self(res)).toBe('user1');
  });

  it('ignores an Authorization header that is not a bearer token (499)', async () => {
    const res = await svc.app.inject({
      method: 'GET',
      url: `${REST}/community/self?f=json`,
      headers: { Authorization: `Basic ${Buffer.from('user1:x').toString('base64')}` },
    });
    expect(envelope(res)).toMatchObject({ code: 499, messageCode: 'GWM_0003' });
  });
});

describe('499 and 498', () => {
  it.each([
    ['GET', 'community/self'],
    ['GET', 'portals/self/users'],
    ['GET', 'portals/self/users/search?q=*'],
    ['POST', 'portals/self/updateUserRole'],
  ])('%s %s without a token is 499 GWM_0003', async (method, path) => {
    const res = await svc.app.inject({
      method: method as 'GET' | 'POST',
      url: `${REST}/${path}`,
      payload: method === 'POST' ? { username: 'user1', role: 'org_admin' } : undefined,
    });
    expect(envelope(res)).toEqual({ code: 499, messageCode: 'GWM_0003', message: 'Token Required', details: ['Token Required'] });
  });

  it('createUser under /portaladmin without a token is 499', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/portaladmin/security/users/createUser',
      payload: { username: 'someone1', password: 'Xy.12345678', email: 'a@b.co' },
    });
    expect(envelope(res).code).toBe(499);
  });

  it('an unknown token is 498 "Invalid token."', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json&token=not-a-token` });
    expect(envelope(res)).toEqual({ code: 498, message: 'Invalid token.', details: ['Invalid token.'] });
  });

  it('an unknown token is 498 in a header too', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json`, headers: { 'X-Esri-Authorization': 'Bearer not-a-token' } });
    expect(envelope(res).code).toBe(498);
  });

  it('an unknown token is 498 on an operation anyone may call', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json&token=not-a-token` });
    expect(envelope(res).code).toBe(498);
  });

  it('a token works until its expiry and is 498 from that moment on', async () => {
    const start = now;
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/generateToken`,
      payload: { username: 'publisher1', password: 'Portal.Demo.2026', expiration: '1', f: 'json' },
    });
    const { token, expires } = res.json();
    expect(expires).toBe(start + 60_000);
    try {
      now = start + 59_999;
      const ok = await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json&token=${token}` });
      expect(ok.json().username).toBe('publisher1');
      now = start + 60_000;
      const expired = await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json&token=${token}` });
      expect(envelope(expired)).toMatchObject({ code: 498, message: 'Invalid token.' });
      now = start + 3_600_000;
      expect(envelope(await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json&token=${token}` })).code).toBe(498);
    } finally {
      now = start;
    }
  });
});

describe('writes are POST only; reads take GET and POST', () => {
  it('refuses generateToken by GET and issues no token', async () => {
    const before = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens');
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/generateToken?username=admin&password=Portal.Demo.2026&f=json` });
    const err = envelope(res);
    expect(err.code).toBe(405);
    expect(err.message).toMatch(/POST/);
    const after = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tokens');
    expect(after[0].n).toBe(before[0].n);
  });

  it('refuses updateUserRole by GET and changes nothing', async () => {
    const adminToken = await svc.tokenFor('admin');
    const res = await svc.app.inject({
      method: 'GET',
      url: `${REST}/portals/${svc.orgId}/updateUserRole?username=user1&role=org_admin&f=json&token=${adminToken}`,
    });
    expect(envelope(res).code).toBe(405);
    const [row] = await svc.db.query<{ role: string }>(`SELECT role FROM users WHERE username = 'user1'`);
    expect(row.role).toBe('org_user');
  });

  it('refuses revokeToken and createUser by GET', async () => {
    expect(envelope(await svc.app.inject({ method: 'GET', url: `${REST}/oauth2/revokeToken?auth_token=${userToken}` })).code).toBe(405);
    expect(envelope(await svc.app.inject({ method: 'GET', url: `/portaladmin/security/users/createUser?token=${userToken}` })).code).toBe(405);
    // The token was not revoked by the refused GET.
    expect((await svc.app.inject({ method: 'GET', url: `${REST}/community/self?f=json&token=${userToken}` })).json().username).toBe('user1');
  });

  it('answers reads by GET and by POST alike', async () => {
    for (const path of [
      'portals/self',
      `portals/${svc.orgId}`,
      'community/self',
      'community/users/admin',
      `portals/${svc.orgId}/users`,
      'portals/self/users/search',
    ]) {
      const get = await svc.app.inject({ method: 'GET', url: `${REST}/${path}?f=json&token=${userToken}&num=2` });
      const post = await svc.app.inject({ method: 'POST', url: `${REST}/${path}`, payload: { f: 'json', token: userToken, num: '2' } });
      expect(get.json().error, path).toBeUndefined();
      expect(post.json(), path).toEqual(get.json());
    }
  });

  it('takes list parameters from a POST body (rest-js turns long GETs into POSTs)', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/portals/self/users`,
      payload: { f: 'json', token: userToken, num: '1', start: '2', sortField: 'username' },
    });
    const body = res.json();
    expect(body.users.map((u: { username: string }) => u.username)).toEqual(['publisher1']);
    expect(body).toMatchObject({ start: 2, num: 1 });
  });
});

describe('unknown paths and unreadable requests', () => {
  it.each([
    ['GET', `${REST}/nothing/here`],
    ['POST', `${REST}/content/users/admin/doesNotExist`],
    // `/sharing/rest` itself is the documented Root (areas/root): `{currentVersion}`.
    ['GET', '/sharing/rest/'],
    ['GET', '/sharing'],
    ['GET', '/portaladmin'],
    ['GET', '/portaladmin/security/users/unknownOp'],
    ['GET', '/server/unknownServer/admin/services/unknown'],
    ['POST', '/portaladmin/security/users/unknownOp'],
    ['PUT', `${REST}/portals/self`],
    ['DELETE', `${REST}/community/self`],
  ])('%s %s is the envelope, not HTML', async (method, url) => {
    const res = await svc.app.inject({ method: method as 'GET', url, payload: method === 'GET' || method === 'DELETE' ? undefined : { f: 'json' } });
    const err = envelope(res);
    expect(err).toMatchObject({ code: 400, messageCode: 'GWM_0002', message: 'Invalid URL' });
  });

  it('API paths answer the envelope even where the built console is served', async () => {
    const clientDir = await mkdtemp(path.join(tmpdir(), 'portal-console-'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>console</title>');
    const app = await buildApp({ db: svc.db, config: svc.config, clientDir });
    try {
      for (const url of [
        `${REST}/nothing/here`,
        '/sharing/rest/',
        '/portaladmin/unknownOp',
        `${REST}/portals/self/unknown`,
        '/server/unknownServer/admin/nothing',
      ]) {
        const res = await app.inject({ method: 'GET', url });
        expect(envelope(res), url).toMatchObject({ code: 400, messageCode: 'GWM_0002' });
      }
      // The Root is JSON there too, not the console page.
      expect((await app.inject({ method: 'GET', url: '/sharing/rest?f=json' })).json()).toEqual({ currentVersion: expect.any(String) });
      const page = await app.inject({ method: 'GET', url: '/members' });
      expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
      expect(page.body).toContain('<title>console</title>');
      // The API itself is unchanged.
      expect((await app.inject({ method: 'GET', url: `${REST}/portals/self?f=json` })).json().id).toBe(svc.orgId);
    } finally {
      await app.close();
      await rm(clientDir, { recursive: true, force: true });
    }
  });

  it('a URL that cannot be decoded is the envelope too', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/community/users/%E0%A4%A` });
    expect(envelope(res).code).toBe(400);
  });

  it('a JSON body over the size limit is the envelope (413)', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/generateToken`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'admin', password: 'x'.repeat(9 * 1024 * 1024) }),
    });
    expect(envelope(res).code).toBe(413);
  });

  it('an urlencoded body over the size limit is the envelope (413)', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/generateToken`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=admin&password=${'x'.repeat(9 * 1024 * 1024)}`,
    });
    expect(envelope(res).code).toBe(413);
  });

  it('malformed JSON is the envelope (400)', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/generateToken`,
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "admin", ',
    });
    expect(envelope(res).code).toBe(400);
  });

  it('a __proto__ key in a JSON body is refused with the envelope', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/generateToken`,
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"admin","password":"x","__proto__":{"polluted":true}}',
    });
    expect(envelope(res).code).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a multipart body without its boundary is the envelope (400)', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/community/self`,
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'token=abc',
    });
    expect(envelope(res)).toMatchObject({ code: 400, message: 'The multipart body could not be read.' });
  });

  it('a truncated multipart body is the envelope (400)', async () => {
    const { payload, headers } = await multipartBody({ f: 'json', token: userToken });
    const cut = payload.subarray(0, payload.length - 20);
    const res = await svc.app.inject({ method: 'POST', url: `${REST}/community/self`, headers, payload: cut });
    expect(envelope(res)).toMatchObject({ code: 400, message: 'The multipart body could not be read.' });
  });

  it('an unsupported body type is the envelope', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `${REST}/generateToken`,
      headers: { 'content-type': 'application/xml' },
      payload: '<username>admin</username>',
    });
    expect(envelope(res).code).toBe(415);
  });
});

describe('CORS', () => {
  // The full behaviour (allow-list, preflight headers, credentials) is in http/cors.test.ts.
  it('echoes the calling origin with credentials (browsers refuse * on credentialed requests)', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json`, headers: { origin: 'http://localhost:5173' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('answers a preflight for the token headers', async () => {
    const res = await svc.app.inject({
      method: 'OPTIONS',
      url: `${REST}/community/self`,
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-esri-authorization' },
    });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/X-Esri-Authorization/i);
    expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST/);
  });
});
