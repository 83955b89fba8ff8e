/**
 * The service proxy against a real upstream HTTP server on loopback: forwarding (path, query, POST
 * body, Basic credentials, the caller's token withheld), referrer rules (exact and wildcard),
 * the rate limit at and beyond hitsPerInterval with CONT_0049, windows, visibility, and the proxy
 * URL in the owner's item view.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_OUTBOUND_ALLOW, startService, type TestService } from '../../../../test/support/service.ts';
import { forwardedPath, isActiveType, referrerMatches } from './routes.ts';

let svc: TestService;
let token: string;
let clockNow = Date.UTC(2026, 0, 1);
let upstream: http.Server;
let upstreamBase: string;
const seen: { method: string; url: string; auth?: string; body: string }[] = [];

beforeAll(async () => {
  svc = await startService({ clock: { now: () => clockNow } });
  token = await svc.tokenFor('user1');
  upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      // `?as=<type>` answers an active body of that type (`?as=none`: without a type), as a hostile service would.
      const as = new URL(req.url!, 'http://x').searchParams.get('as');
      if (as === 'none') return res.end('<script>parent.postMessage(localStorage.getItem("token"), "*")</script>');
      if (as)
        return res.writeHead(200, { 'content-type': as, 'content-disposition': 'inline' }).end('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, url: req.url }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => upstream.close(() => r()));
  await svc.close();
});
beforeEach(() => {
  seen.length = 0;
  clockNow += 60_000;
});

async function addProxied(service: object, extra: Record<string, string> = {}) {
  const res = await svc.app.inject({
    method: 'POST',
    url: '/sharing/rest/content/users/user1/addItem',
    payload: {
      f: 'json',
      token,
      title: 'Secured',
      type: 'Map Service',
      url: `${upstreamBase}/arcgis/rest/services/x/MapServer`,
      service: JSON.stringify(service),
      ...extra,
    },
  });
  const body = res.json();
  expect(body.success, JSON.stringify(body)).toBe(true);
  await svc.db.query(`UPDATE items SET access = 'public' WHERE id = $1`, [body.id]);
  return body as { id: string; proxyUrl: string };
}

const proxyPath = (id: string, rest = '') => `/sharing/rest/content/items/${id}/proxy${rest}`;

describe('referrerMatches', () => {
  it.each([
    ['https://*.example.com', 'https://a.example.com/page', true],
    ['https://*.example.com', 'https://a.b.example.com/', true],
    ['https://*.example.com', 'https://example.com/', false],
    ['https://*.example.com', 'http://a.example.com/', false],
    ['https://*.example.com', 'https://evilexample.com/', false],
    ['https://*.example.com', 'https://a.example.com.evil.org/', false],
    ['https://*.example.com', 'https://a.example.com:8443/', false],
    ['https://app.example.com', 'https://app.example.com/any/page', true],
    ['https://app.example.com', 'https://APP.example.com/', true],
    ['https://app.example.com', 'https://app.example.com.evil.org/', false],
    ['https://app.example.com/maps', 'https://app.example.com/maps/1', true],
    ['https://app.example.com/maps', 'https://app.example.com/mapsx', false],
    ['https://app.example.com', 'not a url', false],
  ])('%s vs %s → %s', (pattern, referer, ok) => {
    expect(referrerMatches(pattern, referer)).toBe(ok);
  });
});

describe('forwarding', () => {
  it('GET with path and query goes to the item url with Basic credentials; the caller’s token is not passed on', async () => {
    const item = await addProxied({ hitsPerInterval: 100 }, { serviceUsername: 'svcuser', servicePassword: 'pw:1' });
    expect(item.proxyUrl).toMatch(new RegExp(`${proxyPath(item.id)}$`));
    const res = await svc.app.inject({ method: 'GET', url: `${proxyPath(item.id, '/0/query')}?where=1%3D1&f=json&token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, url: '/arcgis/rest/services/x/MapServer/0/query?where=1%3D1&f=json' });
    expect(seen[0]).toMatchObject({ method: 'GET', auth: `Basic ${Buffer.from('svcuser:pw:1').toString('base64')}` });
  });

  it('POST forwards the form body without the token', async () => {
    const item = await addProxied({ hitsPerInterval: 100 });
    const res = await svc.app.inject({ method: 'POST', url: proxyPath(item.id, '/query'), payload: { where: 'a=1', token, f: 'json' } });
    expect(res.json().ok).toBe(true);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/arcgis/rest/services/x/MapServer/query', auth: undefined });
    expect(new URLSearchParams(seen[0].body).get('where')).toBe('a=1');
    expect(new URLSearchParams(seen[0].body).has('token')).toBe(false);
  });

  it('an item without a proxy, or not visible to the caller, is refused', async () => {
    const plain = (
      await svc.app.inject({
        method: 'POST',
        url: '/sharing/rest/content/users/user1/addItem',
        payload: { f: 'json', token, title: 'Plain', type: 'Map Service', url: upstreamBase },
      })
    ).json();
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(plain.id, '/x') })).json().error.code).toBe(400);
    const item = await addProxied({ hitsPerInterval: 100 });
    await svc.db.query(`UPDATE items SET access = 'private' WHERE id = $1`, [item.id]);
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().error.messageCode).toBe('CONT_0001');
    expect((await svc.app.inject({ method: 'GET', url: `${proxyPath(item.id)}?token=${token}` })).json().ok).toBe(true);
    expect(seen).toHaveLength(1);
  });
});

describe("the proxy URL in the owner's item view", () => {
  const ownerView = async (id: string, as: string) =>
    (await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/users/user1/items/${id}?f=json&token=${await svc.tokenFor(as)}` })).json();

  it('the owner and an administrator of the org read the proxy URL addItem answered, and it forwards', async () => {
    const item = await addProxied({ hitsPerInterval: 100 }, { serviceUsername: 'svcuser', servicePassword: 'secret-pw' });
    const mine = await ownerView(item.id, 'user1');
    expect(mine.proxyUrl).toBe(item.proxyUrl);
    expect((await ownerView(item.id, 'admin')).proxyUrl).toBe(item.proxyUrl);
    // Neither view gives the stored credentials away.
    expect(JSON.stringify(mine)).not.toContain('secret-pw');
    const res = await svc.app.inject({ method: 'GET', url: `${new URL(mine.proxyUrl).pathname}/0?f=json` });
    expect(res.json()).toEqual({ ok: true, url: '/arcgis/rest/services/x/MapServer/0?f=json' });
  });

  it('other members, other orgs and the public item record do not show it; an item without a proxy has none', async () => {
    const item = await addProxied({ hitsPerInterval: 100 });
    // Another organization's admin is told the owner does not exist for them (the user-path answer).
    for (const [other, code] of [
      ['publisher1', 403],
      ['viewer1', 403],
      ['partner_admin', 400],
    ] as const) {
      const body = await ownerView(item.id, other);
      expect(body.error?.code, other).toBe(code);
      expect(JSON.stringify(body)).not.toContain('/proxy');
    }
    const publicRecord = (await svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${item.id}?f=json&token=${token}` })).json();
    expect(publicRecord.id).toBe(item.id);
    expect(JSON.stringify(publicRecord)).not.toContain('/proxy');
    const plain = (
      await svc.app.inject({
        method: 'POST',
        url: '/sharing/rest/content/users/user1/addItem',
        payload: { f: 'json', token, title: 'Plain', type: 'Map Service', url: upstreamBase },
      })
    ).json();
    const plainView = await ownerView(plain.id, 'user1');
    expect(plainView.item.id).toBe(plain.id);
    expect(plainView).not.toHaveProperty('proxyUrl');
  });
});

describe('referrers', () => {
  it('a matching Referer passes; a mismatching or missing one is 403 and nothing is forwarded', async () => {
    const item = await addProxied({ hitsPerInterval: 100, referrers: ['https://*.example.com', 'http://app.test'] });
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id), headers: { referer: 'https://maps.example.com/page' } })).json().ok).toBe(true);
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id), headers: { referer: 'http://app.test/x' } })).json().ok).toBe(true);
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id), headers: { referer: 'https://example.org/' } })).json().error.code).toBe(403);
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().error.code).toBe(403);
    expect(seen).toHaveLength(2);
  });
});

describe('rate limit', () => {
  it('hitsPerInterval requests pass, the next is 429 CONT_0049 "retry later"; a new window passes again', async () => {
    const item = await addProxied({ hitsPerInterval: 3, intervalSeconds: 10 });
    clockNow = Math.floor(clockNow / 10_000) * 10_000;
    for (let i = 0; i < 3; i++) expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().ok).toBe(true);
    const limited = (await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json();
    expect(limited.error).toMatchObject({ code: 429, messageCode: 'CONT_0049' });
    expect(limited.error.message).toMatch(/retry later/i);
    expect(seen).toHaveLength(3);
    clockNow += 9_999;
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().error.code).toBe(429);
    clockNow += 1;
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().ok).toBe(true);
  });

  it('the default interval is 60 seconds', async () => {
    const item = await addProxied({ hitsPerInterval: 1 });
    clockNow = Math.floor(clockNow / 60_000) * 60_000;
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().ok).toBe(true);
    clockNow += 59_999;
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().error.code).toBe(429);
    clockNow += 1;
    expect((await svc.app.inject({ method: 'GET', url: proxyPath(item.id) })).json().ok).toBe(true);
  });
});

describe('outbound guard', () => {
  it('with private outbound off, a proxy to loopback is refused', async () => {
    const strict = await startService({ config: { outboundAllow: NO_OUTBOUND_ALLOW } });
    try {
      const t = await strict.tokenFor('user1');
      const body = (
        await strict.app.inject({
          method: 'POST',
          url: '/sharing/rest/content/users/user1/addItem',
          payload: { f: 'json', token: t, title: 'S', type: 'Map Service', url: `${upstreamBase}/MapServer`, service: '{"hitsPerInterval":5}' },
        })
      ).json();
      const res = (await strict.app.inject({ method: 'GET', url: `${proxyPath(body.id)}?token=${t}` })).json();
      expect(res.error.code).toBe(403);
      expect(res.error.details[0]).toMatch(/loopback/);
      expect(seen).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe("nothing active on the portal's origin", () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['image/svg+xml', true],
    ['application/xhtml+xml', true],
    ['text/xml', true],
    ['application/xml', true],
    ['application/atom+xml', true],
    ['application/javascript', true],
    ['text/javascript; charset=utf-8', true],
    ['application/x-javascript', true],
    ['application/ecmascript', true],
    ['TEXT/HTML', true],
    ['application/json', false],
    ['image/png', false],
    ['application/pdf', false],
  ])('an upstream %s body: sandboxed, not sniffed, attachment: %s', async (type, attachment) => {
    const item = await addProxied({ hitsPerInterval: 100 });
    const res = await svc.app.inject({ method: 'GET', url: `${proxyPath(item.id, '/0')}?as=${encodeURIComponent(type)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    if (attachment) expect(res.headers['content-disposition']).toBe('attachment');
    else expect(res.headers['content-disposition']).toBe('inline');
    expect(isActiveType(type)).toBe(attachment);
  });

  it('a body without a type is served as application/octet-stream; JSON answers carry the same headers', async () => {
    const item = await addProxied({ hitsPerInterval: 100 });
    const untyped = await svc.app.inject({ method: 'GET', url: `${proxyPath(item.id)}?as=none` });
    expect(untyped.headers['content-type']).toBe('application/octet-stream');
    expect(untyped.headers['content-security-policy']).toBe('sandbox');
    const json = await svc.app.inject({ method: 'GET', url: proxyPath(item.id, '/0') });
    expect(json.json().ok).toBe(true);
    expect(json.headers).toMatchObject({ 'content-security-policy': 'sandbox', 'x-content-type-options': 'nosniff' });
    expect(json.headers['content-disposition']).toBeUndefined();
  });
});

describe('encoded traversal', () => {
  /** A request sent byte for byte (no client normalises its path), answered as parsed JSON. */
  function rawGet(base: string, path: string): Promise<{ status: number; body: any }> {
    const { hostname, port } = new URL(base);
    return new Promise((resolve, reject) => {
      const r = http.request({ host: hostname, port, path, method: 'GET' }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) }));
      });
      r.on('error', reject);
      r.end();
    });
  }

  const refused = [
    '/..%2f..%2fadmin',
    '/..%2F..%2Fadmin',
    '/%2e%2e/%2e%2e/admin',
    '/%2E%2E%2Fadmin',
    '/%2e./admin',
    '/.%2e/admin',
    '/../../../admin',
    '/./0',
    '/x/..',
    '/..\\admin',
    '/..%5cadmin',
    '/a%5Cb',
    '/%252e%252e/%252e%252e/admin',
    '/a%252fb',
    '/%25252e%25252e/admin',
    '/a%00b',
    '/%E0%A4%A',
  ];

  it.each(refused)('%s is refused with 400 before anything is forwarded (the stored credentials stay home)', async (rest) => {
    const item = await addProxied({ hitsPerInterval: 100 }, { serviceUsername: 'svcuser', servicePassword: 'secret' });
    const base = svc.restUrl || (await svc.listen());
    const res = await rawGet(base, `${new URL(base).pathname}/content/items/${item.id}/proxy${rest}?f=json`);
    expect(res.status).toBe(200);
    // Malformed percent-encoding is already refused by the router (GWM_0002 "Invalid URL").
    expect(res.body.error, JSON.stringify(res.body)).toMatchObject({ code: 400, message: rest === '/%E0%A4%A' ? 'Invalid URL' : 'Invalid proxy path.' });
    expect(seen).toEqual([]);
  });

  it('the path is forwarded as it was sent, encoded slashes and all; plain names with dots pass', async () => {
    const item = await addProxied({ hitsPerInterval: 100 });
    for (const [rest, forwarded] of [
      ['/0/query', '/0/query'],
      ['/a%2Fb', '/a%2Fb'],
      ['/file.json', '/file.json'],
      ['/a%20b/..c/c..', '/a%20b/..c/c..'],
      ['/a%252b', '/a%252b'],
    ]) {
      const res = await svc.app.inject({ method: 'GET', url: proxyPath(item.id, rest) });
      expect(res.json().url, rest).toBe(`/arcgis/rest/services/x/MapServer${forwarded}`);
    }
  });

  it('forwardedPath reads only what follows /proxy', () => {
    expect(forwardedPath('/sharing/rest/content/items/abc/proxy')).toBe('');
    expect(forwardedPath('/sharing/rest/content/items/abc/proxy/0/query?where=..%2f')).toBe('/0/query');
    expect(() => forwardedPath('/sharing/rest/content/items/abc/proxy/%2e%2e')).toThrow('Invalid proxy path.');
  });
});
