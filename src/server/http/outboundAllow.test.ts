/**
 * The outbound allowlist: address classes at the edges of each range, IPv4-carrying IPv6 forms,
 * entry parsing (every bad entry named) and the verdict for addresses and host names.
 */
import { describe, expect, it } from 'vitest';
import { canonicalAddress, classify, parseOutboundAllow, PRIVATE_OUTBOUND_ALLOW, refusal, SPECIAL_BLOCKS } from './outboundAllow.ts';

describe('classify', () => {
  it.each([
    ['0.0.0.0', 'never'],
    ['0.255.255.255', 'never'],
    ['1.0.0.0', 'public'],
    ['9.255.255.255', 'public'],
    ['10.0.0.0', 'restricted'],
    ['10.255.255.255', 'restricted'],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.64.0.0', 'restricted'],
    ['100.127.255.255', 'restricted'],
    ['100.128.0.0', 'public'],
    ['100.100.100.200', 'sensitive'],
    ['126.255.255.255', 'public'],
    ['127.0.0.0', 'restricted'],
    ['127.255.255.255', 'restricted'],
    ['128.0.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['169.254.0.0', 'sensitive'],
    ['169.254.255.255', 'sensitive'],
    ['169.255.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.16.0.0', 'restricted'],
    ['172.31.255.255', 'restricted'],
    ['172.32.0.0', 'public'],
    ['192.0.0.0', 'restricted'],
    ['192.0.0.192', 'sensitive'],
    ['192.0.1.0', 'public'],
    ['192.167.255.255', 'public'],
    ['192.168.0.0', 'restricted'],
    ['192.168.255.255', 'restricted'],
    ['192.169.0.0', 'public'],
    ['198.18.0.0', 'restricted'],
    ['198.19.255.255', 'restricted'],
    ['198.20.0.0', 'public'],
    ['168.63.129.16', 'sensitive'],
    ['223.255.255.255', 'public'],
    ['224.0.0.0', 'never'],
    ['239.255.255.255', 'never'],
    ['240.0.0.0', 'never'],
    ['255.255.255.255', 'never'],
    ['::', 'never'],
    ['::1', 'restricted'],
    ['fbff:ffff::1', 'public'],
    ['fc00::', 'restricted'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'restricted'],
    ['fd00:ec2::254', 'sensitive'],
    ['fd00:ec2::253', 'restricted'],
    ['fe80::', 'sensitive'],
    ['febf:ffff::1', 'sensitive'],
    ['fec0::1', 'restricted'],
    ['ff00::', 'never'],
    ['2001:db8::1', 'restricted'],
    ['2606:4700:4700::1111', 'public'],
    ['fe80::1%eth0', 'sensitive'],
  ])('%s is %s', (address, cls) => {
    expect(classify(address)?.cls).toBe(cls);
  });

  it.each([
    ['::ffff:169.254.169.254', '169.254.169.254'],
    ['::ffff:a9fe:a9fe', '169.254.169.254'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', '169.254.169.254'],
    ['::ffff:0:a9fe:a9fe', '169.254.169.254'],
    ['::a9fe:a9fe', '169.254.169.254'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254'],
    ['64:ff9b:1::a9fe:a9fe', '169.254.169.254'],
    ['2002:a9fe:a9fe::', '169.254.169.254'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', '169.254.169.254'],
    ['::ffff:7f00:1', '127.0.0.1'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['FD00:0EC2:0000::0254', 'fd00:ec2::254'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::1', '::1'],
    ['::', '::'],
  ])('%s is judged as %s', (address, canonical) => {
    expect(canonicalAddress(address)?.text).toBe(canonical);
  });

  it('names are not addresses', () => {
    expect(classify('example.com')).toBeNull();
    expect(classify('2852039166')).toBeNull();
  });
});

describe('parseOutboundAllow', () => {
  it('reads each kind of entry and ignores empty ones', () => {
    const { allow, errors } = parseOutboundAllow(
      '127.0.0.1/32, 10.20.0.0/16 ,,Hooks.Internal.,*.svc.local,fd12:3456::/48,::ffff:10.30.0.0/112,[::1],0.0.0.0/0',
    );
    expect(errors).toEqual([]);
    expect([...allow.exact].sort()).toEqual(['127.0.0.1', '::1']);
    expect(allow.ranges.map((r) => `${r.family}/${r.bits}`)).toEqual(['4/16', '6/48', '4/16', '4/0']);
    expect([...allow.hosts]).toEqual(['hooks.internal']);
    expect(allow.suffixes).toEqual(['.svc.local']);
  });

  it('names every bad entry', () => {
    const { errors } = parseOutboundAllow(
      'ok.example,a b,10.1.0.0/8,::/129,::ffff:0:0/64,224.0.0.1,255.255.255.255/32,-bad.example,*,*.,x..y,10.0.0.0/x,0x7f.1',
    );
    expect(errors).toEqual([
      'entry "a b" is not an IP address, a CIDR range or a host name',
      'entry "10.1.0.0/8" has bits set after the prefix: did you mean 10.0.0.0/8?',
      'entry "::/129" has an invalid prefix length: must be 0–128',
      'entry "::ffff:0:0/64" is an IPv4-carrying IPv6 range wider than /96; write the IPv4 range instead',
      'entry "224.0.0.1" is a multicast address, which can never be contacted',
      'entry "255.255.255.255/32" is a reserved (limited broadcast) address, which can never be contacted',
      'entry "-bad.example" is not an IP address, a CIDR range or a host name',
      'entry "*" is not an IP address, a CIDR range or a host name',
      'entry "*." is not an IP address, a CIDR range or a host name',
      'entry "x..y" is not an IP address, a CIDR range or a host name',
      'entry "10.0.0.0/x" has an invalid prefix length: must be 0–32',
      'entry "0x7f.1" ends in a number, so URLs read it as an IPv4 address: write the address as a.b.c.d',
    ]);
  });

  it('limits the number of entries and their length', () => {
    expect(parseOutboundAllow(Array.from({ length: 257 }, (_, i) => `h${i}.example`).join(',')).errors).toEqual(['has 257 entries; at most 256 are allowed']);
    expect(parseOutboundAllow(`${'a'.repeat(250)}.example`).errors).toEqual([`entry "${'a'.repeat(250)}.example" is too long`]);
  });
});

describe('refusal', () => {
  it('ALLOW_PRIVATE_OUTBOUND allows loopback and the private ranges but not link-local, metadata or the other special ranges', () => {
    for (const a of ['127.0.0.1', '::1', '10.1.1.1', '172.20.0.1', '192.168.1.1', '100.64.0.1', 'fd12::1', '::ffff:192.168.1.1'])
      expect(refusal(PRIVATE_OUTBOUND_ALLOW, a, a), a).toBeNull();
    for (const a of ['169.254.1.1', 'fe80::1', '100.100.100.200', 'fd00:ec2::254', '::ffff:169.254.169.254', '198.18.0.1', 'fec0::1', '0.0.0.0', '::'])
      expect(refusal(PRIVATE_OUTBOUND_ALLOW, a, a), a).not.toBeNull();
  });

  it('an IPv4 range applies to the IPv6 spellings of its addresses', () => {
    const { allow } = parseOutboundAllow('10.20.0.0/16');
    expect(refusal(allow, '::ffff:10.20.3.4', 'x')).toBeNull();
    expect(refusal(allow, '64:ff9b::a14:304', 'x')).toBeNull();
    expect(refusal(allow, '::ffff:10.21.3.4', 'x')).toMatch(/private address/);
  });

  it('a host entry allows only restricted addresses, for that name', () => {
    const { allow } = parseOutboundAllow('hooks.internal,*.corp.example');
    expect(refusal(allow, '10.0.0.1', 'hooks.internal')).toBeNull();
    expect(refusal(allow, '10.0.0.1', 'x.hooks.internal')).toMatch(/not allowed/);
    expect(refusal(allow, '10.0.0.1', 'a.b.corp.example')).toBeNull();
    expect(refusal(allow, '10.0.0.1', 'corp.example')).toMatch(/not allowed/);
    expect(refusal(allow, '169.254.169.254', 'hooks.internal')).toMatch(/only OUTBOUND_ALLOW naming this exact address/);
    expect(refusal(allow, 'fe80::1', 'hooks.internal')).toMatch(/link-local/);
    expect(refusal(allow, '224.0.0.1', 'hooks.internal')).toMatch(/never contacted/);
    expect(refusal(allow, '8.8.8.8', 'anything')).toBeNull();
  });
});

/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries, row by row, with their "Globally
 * Reachable" column (`carried`: the IPv4-carrying forms, judged by the IPv4 address inside, see
 * outboundAllow.ts). The table in outboundAllow.ts must agree with every row: False is never public,
 * True is public. These addresses are only classified here, never contacted.
 */
const REGISTRY: [block: string, name: string, globallyReachable: boolean | 'carried'][] = [
  // IANA IPv4 Special-Purpose Address Registry
  ['0.0.0.0/8', '"This network"', false],
  ['0.0.0.0/32', '"This host on this network"', false],
  ['10.0.0.0/8', 'Private-Use', false],
  ['100.64.0.0/10', 'Shared Address Space', false],
  ['127.0.0.0/8', 'Loopback', false],
  ['169.254.0.0/16', 'Link Local', false],
  ['172.16.0.0/12', 'Private-Use', false],
  ['192.0.0.0/24', 'IETF Protocol Assignments', false],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix', false],
  ['192.0.0.8/32', 'IPv4 dummy address', false],
  ['192.0.0.9/32', 'Port Control Protocol Anycast', true],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast', true],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery', false],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery', false],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)', false],
  ['192.31.196.0/24', 'AS112-v4', true],
  ['192.52.193.0/24', 'AMT', true],
  ['192.168.0.0/16', 'Private-Use', false],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service', true],
  ['198.18.0.0/15', 'Benchmarking', false],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)', false],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)', false],
  ['240.0.0.0/4', 'Reserved', false],
  ['255.255.255.255/32', 'Limited Broadcast', false],
  // IANA IPv6 Special-Purpose Address Registry
  ['::1/128', 'Loopback Address', false],
  ['::/128', 'Unspecified Address', false],
  ['::ffff:0:0/96', 'IPv4-mapped Address', 'carried'],
  ['64:ff9b::/96', 'IPv4-IPv6 Translat.', 'carried'],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat. (local use)', false],
  ['100::/64', 'Discard-Only Address Block', false],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix', false],
  ['2001::/23', 'IETF Protocol Assignments', false],
  ['2001::/32', 'TEREDO', 'carried'],
  ['2001:1::1/128', 'Port Control Protocol Anycast', true],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast', true],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast', true],
  ['2001:2::/48', 'Benchmarking', false],
  ['2001:3::/32', 'AMT', true],
  ['2001:4:112::/48', 'AS112-v6', true],
  ['2001:10::/28', 'Deprecated (previously ORCHID)', false],
  ['2001:20::/28', 'ORCHIDv2', true],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix', true],
  ['2001:db8::/32', 'Documentation', false],
  ['2002::/16', '6to4', 'carried'],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service', true],
  ['3fff::/20', 'Documentation', false],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs', false],
  ['fc00::/7', 'Unique-Local', false],
  ['fe80::/10', 'Link-Local Unicast', false],
];

