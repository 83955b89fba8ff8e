import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startClientService, DEMO_PASSWORD, type ClientTestService } from '../test/service.ts';
import {
  adminUrlOf,
  ApiError,
  configureApi,
  createUser,
  describeError,
  encodeParams,
  generateToken,
  getPortal,
  getSelf,
  listMembers,
  listRoles,
  request,
  revokeToken,
  searchMembers,
  updateUserRole,
} from './index.ts';

describe('parameter encoding', () => {
  it('flattens values the way portal clients do and always asks for JSON', () => {
    const p = encodeParams({
      tags: ['a', 'b c', 'd'],
      properties: { x: 1, nested: { y: true } },
      items: [{ id: 1 }],
      on: true,
      off: false,
      zero: 0,
      empty: '',
      gone: undefined,
      nothing: null,
      when: new Date(1700000000000),
    });
    expect(p.get('tags')).toBe('a,b c,d');
    expect(p.get('properties')).toBe('{"x":1,"nested":{"y":true}}');
    expect(p.get('items')).toBe('[{"id":1}]');
    expect(p.get('on')).toBe('true');
    expect(p.get('off')).toBe('false');
    expect(p.get('zero')).toBe('0');
    expect(p.get('empty')).toBe('');
    expect(p.has('gone')).toBe(false);
    expect(p.has('nothing')).toBe(false);
    expect(p.get('when')).toBe('1700000000000');
    expect(p.get('f')).toBe('json');
  });

  it('adds the token as a parameter, unless one was given', () => {
    expect(encodeParams({}, 'T1').get('token')).toBe('T1');
    expect(encodeParams({ token: 'mine' }, 'T1').get('token')).toBe('mine');
    expect(encodeParams({}).has('token')).toBe(false);
  });

  it('derives the portal administration URL from the REST URL', () => {
    expect(adminUrlOf('https://host/portal/sharing/rest/')).toBe('https://host/portal/portaladmin');
    expect(() => adminUrlOf('https://host/portal')).toThrow(/sharing\/rest/);
  });
});

describe('request() on the wire', () => {
  const calls: { url: string; init: RequestInit }[] = [];
  const answer = (body: unknown, status = 200) =>
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });

  afterEach(() => {
    vi.unstubAllGlobals();
    calls.length = 0;
  });

  it('sends POST bodies form-encoded with f=json and the token in the body', async () => {
    vi.stubGlobal('fetch', answer({ success: true }));
    configureApi({ portalUrl: 'https://portal.example/arcgis/sharing/rest/', token: 'TOKEN-1' });
    await request('portals/abc/updateUserRole', { username: 'u', role: 'org_user', list: ['a', 'b'] }, { method: 'POST' });
    const { url, init } = calls[0];
    expect(url).toBe('https://portal.example/arcgis/sharing/rest/portals/abc/updateUserRole');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/x-www-form-urlencoded');
    const body = new URLSearchParams(String(init.body));
    expect(Object.fromEntries(body)).toEqual({ username: 'u', role: 'org_user', list: 'a,b', f: 'json', token: 'TOKEN-1' });
  });

  it('sends GET parameters and the token in the query string', async () => {
    vi.stubGlobal('fetch', answer({ username: 'x' }));
    configureApi({ portalUrl: 'https://portal.example/sharing/rest', token: 'TOKEN-2' });
    await request('community/self', { num: 5 });
    const url = new URL(calls[0].url);
    expect(url.pathname).toBe('/sharing/rest/community/self');
    expect(url.searchParams.get('f')).toBe('json');
    expect(url.searchParams.get('token')).toBe('TOKEN-2');
    expect(url.searchParams.get('num')).toBe('5');
    expect(calls[0].init.body).toBeUndefined();
  });

  it('turns a too-long GET into a POST', async () => {
    vi.stubGlobal('fetch', answer({ ok: 1 }));
    configureApi({ portalUrl: 'https://portal.example/sharing/rest' });
    await request('search', { q: 'x'.repeat(2500) });
    expect(calls[0].init.method).toBe('POST');
  });

  it('turns the HTTP 200 error envelope into an ApiError with every field', async () => {
    vi.stubGlobal(
      'fetch',
      answer({
        error: { code: 400, messageCode: 'ORG_1', message: 'Unable to create user.', details: ["'username' is taken"], fieldErrors: { username: 'is taken' } },
      }),
    );
    configureApi({ portalUrl: 'https://portal.example/sharing/rest' });
    const err = await request('x', {}, { method: 'POST' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.code).toBe(400);
    expect(e.messageCode).toBe('ORG_1');
    expect(e.message).toBe('Unable to create user.');
    expect(e.details).toEqual(["'username' is taken"]);
    expect(e.fieldErrors).toEqual({ username: 'is taken' });
    expect(e.isSessionInvalid).toBe(false);
  });

  it('marks 498 and 499 as "session invalid"', async () => {
    configureApi({ portalUrl: 'https://portal.example/sharing/rest' });
    for (const code of [498, 499]) {
      vi.stubGlobal('fetch', answer({ error: { code, message: 'Invalid token.', details: [] } }));
      const e = (await request('community/self').catch((x: unknown) => x)) as ApiError;
      expect(e.isSessionInvalid).toBe(true);
    }
  });

  it('reports unreachable portals and non-JSON answers as ApiErrors in words', async () => {
    configureApi({ portalUrl: 'https://portal.example/sharing/rest' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('fetch failed'))),
    );
    const down = (await request('community/self').catch((x: unknown) => x)) as ApiError;
    expect(down).toBeInstanceOf(ApiError);
    expect(describeError(down)).toMatch(/No answer from https:\/\/portal\.example\/sharing\/rest/);
    vi.stubGlobal('fetch', answer('<html>not a portal</html>'));
    const html = (await request('community/self').catch((x: unknown) => x)) as ApiError;
    expect(html).toBeInstanceOf(ApiError);
    expect(describeError(html)).toMatch(/did not answer with JSON/);
  });
});

