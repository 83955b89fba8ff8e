/**
 * CORS with credentials (issue 28 item 1): an allowed Origin is echoed with
 * Access-Control-Allow-Credentials, preflights included; the organization's `allowedOrigins`
 * narrows who is allowed; and no cookie ever authenticates a REST request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { ALLOWED_ORIGINS_TTL_MS } from '../areas/portals/allowedOrigins.ts';
import { syncConsoleApp } from '../areas/oauth/consoleApp.ts';
import { MAX_ALLOWED_ORIGINS } from '../../shared/contract/allowedOrigins.ts';

const REST = '/sharing/rest';
const APP = 'http://localhost:5173';
const OTHER = 'http://127.0.0.1:8081';

let svc: TestService;
let admin: string;
let now = Date.now();

beforeAll(async () => {
  // A clock the test moves: the kept allow-list is read again once it is ALLOWED_ORIGINS_TTL_MS old.
  svc = await startService({ clock: { now: () => now } });
  admin = await svc.tokenFor('admin');
});
afterAll(() => svc?.close());

const get = (path: string, headers: Record<string, string>) => svc.app.inject({ method: 'GET', url: `${REST}/${path}`, headers });
const preflight = (origin: string, requestHeaders?: string) =>
  svc.app.inject({
    method: 'OPTIONS',
    url: `${REST}/portals/self`,
    headers: { origin, 'access-control-request-method': 'GET', ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}) },
  });

async function setAllowedOrigins(value: string) {
  return svc.post(`portals/${svc.orgId}/update`, { allowedOrigins: value }, admin);
}

describe('every origin allowed (the default)', () => {
  it('echoes the Origin with credentials and Vary: Origin on a simple request', async () => {
    const res = await get('portals/self?f=json', { origin: APP });
    expect(res.json().allowedOrigins).toEqual([]);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers.vary)).toMatch(/\bOrigin\b/);
  });

  it('echoes on error envelopes too (the browser must let the page read the error)', async () => {
    const res = await get('community/self?f=json', { origin: OTHER });
    expect(res.json().error.code).toBe(499);
    expect(res.headers['access-control-allow-origin']).toBe(OTHER);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it('answers without CORS headers when no Origin is sent', async () => {
    const res = await get('portals/self?f=json', {});
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('gives an opaque origin (null) uncredentialed access only', async () => {
    const res = await get('portals/self?f=json', { origin: 'null' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers a preflight echoing the requested headers that are allowed, and only those', async () => {
    const res = await preflight(
      APP,
      'x-esri-authorization, authorization, X-Esri-Request-Source, content-type, x-requested-with, cache-control, pragma, x-evil',
    );
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(['GET', 'POST', 'OPTIONS']);
    const allowed = String(res.headers['access-control-allow-headers']).split(/,\s*/);
    expect(allowed).toEqual(['X-Esri-Authorization', 'Authorization', 'X-Esri-Request-Source', 'Content-Type', 'X-Requested-With', 'Cache-Control', 'Pragma']);
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(String(res.headers.vary)).toMatch(/Origin/);
    expect(String(res.headers.vary)).toMatch(/Access-Control-Request-Headers/);
  });

  it('lists the accepted headers when a preflight names none', async () => {
    const allowed = String((await preflight(APP)).headers['access-control-allow-headers']);
    expect(allowed).toMatch(/Authorization/);
    expect(allowed).toMatch(/X-Esri-Authorization/);
  });
});

/**
 * Copy to… between two portals: the console served by one portal (its origin) calls the other for
 * every operation the copy uses (src/client/features/copy/portal.ts and sharing.ts), with the token
 * in X-Esri-Authorization, multipart bodies for addItem, update and the resources, and form posts
 * for the rest. Each of those must pass the browser's preflight from a console on another port.
 */