/** Blocks outside both registries that the table also holds. */
const OUTSIDE_REGISTRY = ['224.0.0.0/4', 'fec0::/10', 'ff00::/8', '192.88.99.0/24'];

/** The address bits, parsed here on purpose without the code under test. */
function bitsOf(address: string): { n: bigint; width: number } {
  if (address.includes('.')) return { n: address.split('.').reduce((n, p) => (n << 8n) + BigInt(Number(p)), 0n), width: 32 };
  const [head, tail = ''] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const words = address.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return { n: words.reduce((n, w) => (n << 16n) + BigInt(parseInt(w, 16)), 0n), width: 128 };
}

function textOf(n: bigint, width: number): string {
  if (width === 32) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
  return Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
}

function blockOf(range: string) {
  const [addr, len] = range.split('/');
  const { n, width } = bitsOf(addr);
  const host = BigInt(width - Number(len));
  return { first: n, last: n | ((1n << host) - 1n), width };
}

const inside = (range: string, n: bigint, width: number) => {
  const b = blockOf(range);
  return b.width === width && n >= b.first && n <= b.last;
};

/** First, middle and last address of a row, leaving out those a more specific row decides. */
function samples(range: string): string[] {
  const { first, last, width } = blockOf(range);
  const own = last - first;
  return [first, first + own / 2n, last]
    .filter((n) => !REGISTRY.some(([other]) => other !== range && blockOf(other).last - blockOf(other).first < own && inside(other, n, width)))
    .map((n) => textOf(n, width));
}