describe('operations against the real service', () => {
  let svc: ClientTestService;
  let adminToken: string;

  beforeAll(async () => {
    svc = await startClientService();
    configureApi({ portalUrl: svc.restUrl });
    adminToken = (await generateToken({ username: 'admin', password: DEMO_PASSWORD })).token;
  });
  // (The test setup resets the API connection after every test.)
  beforeEach(() => configureApi({ portalUrl: svc.restUrl, token: adminToken }));
  afterAll(() => svc?.close());

  it('generateToken refuses a wrong password with the service words', async () => {
    const err = (await generateToken({ username: 'user1', password: 'not-the-password1' }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe(400);
    expect(err.message).toBe('Unable to generate token.');
    expect(describeError(err)).toBe('Invalid username or password.');
  });

  it('reads community/self and portals/self with the token', async () => {
    const self = await getSelf();
    expect(self.username).toBe('admin');
    expect(self.role).toBe('org_admin');
    expect(self.privileges).toContain('portal:admin:changeUserRoles');
    const portal = await getPortal();
    expect(portal.id).toBe(svc.orgId);
    expect(portal.name).toBe('Demo Organization');
    expect(portal.memberCount).toBe(4);
  });

  it('without a token the service says 499, which means "session invalid"', async () => {
    const err = (await getSelf({ token: null }).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe(499);
    expect(err.isSessionInvalid).toBe(true);
  });

  it('lists, sorts, filters and searches members', async () => {
    const page = await listMembers(svc.orgId, { start: 1, num: 2, sortField: 'username', sortOrder: 'desc' });
    expect(page.total).toBe(4);
    expect(page.users.map((u) => u.username)).toEqual(['viewer1', 'user1']);
    expect(page.nextStart).toBe(3);
    const publishers = await listMembers(svc.orgId, { role: 'org_publisher' });
    expect(publishers.users.map((u) => u.username)).toEqual(['publisher1']);
    const found = await searchMembers({ q: 'uma' });
    expect(found.results.map((u) => u.username)).toEqual(['user1']);
  });

  it('createUser posts to /portaladmin and reports field errors by parameter', async () => {
    const taken = (await createUser({ username: 'publisher1', password: 'Good.Pass.42', email: 'p@example.com' }).catch((e: unknown) => e)) as ApiError;
    expect(taken).toBeInstanceOf(ApiError);
    expect(taken.fieldErrors?.username).toMatch(/already taken/);
    const made = await createUser({
      username: 'api_member',
      password: 'Good.Pass.42',
      email: 'api@example.com',
      firstname: 'Api',
      lastname: '',
      role: 'org_user',
    });
    expect(made).toEqual({ status: 'success', username: 'api_member' });
  });

  it('updateUserRole changes a role', async () => {
    await expect(updateUserRole(svc.orgId, { username: 'api_member', role: 'org_publisher' })).resolves.toMatchObject({ success: true });
    const page = await listMembers(svc.orgId, { username: 'api_member' });
    expect(page.users[0].role).toBe('org_publisher');
  });

  it('listRoles either lists roles or fails as an ApiError (the console then offers base roles only)', async () => {
    const result = await listRoles(svc.orgId).then(
      (r) => r,
      (e: unknown) => e,
    );
    if (result instanceof ApiError) expect(result.code).toBeGreaterThanOrEqual(400);
    else expect(Array.isArray((result as { roles: unknown[] }).roles)).toBe(true);
  });

  it('revokeToken makes the token stop working', async () => {
    const { token } = await generateToken({ username: 'publisher1', password: DEMO_PASSWORD });
    await expect(getSelf({ token })).resolves.toMatchObject({ username: 'publisher1' });
    await expect(revokeToken(token)).resolves.toMatchObject({ success: true });
    const err = (await getSelf({ token }).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe(498);
  });
});
