/**
 * The SSRF guard: address classification at the edges of every blocked range, URL checks
 * (schemes, credentials, metadata hosts, resolution), redirects not followed, time limits, and the
 * setting that allows private addresses.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, classifyAddress, OutboundRefused, outboundRequest } from './outbound.ts';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.255', 'loopback'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['100.64.0.1', 'shared'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fdff:ffff::1', 'private'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:7f00:1', 'loopback'],
  ])('%s is refused as %s', (ip, kind) => {
    expect(classifyAddress(ip)).toContain(kind);
  });

  it.each(['8.8.8.8', '9.255.255.255', '11.0.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '169.253.255.255', '169.255.0.0', '223.255.255.255', '1.1.1.1', '2606:4700:4700::1111', 'fbff::1', 'fec0::1'.replace('fec0', '2001:4860'), '::ffff:8.8.8.8'])(
    '%s is public',
    (ip) => {
      expect(classifyAddress(ip)).toBeNull();
    },
  );

  it('a name is not an address', () => {
    expect(classifyAddress('example.com')).not.toBeNull();
  });
});

describe('checkOutboundUrl', () => {
  const strict = { allowPrivateOutbound: false };
  const lenient = { allowPrivateOutbound: true };

  it('only http and https, without embedded credentials', async () => {
    for (const url of ['ftp://8.8.8.8/x', 'file:///etc/passwd', 'gopher://8.8.8.8/', 'not a url']) await expect(checkOutboundUrl(url, lenient)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(checkOutboundUrl('http://user:pw@8.8.8.8/', lenient)).rejects.toThrow(/credentials/);
    await expect(checkOutboundUrl('https://8.8.8.8/x', strict)).resolves.toMatchObject({ address: '8.8.8.8', family: 4 });
  });

  it('loopback names and addresses are refused unless private outbound is allowed', async () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://localhost/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.5/', 'http://0.0.0.0/']) {
      await expect(checkOutboundUrl(url, strict)).rejects.toThrow(/not allowed/);
    }
    await expect(checkOutboundUrl('http://127.0.0.1:8080/', lenient)).resolves.toMatchObject({ address: '127.0.0.1' });
  });

  it('metadata host names are refused', async () => {
    await expect(checkOutboundUrl('http://metadata.google.internal/computeMetadata/v1/', strict)).rejects.toThrow(/metadata/);
  });

  it('a name that does not resolve is refused with the reason', async () => {
    await expect(checkOutboundUrl('http://no-such-host.invalid/', strict)).rejects.toThrow(/could not be resolved/);
  });
});

describe('requests', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      if (req.url === '/port') return void res.end(`port ${req.socket.remotePort}`);
      res.end(`hello ${req.headers.host}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('a loopback URL is refused when the setting is off, fetched when on', async () => {
    await expect(outboundRequest(`${base}/`, { allowPrivateOutbound: false })).rejects.toBeInstanceOf(OutboundRefused);
    const res = await outboundRequest(`${base}/`, { allowPrivateOutbound: true });
    expect(res.status).toBe(200);
    let text = '';
    for await (const chunk of res.body) text += chunk;
    expect(text).toBe(`hello ${base.slice(7)}`);
  });

  it('connects to the checked address even for a name (localhost), sending the name as Host', async () => {
    const port = base.split(':')[2];
    const res = await outboundRequest(`http://localhost:${port}/`, { allowPrivateOutbound: true });
    let text = '';
    for await (const chunk of res.body) text += chunk;
    expect(text).toBe(`hello localhost:${port}`);
  });

  it('redirects are not followed', async () => {
    const res = await outboundRequest(`${base}/redirect`, { allowPrivateOutbound: true });
    expect(res.status).toBe(302);
    res.body.resume();
  });

  const read = async (res: Awaited<ReturnType<typeof outboundRequest>>) => {
    let text = '';
    for await (const chunk of res.body) text += chunk;
    return text;
  };

  it('keepAlive reuses the connection to the checked address; without it each request connects anew', async () => {
    const allow = { allowPrivateOutbound: true };
    const a = await read(await outboundRequest(`${base}/port`, allow, { keepAlive: true }));
    const b = await read(await outboundRequest(`${base}/port`, allow, { keepAlive: true }));
    expect(a).toMatch(/^port \d+$/);
    expect(b).toBe(a);
    const c = await read(await outboundRequest(`${base}/port`, allow));
    const d = await read(await outboundRequest(`${base}/port`, allow));
    expect(c).not.toBe(a);
    expect(d).not.toBe(c);
  });

  it('a kept connection does not bypass the check: every request is checked again', async () => {
    let seen = 0;
    const count = () => seen++;
    server.on('request', count);
    try {
      await read(await outboundRequest(`${base}/port`, { allowPrivateOutbound: true }, { keepAlive: true }));
      expect(seen).toBe(1);
      await expect(outboundRequest(`${base}/port`, { allowPrivateOutbound: false }, { keepAlive: true })).rejects.toBeInstanceOf(OutboundRefused);
      await expect(outboundRequest(`http://localhost:${base.split(':')[2]}/port`, { allowPrivateOutbound: false }, { keepAlive: true })).rejects.toBeInstanceOf(OutboundRefused);
      expect(seen).toBe(1);
    } finally {
      server.off('request', count);
    }
  });

  it('a kept connection still does not follow redirects', async () => {
    const res = await outboundRequest(`${base}/redirect`, { allowPrivateOutbound: true }, { keepAlive: true });
    expect(res.status).toBe(302);
    res.body.resume();
  });

  it('a silent server times out', async () => {
    await expect(outboundRequest(`${base}/slow`, { allowPrivateOutbound: true }, { timeoutMs: 200 })).rejects.toThrow(/200 ms/);
  });
});
