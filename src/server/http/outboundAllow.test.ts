/**
 * The outbound allowlist: address classes at the edges of each range, IPv4-carrying IPv6 forms,
 * entry parsing (every bad entry named) and the verdict for addresses and host names.
 */
import { describe, expect, it } from 'vitest';
import { canonicalAddress, classify, parseOutboundAllow, PRIVATE_OUTBOUND_ALLOW, refusal } from './outboundAllow.ts';

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
      'entry "255.255.255.255/32" is a reserved address, which can never be contacted',
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
