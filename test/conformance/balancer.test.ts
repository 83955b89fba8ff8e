/**
 * The scale-out check's own tools: the round-robin balancer (scripts/balancer.ts) against plain
 * loopback servers, and — with a PostgreSQL (DATABASE_URL) — two portal instances starting at the
 * same moment on an empty schema (test/support/cluster.ts), as an operator's cluster does after
 * a deployment.
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBalancer, type Balancer } from '../../scripts/balancer.ts';
import { startCluster } from '../support/cluster.ts';
import { DEMO_PASSWORD } from '../support/service.ts';

interface Seen {
  backend: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodySha: string;
  bodyBytes: number;
}

const seen: Seen[] = [];
const backends: Server[] = [];
let balancer: Balancer;

/** A backend that hashes what it received and answers with its number, echoing the body on /echo. */
function backend(n: number): Server {
  return createServer((req, res) => {
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      hash.update(c);
      bytes += c.length;
      if (req.url === '/echo') chunks.push(c);
    });
    req.on('end', () => {
      seen.push({ backend: n, method: req.method!, url: req.url!, headers: req.headers, bodySha: hash.digest('hex'), bodyBytes: bytes });
      if (req.url === '/echo') res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-backend': String(n) }).end(Buffer.concat(chunks));
      else res.writeHead(201, { 'x-backend': String(n), 'set-cookie': ['a=1', 'b=2'] }).end(`backend ${n}`);
    });
  });
}

beforeAll(async () => {
  for (const n of [1, 2]) {
    const server = backend(n);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    backends.push(server);
  }
  balancer = await startBalancer(backends.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`));
});
afterAll(async () => {
  await balancer.close();
  await Promise.all(backends.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('the round-robin balancer', () => {
  it('sends each request to the next backend in turn and passes status, headers and body back', async () => {
    seen.length = 0;
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${balancer.url}/sharing/rest/info?f=json`, { headers: { 'x-custom': 'kept' } });
      answers.push({ status: res.status, backend: res.headers.get('x-backend'), cookies: res.headers.getSetCookie(), body: await res.text() });
    }
    expect(answers.map((a) => a.backend)).toEqual(['1', '2', '1', '2']);
    expect(answers[0]).toEqual({ status: 201, backend: '1', cookies: ['a=1', 'b=2'], body: 'backend 1' });
    expect(seen.map((s) => s.url)).toEqual(Array(4).fill('/sharing/rest/info?f=json'));
    expect(seen[0].headers['x-custom']).toBe('kept');
  });

  it('adds X-Forwarded-For (appended to one already there), -Proto and -Host', async () => {
    seen.length = 0;
    const host = new URL(balancer.url).host;
    await fetch(`${balancer.url}/a`, { headers: { 'x-forwarded-for': '127.0.0.9' } }).then((r) => r.text());
    await fetch(`${balancer.url}/b`).then((r) => r.text());
    expect(seen[0].headers).toMatchObject({ 'x-forwarded-for': '127.0.0.9, 127.0.0.1', 'x-forwarded-proto': 'http', 'x-forwarded-host': host });
    expect(seen[1].headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('streams a large body both ways unchanged, for every method', async () => {
    seen.length = 0;
    const body = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 4096) body[i] = i % 251;
    const sha = createHash('sha256').update(body).digest('hex');
    for (const method of ['POST', 'PUT']) {
      const res = await fetch(`${balancer.url}/echo`, { method, body });
      expect(
        createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex'),
      ).toBe(sha);
    }
    expect(seen.map((s) => [s.method, s.bodyBytes, s.bodySha])).toEqual([
      ['POST', body.length, sha],
      ['PUT', body.length, sha],
    ]);
  });

  it('drops hop-by-hop headers, including those the Connection header names', async () => {
    seen.length = 0;
    // fetch sets Connection itself; a raw request can name a header in it.
    await new Promise<void>((resolve, reject) => {
      const { port } = new URL(balancer.url);
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/c', headers: { connection: 'keep-alive, x-hop', 'x-hop': 'secret', 'x-end': 'kept' } },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(seen[0].headers['x-hop']).toBeUndefined();
    expect(seen[0].headers['x-end']).toBe('kept');
  });

  it('answers 502 in the API error envelope when a backend cannot be reached', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise((resolve) => dead.close(resolve));
    const lonely = await startBalancer([deadUrl]);
    try {
      const res = await fetch(`${lonely.url}/sharing/rest/info?f=json`);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 502, message: expect.stringContaining('could not be reached') });
      expect(body.error.details).toHaveLength(1);
    } finally {
      await lonely.close();
    }
  });

  it('can listen before its backends are known: 503 in the error envelope until setBackends', async () => {
    const early = await startBalancer([], { backendsLater: true });
    try {
      const before = await fetch(`${early.url}/first`);
      expect(before.status).toBe(503);
      expect((await before.json()).error).toMatchObject({ code: 503, message: expect.stringContaining('No backend') });
      early.setBackends(backends.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`));
      seen.length = 0;
      const after = await fetch(`${early.url}/second`);
      expect(after.status).toBe(201);
      expect(seen.map((s) => s.url)).toEqual(['/second']);
      expect(() => early.setBackends([])).toThrow(/at least one backend/);
    } finally {
      await early.close();
    }
  });

  it('refuses no backends or a backend that is not http://', async () => {
    await expect(startBalancer([])).rejects.toThrow(/at least one backend/);
    await expect(startBalancer(['https://127.0.0.1:1'])).rejects.toThrow(/not an http:\/\/ URL/);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two instances starting together on an empty schema', () => {
  it('both come up, one seeds, and a sign-in works through either', { timeout: 120_000 }, async () => {
    const cluster = await startCluster({ together: true });
    try {
      const starts = cluster.instances.map((i) => i.output());
      // Exactly one of them created the organization.
      expect(starts.filter((o) => o.includes('first start: organization created'))).toHaveLength(1);
      for (const instance of cluster.instances) {
        const res = await fetch(`${instance.origin}/sharing/rest/generateToken`, {
          method: 'POST',
          body: new URLSearchParams({ username: 'user1', password: DEMO_PASSWORD, f: 'json' }),
        });
        expect((await res.json()).token).toEqual(expect.any(String));
      }
    } finally {
      await cluster.close();
    }
  });
});