describe('the operations Copy to… uses, preflighted from a console on another loopback port', () => {
  const CONSOLE = 'http://127.0.0.1:3531';
  const item = 'a'.repeat(32);
  const group = 'b'.repeat(32);
  const operations: [method: 'GET' | 'POST', path: string, headers: string][] = [
    ['GET', 'search', 'x-esri-authorization, content-type'],
    ['POST', 'generateToken', 'content-type'],
    ['GET', 'community/self', 'x-esri-authorization'],
    ['GET', 'portals/self', 'x-esri-authorization'],
    ['GET', `content/items/${item}`, 'x-esri-authorization'],
    ['GET', `content/items/${item}/data`, 'x-esri-authorization'],
    ['GET', `content/items/${item}/info/thumbnail/t.png`, 'x-esri-authorization'],
    ['GET', `content/items/${item}/resources`, 'x-esri-authorization'],
    ['GET', `content/items/${item}/resources/notes/readme.txt`, 'x-esri-authorization'],
    ['GET', `content/items/${item}/relatedItems`, 'x-esri-authorization'],
    ['POST', `content/items/${item}/groups`, 'x-esri-authorization, content-type'],
    ['POST', 'content/users/admin/addItem', 'x-esri-authorization, content-type'],
    ['POST', `content/users/admin/items/${item}/update`, 'x-esri-authorization, content-type'],
    ['POST', `content/users/admin/items/${item}/addResources`, 'x-esri-authorization, content-type'],
    ['POST', `content/users/admin/items/${item}/updateResources`, 'x-esri-authorization, content-type'],
    ['POST', `content/users/admin/items/${item}/share`, 'x-esri-authorization, content-type'],
    ['POST', `content/users/admin/items/${item}/delete`, 'x-esri-authorization, content-type'],
    ['POST', 'content/users/admin/addRelationship', 'x-esri-authorization, content-type'],
    ['GET', 'community/groups', 'x-esri-authorization'],
    ['POST', 'community/createGroup', 'x-esri-authorization, content-type'],
    ['POST', `community/groups/${group}/delete`, 'x-esri-authorization, content-type'],
  ];

  it.each(operations)('%s %s', async (method, path, requested) => {
    const res = await svc.app.inject({
      method: 'OPTIONS',
      url: `${REST}/${path}`,
      headers: { origin: CONSOLE, 'access-control-request-method': method, 'access-control-request-headers': requested },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toContain(method);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    for (const h of requested.split(/,\s*/)) expect(allowed).toContain(h);
  });

  it('lets the page read the answers too, errors included (an item that is not there)', async () => {
    const res = await get(`content/items/${item}/data`, { origin: CONSOLE, 'x-esri-authorization': `Bearer ${admin}` });
    expect(res.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(res.json().error.code).toBe(400);
  });
});

describe('an allow-list (portals/<orgId>/update allowedOrigins)', () => {
  afterAll(() => setAllowedOrigins(''));

  it('is stored normalised, answered by portals/self as an array, and honoured at once', async () => {
    expect(await setAllowedOrigins(`${APP}, HTTPS://LOCALHOST:8443, ${APP}, https://127.0.0.1:443`)).toEqual({ success: true });
    const self = await svc.post('portals/self', {}, admin);
    expect(self.allowedOrigins).toEqual([APP, 'https://localhost:8443', 'https://127.0.0.1']);

    const allowed = await get('portals/self?f=json', { origin: APP });
    expect(allowed.headers['access-control-allow-origin']).toBe(APP);
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect((await get('portals/self?f=json', { origin: 'https://localhost:8443' })).headers['access-control-allow-origin']).toBe('https://localhost:8443');
  });

  it('refuses other origins: no Access-Control-Allow-* header on answers or preflights', async () => {
    const refused = await get('portals/self?f=json', { origin: OTHER });
    expect(refused.json().id).toBe(svc.orgId); // the answer itself is the same; the browser keeps it from the page
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(refused.headers.vary)).toMatch(/Origin/);

    const pre = await preflight(OTHER, 'authorization');
    expect(pre.statusCode).toBe(204);
    for (const h of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-headers', 'access-control-allow-methods']) {
      expect(pre.headers[h], h).toBeUndefined();
    }
    // Another port of an allowed host is another origin; so is an opaque one.
    expect((await get('portals/self?f=json', { origin: 'http://localhost:5174' })).headers['access-control-allow-origin']).toBeUndefined();
    expect((await get('portals/self?f=json', { origin: 'null' })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('follows a change made by another process sharing the database once the kept list is a few seconds old', async () => {
    // Another instance's update: the row changes, this process is not told.
    await svc.db.query(`UPDATE organizations SET settings = settings || $2::jsonb WHERE id = $1`, [svc.orgId, JSON.stringify({ allowedOrigins: [OTHER] })]);
    expect((await get('portals/self?f=json', { origin: OTHER })).headers['access-control-allow-origin']).toBeUndefined();
    now += ALLOWED_ORIGINS_TTL_MS + 1;
    expect((await get('portals/self?f=json', { origin: OTHER })).headers['access-control-allow-origin']).toBe(OTHER);
    expect((await get('portals/self?f=json', { origin: APP })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an empty value allows every origin again', async () => {
    await setAllowedOrigins('');
    expect((await svc.post('portals/self', {}, admin)).allowedOrigins).toEqual([]);
    expect((await get('portals/self?f=json', { origin: 'http://localhost:9999' })).headers['access-control-allow-origin']).toBe('http://localhost:9999');
  });

  it('a JSON array is accepted too', async () => {
    await setAllowedOrigins(JSON.stringify([OTHER]));
    expect((await svc.post('portals/self', {}, admin)).allowedOrigins).toEqual([OTHER]);
    await setAllowedOrigins('');
  });
});

describe('allowedOrigins validation', () => {
  it.each([
    ['a path', 'http://localhost:5173/app', /no path/],
    ['a trailing slash', 'http://localhost:5173/', /trailing slash/],
    ['a query', 'http://localhost:5173?x=1', /query/],
    ['no scheme', 'localhost:5173', /http/],
    ['another scheme', 'ftp://localhost', /http:\/\/ or https:\/\//],
    ['a wildcard', 'https://*.localhost', /wildcard/],
    ['credentials', 'http://user:pw@localhost', /credentials/],
    ['not a URL', 'not an origin', /scheme:\/\/host/],
  ])('refuses %s, naming the field and the entry', async (_label, value, message) => {
    const body = await setAllowedOrigins(`${APP},${value}`);
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.details.join(' ')).toMatch(/'allowedOrigins'/);
    expect(body.error.details.join(' ')).toContain(value);
    expect(body.error.details.join(' ')).toMatch(message);
    expect(body.error.fieldErrors?.allowedOrigins).toMatch(message);
    // Nothing was stored.
    expect((await svc.post('portals/self', {}, admin)).allowedOrigins).toEqual([]);
  });

  it(`refuses more than ${MAX_ALLOWED_ORIGINS} origins`, async () => {
    const many = Array.from({ length: MAX_ALLOWED_ORIGINS + 1 }, (_, i) => `http://127.0.0.1:${10000 + i}`).join(',');
    const body = await setAllowedOrigins(many);
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.details[0]).toMatch(new RegExp(`'allowedOrigins' must list at most ${MAX_ALLOWED_ORIGINS} origins`));
    const exactly = Array.from({ length: MAX_ALLOWED_ORIGINS }, (_, i) => `http://127.0.0.1:${10000 + i}`).join(',');
    expect(await setAllowedOrigins(exactly)).toEqual({ success: true });
    await setAllowedOrigins('');
  });

  it('is an organization setting: a member without the privilege cannot change it', async () => {
    const body = await svc.post(`portals/${svc.orgId}/update`, { allowedOrigins: OTHER }, await svc.tokenFor('user1'));
    expect(body.error).toMatchObject({ code: 403 });
    expect((await svc.post('portals/self', {}, admin)).allowedOrigins).toEqual([]);
  });
});

describe('LOCAL_EXTRAS=off', () => {
  it('still answers CORS with credentials', async () => {
    const plain = await startService({ config: { localExtras: false } });
    try {
      const res = await plain.app.inject({ method: 'GET', url: `${REST}/portals/self?f=json`, headers: { origin: APP } });
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      const pre = await plain.app.inject({
        method: 'OPTIONS',
        url: `${REST}/community/self`,
        headers: { origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-esri-authorization' },
      });
      expect(pre.statusCode).toBe(204);
      expect(pre.headers['access-control-allow-headers']).toBe('X-Esri-Authorization');
    } finally {
      await plain.close();
    }
  });
});

describe('cookies never authenticate', () => {
  it("the OAuth sign-in page's cookie, or a cookie holding a valid token, leaves a request anonymous", async () => {
    // A real binding cookie: open the console app's sign-in page.
    const clientId = await syncConsoleApp(svc.app.portal, 3000);
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: String(clientId),
      redirect_uri: 'http://127.0.0.1:3000/oauth-callback',
      response_type: 'code',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const page = await svc.app.inject({ method: 'GET', url: `${REST}/oauth2/authorize?${query}` });
    expect(page.statusCode).toBe(200);
    const binding = /portal_oauth_binding=[^;]+/.exec(String(page.headers['set-cookie']))?.[0];
    expect(binding).toBeDefined();

    // The cookies a browser would send along with credentials: ours, and ArcGIS-style ones carrying a real token.
    const cookie = `${binding}; esri_auth=${encodeURIComponent(JSON.stringify({ token: admin }))}; token=${admin}; esri_aopc=${admin}`;
    const self = await get('community/self?f=json', { cookie, origin: APP });
    expect(self.json().error).toMatchObject({ code: 499 });
    const portal = await get('portals/self?f=json', { cookie, origin: APP });
    expect(portal.json().id).toBe(svc.orgId);
    expect(portal.json().user).toBeUndefined();
    // The same requests with the token itself are the admin's: the cookie was the only thing missing.
    expect((await get('community/self?f=json', { cookie, authorization: `Bearer ${admin}` })).json().username).toBe('admin');
  });
});
