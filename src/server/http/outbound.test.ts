/**
 * The SSRF guard: address classification at the edges of every blocked range, URL checks
 * (schemes, credentials, metadata hosts, resolution), redirects not followed, time limits, and the
 * setting that allows private addresses. The allowlist itself: outboundAllow.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, classifyAddress, OutboundRefused, outboundRequest, type Resolve } from './outbound.ts';
import { NO_OUTBOUND_ALLOW, parseOutboundAllow, PRIVATE_OUTBOUND_ALLOW } from './outboundAllow.ts';

const STRICT = { outboundAllow: NO_OUTBOUND_ALLOW };
const PRIVATE = { outboundAllow: PRIVATE_OUTBOUND_ALLOW };

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

  it.each([
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '223.255.255.255',
    '1.1.1.1',
    '2606:4700:4700::1111',
    'fbff::1',
    'fec0::1'.replace('fec0', '2001:4860'),
    '::ffff:8.8.8.8',
  ])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('a name is not an address', () => {
    expect(classifyAddress('example.com')).not.toBeNull();
  });
});

describe('checkOutboundUrl', () => {
  const strict = STRICT;
  const lenient = PRIVATE;

  it('only http and https, without embedded credentials', async () => {
    for (const url of ['ftp://8.8.8.8/x', 'file:///etc/passwd', 'gopher://8.8.8.8/', 'not a url'])
      await expect(checkOutboundUrl(url, lenient)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(checkOutboundUrl('http://user:pw@8.8.8.8/', lenient)).rejects.toThrow(/credentials/);
    await expect(checkOutboundUrl('https://8.8.8.8/x', strict)).resolves.toMatchObject({ address: '8.8.8.8', family: 4 });
  });

  it('loopback names and addresses are refused unless private outbound is allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://localhost/',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/',
      'http://0.0.0.0/',
    ]) {
      await expect(checkOutboundUrl(url, strict)).rejects.toThrow(/not allowed|never contacted|only OUTBOUND_ALLOW naming this exact address/);
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

describe('checkOutboundUrl with an allowlist', () => {
  const allow = (list: string, resolve?: Resolve, privateNetworks = false) => ({ outboundAllow: parseOutboundAllow(list, privateNetworks).allow, resolve });
  /** A fake resolver (tests need no DNS): names to answers; anything else does not exist. */
  const fakeDns = (answers: Record<string, string[]>): Resolve & { asked: string[] } => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      const list = answers[host];
      if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return Object.assign(resolve, { asked });
  };

  // Every spelling of the instance-metadata address that the URL parser accepts.
  const metadataUrls = [
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/',
    'http://0251.0376.0251.0376/',
    'http://0xa9.0xfe.0xa9.0xfe/',
    'http://0xa9fea9fe/',
    'http://169.254.43518/',
    'http://169.16689662/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
    'http://[::a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
    'http://[::ffff:100.100.100.200]/',
    'http://[fe80::a9fe:a9fe]/',
    'http://169.254.170.2/v2/credentials',
  ];

  it.each(metadataUrls)('%s is refused by ALLOW_PRIVATE_OUTBOUND and by any range or host entry', async (url) => {
    await expect(checkOutboundUrl(url, STRICT)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(checkOutboundUrl(url, PRIVATE)).rejects.toThrow(/link-local|metadata/);
    await expect(checkOutboundUrl(url, allow('0.0.0.0/0,::/0,169.254.0.0/16,fd00::/8,100.64.0.0/10,2002::/16,*.internal', undefined, true))).rejects.toThrow(
      /only OUTBOUND_ALLOW naming this exact address/,
    );
  });

  it('the exact metadata address listed allows every spelling of it, and only it', async () => {
    const exact = allow('169.254.169.254');
    for (const url of ['http://169.254.169.254/', 'http://2852039166/', 'http://0251.0376.0251.0376/', 'http://169.254.43518/']) {
      await expect(checkOutboundUrl(url, exact)).resolves.toMatchObject({ address: '169.254.169.254', family: 4 });
    }
    await expect(checkOutboundUrl('http://[::ffff:a9fe:a9fe]/', exact)).resolves.toMatchObject({ address: '::ffff:a9fe:a9fe', family: 6 });
    await expect(checkOutboundUrl('http://169.254.169.253/', exact)).rejects.toThrow(/link-local/);
    await expect(checkOutboundUrl('http://[fd00:ec2::254]/', allow('fd00:ec2::254'))).resolves.toMatchObject({ address: 'fd00:ec2::254' });
    await expect(checkOutboundUrl('http://[fd00:ec2::254]/', allow('fd00:ec2::254/128'))).resolves.toMatchObject({ address: 'fd00:ec2::254' });
    await expect(checkOutboundUrl('http://100.100.100.200/', allow('100.100.100.200/32'))).resolves.toMatchObject({ address: '100.100.100.200' });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['[fc00::1]', 'unique local'],
    ['[fd12:3456::1]', 'unique local'],
    ['[::ffff:10.1.2.3]', 'private'],
    ['[::ffff:7f00:1]', 'loopback'],
  ])('%s (%s) is refused by default and allowed by ALLOW_PRIVATE_OUTBOUND', async (host, kind) => {
    await expect(checkOutboundUrl(`http://${host}/`, STRICT)).rejects.toThrow(new RegExp(`${kind}.*not allowed unless OUTBOUND_ALLOW lists it`));
    await expect(checkOutboundUrl(`http://${host}/`, PRIVATE)).resolves.toMatchObject({ address: new URL(`http://${host}/`).hostname.replace(/^\[|\]$/g, '') });
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['[ff02::1]', 'multicast'],
    ['[::ffff:0.0.0.0]', 'unspecified'],
  ])('%s (%s) is never contacted, whatever is listed', async (host, kind) => {
    await expect(checkOutboundUrl(`http://${host}/`, allow('0.0.0.0/0,::/0', undefined, true))).rejects.toThrow(new RegExp(`${kind}.*never contacted`));
  });

  it.each(['198.18.0.1', '192.0.0.8', '[fec0::1]', '[2001:db8::1]'])('%s stays refused by ALLOW_PRIVATE_OUTBOUND but can be listed', async (host) => {
    await expect(checkOutboundUrl(`http://${host}/`, PRIVATE)).rejects.toThrow(/not allowed/);
    await expect(checkOutboundUrl(`http://${host}/`, allow(host.replace(/^\[|\]$/g, '')))).resolves.toBeDefined();
  });

  it('a range allows exactly its addresses, in every spelling', async () => {
    const p = allow('10.20.0.0/16,fd12:3456::/48,127.0.0.1/32');
    for (const host of [
      '10.20.0.0',
      '10.20.255.255',
      '10.20.1',
      '0xa14ffff',
      '[::ffff:10.20.0.9]',
      '[fd12:3456:0:ffff::1]',
      '127.1',
      '2130706433',
      '017700000001',
      '0x7f.1',
    ]) {
      await expect(checkOutboundUrl(`http://${host}/`, p), host).resolves.toBeDefined();
    }
    for (const host of ['10.19.255.255', '10.21.0.0', '[fd12:3457::1]', '127.0.0.2', '127.2', '[::1]']) {
      await expect(checkOutboundUrl(`http://${host}/`, p), host).rejects.toThrow(/not allowed/);
    }
    await expect(checkOutboundUrl('http://2130706433/', p)).resolves.toMatchObject({ address: '127.0.0.1' });
  });

  it('a listed host name allows its private addresses, never its link-local or metadata ones', async () => {
    const dns = fakeDns({
      'hooks.internal': ['10.1.2.3', 'fd00::5'],
      'other.internal': ['10.1.2.3'],
      'rebind.internal': ['169.254.169.254'],
      'mapped.internal': ['::ffff:169.254.169.254'],
      'zero.internal': ['0.0.0.0'],
      'a.svc.local': ['192.168.1.1'],
      'svc.local': ['192.168.1.1'],
      'evilsvc.local': ['192.168.1.1'],
    });
    const p = allow('hooks.internal,rebind.internal,mapped.internal,zero.internal,*.svc.local', dns);
    await expect(checkOutboundUrl('https://hooks.internal/x', p)).resolves.toMatchObject({ address: '10.1.2.3', family: 4 });
    await expect(checkOutboundUrl('https://HOOKS.Internal./x', p)).resolves.toMatchObject({ address: '10.1.2.3' });
    await expect(checkOutboundUrl('https://other.internal/', p)).rejects.toThrow(/other.internal resolves to 10.1.2.3, a private address/);
    await expect(checkOutboundUrl('https://rebind.internal/', p)).rejects.toThrow(
      /rebind.internal resolves to 169.254.169.254, a link-local address of a cloud metadata service/,
    );
    await expect(checkOutboundUrl('https://mapped.internal/', p)).rejects.toThrow(/metadata/);
    await expect(checkOutboundUrl('https://zero.internal/', p)).rejects.toThrow(/never contacted/);
    await expect(checkOutboundUrl('https://a.svc.local/', p)).resolves.toMatchObject({ address: '192.168.1.1' });
    await expect(checkOutboundUrl('https://svc.local/', p)).rejects.toThrow(/not allowed/);
    await expect(checkOutboundUrl('https://evilsvc.local/', p)).rejects.toThrow(/not allowed/);
    // The exact address listed as well lets the named host reach it.
    await expect(checkOutboundUrl('https://rebind.internal/', allow('rebind.internal,169.254.169.254', dns))).resolves.toMatchObject({
      address: '169.254.169.254',
    });
  });

  it('a DNS answer mixing allowed and forbidden addresses is refused as a whole', async () => {
    const dns = fakeDns({
      'mixed.example': ['93.184.215.14', '127.0.0.1'],
      'mixed6.example': ['2606:4700::1', 'fe80::1'],
      'hooks.internal': ['10.1.2.3', '169.254.169.254'],
      'both.example': ['93.184.215.14', '127.0.0.1'],
    });
    await expect(checkOutboundUrl('http://mixed.example/', { ...STRICT, resolve: dns })).rejects.toThrow(/resolves to 127.0.0.1, a loopback address/);
    await expect(checkOutboundUrl('http://mixed6.example/', { ...PRIVATE, resolve: dns })).rejects.toThrow(/resolves to fe80::1, a link-local address/);
    await expect(checkOutboundUrl('http://hooks.internal/', allow('hooks.internal,10.0.0.0/8', dns))).rejects.toThrow(/169.254.169.254/);
    // Allowed when every address is: the first one is the one connected to.
    await expect(checkOutboundUrl('http://both.example/', allow('127.0.0.1', dns))).resolves.toMatchObject({ address: '93.184.215.14' });
  });

  it('metadata host names are refused before resolving, unless listed exactly', async () => {
    const dns = fakeDns({ 'metadata.google.internal': ['169.254.169.254'], metadata: ['169.254.169.254'], 'instance-data': ['10.0.0.1'] });
    for (const url of ['http://metadata.google.internal/', 'http://METADATA/', 'http://instance-data./']) {
      await expect(checkOutboundUrl(url, allow('*.google.internal,10.0.0.0/8', dns, true))).rejects.toThrow(/cloud metadata service/);
    }
    expect(dns.asked).toEqual([]);
    await expect(checkOutboundUrl('http://instance-data/', allow('instance-data,10.0.0.0/8', dns))).resolves.toMatchObject({ address: '10.0.0.1' });
    await expect(checkOutboundUrl('http://metadata.google.internal/', allow('metadata.google.internal', dns))).rejects.toThrow(
      /169.254.169.254, a link-local address of a cloud metadata service/,
    );
  });

  it('an IP literal is not resolved; a name is resolved once', async () => {
    const dns = fakeDns({ 'hooks.internal': ['10.1.2.3'] });
    await checkOutboundUrl('http://10.1.2.3/', allow('10.0.0.0/8', dns));
    await checkOutboundUrl('http://[::ffff:10.1.2.3]/', allow('10.0.0.0/8', dns));
    expect(dns.asked).toEqual([]);
    await checkOutboundUrl('http://hooks.internal/', allow('hooks.internal', dns));
    expect(dns.asked).toEqual(['hooks.internal']);
    await expect(checkOutboundUrl('http://nowhere.internal/', allow('nowhere.internal', dns))).rejects.toThrow(/could not be resolved \(ENOTFOUND\)/);
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
    await expect(outboundRequest(`${base}/`, STRICT)).rejects.toBeInstanceOf(OutboundRefused);
    const res = await outboundRequest(`${base}/`, PRIVATE);
    expect(res.status).toBe(200);
    let text = '';
    for await (const chunk of res.body) text += chunk;
    expect(text).toBe(`hello ${base.slice(7)}`);
  });

  it('connects to the checked address even for a name (localhost), sending the name as Host', async () => {
    const port = base.split(':')[2];
    const res = await outboundRequest(`http://localhost:${port}/`, PRIVATE);
    let text = '';
    for await (const chunk of res.body) text += chunk;
    expect(text).toBe(`hello localhost:${port}`);
  });

  it('connects to the address that was checked: short and decimal spellings, and a name from the injected resolver', async () => {
    const port = base.split(':')[2];
    const only = { outboundAllow: parseOutboundAllow('127.0.0.1/32,hooks.test').allow };
    for (const host of ['127.1', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]']) {
      const res = await outboundRequest(`http://${host}:${port}/`, only);
      expect(await read(res)).toBe(`hello ${new URL(`http://${host}:${port}/`).host}`);
    }
    // hooks.test cannot resolve (.test is reserved): reaching the server proves the connection
    // went to the checked address and nothing resolved the name a second time.
    const resolve: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await read(await outboundRequest(`http://hooks.test:${port}/`, { ...only, resolve }))).toBe(`hello hooks.test:${port}`);
    expect(await read(await outboundRequest(`http://hooks.test:${port}/`, { ...only, resolve }, { keepAlive: true }))).toBe(`hello hooks.test:${port}`);
  });

  it('a refused answer sends nothing, also when one address of the answer would be allowed', async () => {
    let seen = 0;
    const count = () => seen++;
    server.on('request', count);
    try {
      const port = base.split(':')[2];
      const resolve: Resolve = async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ];
      const only = { outboundAllow: parseOutboundAllow('127.0.0.1/32,hooks.test').allow, resolve };
      await expect(outboundRequest(`http://hooks.test:${port}/`, only)).rejects.toThrow(/169.254.169.254/);
      await expect(outboundRequest(`http://127.0.0.2:${port}/`, only)).rejects.toBeInstanceOf(OutboundRefused);
      expect(seen).toBe(0);
    } finally {
      server.off('request', count);
    }
  });

  it('redirects are not followed', async () => {
    const res = await outboundRequest(`${base}/redirect`, PRIVATE);
    expect(res.status).toBe(302);
    res.body.resume();
  });

  const read = async (res: Awaited<ReturnType<typeof outboundRequest>>) => {
    let text = '';
    for await (const chunk of res.body) text += chunk;
    return text;
  };

  it('keepAlive reuses the connection to the checked address; without it each request connects anew', async () => {
    const allow = PRIVATE;
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
      await read(await outboundRequest(`${base}/port`, PRIVATE, { keepAlive: true }));
      expect(seen).toBe(1);
      await expect(outboundRequest(`${base}/port`, STRICT, { keepAlive: true })).rejects.toBeInstanceOf(OutboundRefused);
      await expect(outboundRequest(`http://localhost:${base.split(':')[2]}/port`, STRICT, { keepAlive: true })).rejects.toBeInstanceOf(OutboundRefused);
      expect(seen).toBe(1);
    } finally {
      server.off('request', count);
    }
  });

  it('a kept connection still does not follow redirects', async () => {
    const res = await outboundRequest(`${base}/redirect`, PRIVATE, { keepAlive: true });
    expect(res.status).toBe(302);
    res.body.resume();
  });

  it('a silent server times out', async () => {
    await expect(outboundRequest(`${base}/slow`, PRIVATE, { timeoutMs: 200 })).rejects.toThrow(/200 ms/);
  });
});