describe('the IANA special-purpose address registries', () => {
  it.each(REGISTRY.filter(([, , g]) => g !== 'carried'))('%s %s (globally reachable: %s)', (block, _name, reachable) => {
    const addresses = samples(block);
    expect(addresses.length, block).toBeGreaterThan(0);
    for (const a of addresses) {
      const cls = classify(a)?.cls;
      if (reachable) expect(cls, a).toBe('public');
      else expect(['restricted', 'sensitive', 'never'], a).toContain(cls);
    }
  });

  it.each([
    ['192.0.2.0'],
    ['192.0.2.255'],
    ['198.51.100.7'],
    ['203.0.113.255'],
    ['2001:db8:ffff::1'],
    ['3fff:fff:ffff::1'],
    ['::ffff:192.0.2.1'],
    ['64:ff9b::c633:6407'],
  ])('the documentation address %s is restricted: refused by ALLOW_PRIVATE_OUTBOUND, allowed only when listed', (a) => {
    expect(classify(a)?.cls).toBe('restricted');
    expect(classify(a)?.why).toMatch(/documentation/);
    expect(refusal(PRIVATE_OUTBOUND_ALLOW, a, a)).toMatch(/not allowed unless OUTBOUND_ALLOW lists it/);
    expect(refusal(parseOutboundAllow(a.replace(/^\[|\]$/g, '')).allow, a, a)).toBeNull();
  });

  it.each([
    // The IPv4-carrying forms are judged by the IPv4 address they reach.
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:127.0.0.1', 'restricted'],
    ['::ffff:198.51.100.1', 'restricted'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b::a00:1', 'restricted'],
    ['2002:808:808::1', 'public'],
    ['2002:cb00:7101::', 'restricted'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'], // Teredo client 8.8.8.8
    ['2001::80ff:fffe', 'restricted'], // Teredo client 127.0.0.1
    // The local-use NAT64 prefix is not globally reachable, whatever it carries …
    ['64:ff9b:1::808:808', 'restricted'],
    // … and never better than what it carries.
    ['64:ff9b:1::a9fe:a9fe', 'sensitive'],
    ['64:ff9b:1::', 'never'],
  ])('%s is %s', (a, cls) => {
    expect(classify(a)?.cls).toBe(cls);
  });

  it('the table holds exactly the registry rows and the blocks outside it', () => {
    const rows = new Set([...REGISTRY.map(([b]) => b), ...OUTSIDE_REGISTRY]);
    for (const { range } of SPECIAL_BLOCKS) expect(rows, range).toContain(range);
    // Every registry row that is not public by default, or sits inside one that is not, is in the table.
    const table = new Set(SPECIAL_BLOCKS.map((b) => b.range));
    for (const [block, , g] of REGISTRY) {
      // Carried forms and the local-use NAT64 prefix are decided by classify from the IPv4 inside.
      if (g === 'carried' || block === '0.0.0.0/32' || block === '64:ff9b:1::/48') continue;
      if (/^192\.0\.0\.(0\/29|8\/32|170\/32|171\/32)$/.test(block)) continue; // decided by 192.0.0.0/24
      expect(table, block).toContain(block);
    }
  });
});
