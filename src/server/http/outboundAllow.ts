/**
 * The outbound allowlist (OUTBOUND_ALLOW, ALLOW_PRIVATE_OUTBOUND) and the address classes it is
 * judged against. Public addresses are always allowed. Among the rest:
 *  - "never": unspecified, multicast, broadcast and class E addresses: no TCP service lives there
 *    (0.0.0.0 even reaches the local machine on Linux), so no entry allows them;
 *  - "sensitive": link-local addresses and the cloud metadata addresses: only an entry naming that
 *    exact address allows one, never a range or a host name (a 169.254.0.0/16 or fd00::/8 entry,
 *    or a host name resolving to 169.254.169.254, does not reach the instance metadata);
 *  - "restricted": loopback, private, shared (CGNAT) and the other special ranges: allowed when a
 *    listed range contains the address or the URL's host name is listed.
 * IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged by
 * the IPv4 address they carry, so ::ffff:a9fe:a9fe is 169.254.169.254.
 */
import net from 'node:net';

export type AddressClass = 'public' | 'restricted' | 'sensitive' | 'never';

interface Cidr {
  family: 4 | 6;
  base: bigint;
  bits: number;
}

export interface OutboundAllow {
  /** The entries as configured (for messages), the shorthand shown as `private`. */
  readonly entries: readonly string[];
  readonly ranges: readonly Cidr[];
  /** Canonical addresses listed exactly (an address or a /32, /128 range). */
  readonly exact: ReadonlySet<string>;
  readonly hosts: ReadonlySet<string>;
  /** `*.example.internal` entries as `.example.internal`. */
  readonly suffixes: readonly string[];
}

/** Address bits of a valid IP address (IPv4 in the low 32 bits). */
function toBigInt(address: string, family: 4 | 6): bigint {
  if (family === 4) return address.split('.').reduce((n, part) => (n << 8n) + BigInt(Number(part)), 0n);
  let text = address.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = toBigInt(dotted[1], 4);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const words = [...h, ...(tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill('0')), ...t];
  return words.reduce((n, w) => (n << 16n) + BigInt(parseInt(w || '0', 16)), 0n);
}

function v4Text(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
}

function v6Text(n: bigint): string {
  const words = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of zero words (at least two) becomes '::' (RFC 5952).
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

const V4_MASK = 0xffffffffn;

/** The IPv4 address an IPv6 address carries, for the forms that reach or translate to it. */
function embeddedV4(n: bigint): bigint | null {
  const top96 = n >> 32n;
  if (top96 === 0xffffn) return n & V4_MASK; // ::ffff:a.b.c.d (mapped)
  if (top96 === 0xffff0000n) return n & V4_MASK; // ::ffff:0:a.b.c.d (SIIT)
  if (top96 === 0n && n > 1n) return n & V4_MASK; // ::a.b.c.d (compatible; not :: and ::1)
  if (top96 === 0x64ff9b0000000000000000n) return n & V4_MASK; // 64:ff9b::/96 (NAT64)
  if (n >> 80n === 0x64ff9b0001n) return n & V4_MASK; // 64:ff9b:1::/48 (local NAT64)
  if (n >> 112n === 0x2002n) return (n >> 80n) & V4_MASK; // 2002::/16 (6to4)
  if (n >> 96n === 0x20010000n) return (n & V4_MASK) ^ V4_MASK; // 2001::/32 (Teredo client)
  return null;
}

/** The address in canonical text (IPv4 for the IPv4-carrying IPv6 forms), or null if not an IP. */
export function canonicalAddress(address: string): { text: string; family: 4 | 6; n: bigint } | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(bare);
  if (family === 4) {
    const n = toBigInt(bare, 4);
    return { text: v4Text(n), family: 4, n };
  }
  if (family !== 6) return null;
  const n = toBigInt(bare, 6);
  const v4 = embeddedV4(n);
  if (v4 !== null) return { text: v4Text(v4), family: 4, n: v4 };
  return { text: v6Text(n), family: 6, n };
}

const cidr = (text: string): Cidr => {
  const [addr, bits] = text.split('/');
  const c = canonicalAddress(addr)!;
  return { family: c.family, base: c.n, bits: Number(bits) };
};

function contains(range: Cidr, family: 4 | 6, n: bigint): boolean {
  if (range.family !== family) return false;
  const width = family === 4 ? 32 : 128;
  const shift = BigInt(width - range.bits);
  return n >> shift === range.base >> shift;
}

/** Cloud metadata and platform endpoints: sensitive wherever they lie. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean… instance metadata
  '169.254.170.2', // AWS ECS task metadata and credentials
  '169.254.170.23', // AWS EKS pod identity
  'fd00:ec2::254', // AWS instance metadata over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
  '100.100.100.200', // Alibaba Cloud metadata (inside 100.64.0.0/10)
  '192.0.0.192', // Oracle Cloud metadata
  '168.63.129.16', // Azure WireServer (platform endpoint in public space)
]);

/** Cloud metadata host names: refused unless the exact name is listed. */
export const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.amazonaws.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.tencentyun.com',
]);

/**
 * Every address block with a class other than "public" (or a public exception inside one), in one
 * place. It mirrors the two IANA special-purpose address registries entry by entry — an entry whose
 * "Globally Reachable" column is False is never public here — plus the multicast and deprecated
 * site-local space, which those registries leave to others. The most specific block containing an
 * address decides (so 192.0.0.9 is public inside the restricted 192.0.0.0/24). The forms that carry
 * an IPv4 address (IPv4-mapped ::ffff:0:0/96, 64:ff9b::/96, 64:ff9b:1::/48, 6to4 2002::/16, Teredo
 * 2001::/32) are not here: canonicalAddress turns them into the IPv4 address they reach, and that is
 * judged (64:ff9b:1::/48 never better than restricted, see classify). outboundAllow.test.ts walks
 * every entry against its registry row.
 */
export const SPECIAL_BLOCKS: readonly { range: string; cls: AddressClass; why: string }[] = [
  // IANA IPv4 Special-Purpose Address Registry (RFC 6890 and later), every entry in order:
  { range: '0.0.0.0/8', cls: 'never', why: 'an unspecified ("this network") address' }, // "This network"; 0.0.0.0/32 "This host on this network" inside
  { range: '10.0.0.0/8', cls: 'restricted', why: 'a private address' }, // Private-Use
  { range: '100.64.0.0/10', cls: 'restricted', why: 'a shared (carrier-grade NAT) address' }, // Shared Address Space
  { range: '127.0.0.0/8', cls: 'restricted', why: 'a loopback address' }, // Loopback
  { range: '169.254.0.0/16', cls: 'sensitive', why: 'a link-local address' }, // Link Local
  { range: '172.16.0.0/12', cls: 'restricted', why: 'a private address' }, // Private-Use
  // IETF Protocol Assignments; inside it, not reachable either: 192.0.0.0/29 IPv4 Service
  // Continuity Prefix, 192.0.0.8/32 IPv4 dummy address, 192.0.0.170/32 and 192.0.0.171/32 NAT64/DNS64 Discovery.
  { range: '192.0.0.0/24', cls: 'restricted', why: 'a reserved (IETF protocol assignment) address' },
  { range: '192.0.0.9/32', cls: 'public', why: '' }, // Port Control Protocol Anycast (globally reachable)
  { range: '192.0.0.10/32', cls: 'public', why: '' }, // Traversal Using Relays around NAT Anycast (globally reachable)
  { range: '192.0.2.0/24', cls: 'restricted', why: 'a documentation address' }, // Documentation (TEST-NET-1)
  { range: '192.31.196.0/24', cls: 'public', why: '' }, // AS112-v4 (globally reachable)
  { range: '192.52.193.0/24', cls: 'public', why: '' }, // AMT (globally reachable)
  { range: '192.88.99.0/24', cls: 'public', why: '' }, // Deprecated (6to4 Relay Anycast): no reachability stated, public space again
  { range: '192.168.0.0/16', cls: 'restricted', why: 'a private address' }, // Private-Use
  { range: '192.175.48.0/24', cls: 'public', why: '' }, // Direct Delegation AS112 Service (globally reachable)
  { range: '198.18.0.0/15', cls: 'restricted', why: 'a benchmarking address' }, // Benchmarking
  { range: '198.51.100.0/24', cls: 'restricted', why: 'a documentation address' }, // Documentation (TEST-NET-2)
  { range: '203.0.113.0/24', cls: 'restricted', why: 'a documentation address' }, // Documentation (TEST-NET-3)
  { range: '240.0.0.0/4', cls: 'never', why: 'a reserved address' }, // Reserved
  { range: '255.255.255.255/32', cls: 'never', why: 'a reserved (limited broadcast) address' }, // Limited Broadcast
  // IANA IPv4 Multicast Address Space Registry: no TCP service lives there.
  { range: '224.0.0.0/4', cls: 'never', why: 'a multicast address' },

  // IANA IPv6 Special-Purpose Address Registry, every entry in order (the IPv4-carrying ones above):
  { range: '::1/128', cls: 'restricted', why: 'a loopback address' }, // Loopback Address
  { range: '::/128', cls: 'never', why: 'an unspecified address' }, // Unspecified Address
  { range: '100::/64', cls: 'restricted', why: 'a discard-only address' }, // Discard-Only Address Block
  { range: '100:0:0:1::/64', cls: 'restricted', why: 'a dummy address' }, // Dummy IPv6 Prefix (RFC 9780)
  { range: '2001::/23', cls: 'restricted', why: 'a reserved (IETF protocol assignment) address' }, // IETF Protocol Assignments
  { range: '2001:1::1/128', cls: 'public', why: '' }, // Port Control Protocol Anycast (globally reachable)
  { range: '2001:1::2/128', cls: 'public', why: '' }, // Traversal Using Relays around NAT Anycast (globally reachable)
  { range: '2001:1::3/128', cls: 'public', why: '' }, // DNS-SD Service Registration Protocol Anycast (globally reachable)
  { range: '2001:2::/48', cls: 'restricted', why: 'a benchmarking address' }, // Benchmarking
  { range: '2001:3::/32', cls: 'public', why: '' }, // AMT (globally reachable)
  { range: '2001:4:112::/48', cls: 'public', why: '' }, // AS112-v6 (globally reachable)
  { range: '2001:10::/28', cls: 'restricted', why: 'a reserved (deprecated ORCHID) address' }, // Deprecated (previously ORCHID)
  { range: '2001:20::/28', cls: 'public', why: '' }, // ORCHIDv2 (globally reachable)
  { range: '2001:30::/28', cls: 'public', why: '' }, // Drone Remote ID Protocol Entity Tags (DETs) Prefix (globally reachable)
  { range: '2001:db8::/32', cls: 'restricted', why: 'a documentation address' }, // Documentation
  { range: '2620:4f:8000::/48', cls: 'public', why: '' }, // Direct Delegation AS112 Service (globally reachable)
  { range: '3fff::/20', cls: 'restricted', why: 'a documentation address' }, // Documentation (RFC 9637)
  { range: '5f00::/16', cls: 'restricted', why: 'a segment routing (SRv6 SID) address' }, // Segment Routing (SRv6) SIDs
  { range: 'fc00::/7', cls: 'restricted', why: 'a private (unique local) address' }, // Unique-Local
  { range: 'fe80::/10', cls: 'sensitive', why: 'a link-local address' }, // Link-Local Unicast
  // Outside the registry: deprecated site-local (RFC 3879) and multicast (IANA IPv6 Multicast Address Space Registry).
  { range: 'fec0::/10', cls: 'restricted', why: 'a site-local address' },
  { range: 'ff00::/8', cls: 'never', why: 'a multicast address' },
];

// Most specific first, so the first block that contains an address is the one that decides.
// The ranges are read as written, not canonicalised: 2001::/23 starts with a Teredo address.
const BLOCKS: [Cidr, AddressClass, string][] = SPECIAL_BLOCKS.map(({ range, cls, why }): [Cidr, AddressClass, string] => {
  const [addr, bits] = range.split('/');
  const family = net.isIP(addr) as 4 | 6;
  return [{ family, base: toBigInt(addr, family), bits: Number(bits) }, cls, why];
}).sort((a, b) => b[0].bits - a[0].bits);

/** 64:ff9b:1::/48, the local-use NAT64 prefix: not globally reachable, whatever it carries. */
const LOCAL_NAT64 = 0x64ff9b0001n;

export interface Classified {
  cls: AddressClass;
  /** Why the address is not public ('' when it is). */
  why: string;
  /** Canonical text of the address judged (the carried IPv4 address for IPv4-carrying forms). */
  canonical: string;
  family: 4 | 6;
  n: bigint;
}

export function classify(address: string): Classified | null {
  const c = canonicalAddress(address);
  if (!c) return null;
  const base = { canonical: c.text, family: c.family, n: c.n };
  const block = BLOCKS.find(([range]) => contains(range, c.family, c.n));
  if (METADATA_ADDRESSES.has(c.text)) return { ...base, cls: 'sensitive', why: `${block ? block[2] : 'a cloud platform address'} of a cloud metadata service` };
  if (block && block[1] !== 'public') return { ...base, cls: block[1], why: block[2] };
  // A local-use NAT64 address reaches the IPv4 address it carries only through a translator of the
  // local network (RFC 8215): restricted even when that IPv4 address is public.
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIPv6(bare) && toBigInt(bare, 6) >> 80n === LOCAL_NAT64) return { ...base, cls: 'restricted', why: 'a local-use NAT64 address' };
  return { ...base, cls: 'public', why: '' };
}

/** The ranges ALLOW_PRIVATE_OUTBOUND=on stands for (metadata addresses inside stay sensitive). */
export const PRIVATE_RANGES = ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'];

export const OUTBOUND_ALLOW_MAX_ENTRIES = 256;
const HOST_NAME = /^(?=.{1,253}$)(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * Parses OUTBOUND_ALLOW (comma-separated addresses, CIDR ranges, host names and `*.suffix`
 * names) plus the ALLOW_PRIVATE_OUTBOUND shorthand; every bad entry gets its own error.
 */
export function parseOutboundAllow(list: string, privateNetworks = false): { allow: OutboundAllow; errors: string[] } {
  const errors: string[] = [];
  const entries = list
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length > OUTBOUND_ALLOW_MAX_ENTRIES) errors.push(`has ${entries.length} entries; at most ${OUTBOUND_ALLOW_MAX_ENTRIES} are allowed`);
  const ranges: Cidr[] = privateNetworks ? PRIVATE_RANGES.map(cidr) : [];
  const exact = new Set<string>();
  const hosts = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of entries.slice(0, OUTBOUND_ALLOW_MAX_ENTRIES)) {
    const problem = addEntry(entry, { ranges, exact, hosts, suffixes });
    if (problem) errors.push(`entry ${JSON.stringify(entry)} ${problem}`);
  }
  return { allow: { entries: [...(privateNetworks ? ['private'] : []), ...entries], ranges, exact, hosts, suffixes }, errors };
}

function addEntry(entry: string, into: { ranges: Cidr[]; exact: Set<string>; hosts: Set<string>; suffixes: string[] }): string | null {
  if (entry.length > 253) return 'is too long';
  const slash = entry.indexOf('/');
  const addressPart = slash < 0 ? entry : entry.slice(0, slash);
  const c = canonicalAddress(addressPart);
  if (slash >= 0 || c) {
    if (!c) return 'is not a CIDR range: the part before / must be an IPv4 or IPv6 address (e.g. 10.20.0.0/16, fd12:3456::/48)';
    const width = net.isIPv4(addressPart) ? 32 : 128;
    let bits = width;
    if (slash >= 0) {
      const text = entry.slice(slash + 1);
      if (!/^\d{1,3}$/.test(text) || Number(text) > width) return `has an invalid prefix length: must be 0–${width}`;
      bits = Number(text);
    }
    // An IPv6 entry for an IPv4-carrying form (::ffff:10.0.0.0/104) is turned into its IPv4 range.
    if (width === 128 && c.family === 4) {
      if (bits < 96) return 'is an IPv4-carrying IPv6 range wider than /96; write the IPv4 range instead';
      bits -= 96;
    }
    const full = c.family === 4 ? 32 : 128;
    if (bits === full) {
      const k = classify(c.text)!;
      if (k.cls === 'never') return `is ${k.why}, which can never be contacted`;
      into.exact.add(c.text);
      return null;
    }
    const shift = BigInt(full - bits);
    if ((c.n >> shift) << shift !== c.n)
      return `has bits set after the prefix: did you mean ${c.family === 4 ? v4Text((c.n >> shift) << shift) : v6Text((c.n >> shift) << shift)}/${bits}?`;
    into.ranges.push({ family: c.family, base: c.n, bits });
    return null;
  }
  const name = entry.toLowerCase().replace(/\.$/, '');
  if (!HOST_NAME.test(name)) return 'is not an IP address, a CIDR range or a host name';
  // URL parsing turns names ending in a number (127.1, 2130706433, 0x7f.1) into IPv4 addresses.
  if (/(^|\.)(\d+|0x[0-9a-f]*)$/.test(name)) return 'ends in a number, so URLs read it as an IPv4 address: write the address as a.b.c.d';
  if (name.startsWith('*.')) into.suffixes.push(name.slice(1));
  else into.hosts.add(name);
  return null;
}

export const NO_OUTBOUND_ALLOW: OutboundAllow = parseOutboundAllow('').allow;
/** What ALLOW_PRIVATE_OUTBOUND=on alone stands for. */
export const PRIVATE_OUTBOUND_ALLOW: OutboundAllow = parseOutboundAllow('', true).allow;

/** Whether `host` (lower case, without a trailing dot) is listed by name. */
export function hostListed(allow: OutboundAllow, host: string): boolean {
  return allow.hosts.has(host) || allow.suffixes.some((s) => host.endsWith(s) && host.length > s.length);
}

/**
 * Null when `address` (one address of `host`) may be contacted, else why not. A host listed by
 * name allows its restricted addresses; sensitive ones need the exact address listed.
 */
export function refusal(allow: OutboundAllow, address: string, host: string): string | null {
  const k = classify(address);
  if (!k) return 'not an IP address';
  if (k.cls === 'public') return null;
  if (k.cls === 'never') return `${k.why}, which is never contacted`;
  if (allow.exact.has(k.canonical)) return null;
  if (k.cls === 'sensitive') return `${k.why}; only OUTBOUND_ALLOW naming this exact address allows it`;
  if (hostListed(allow, host)) return null;
  if (allow.ranges.some((r) => contains(r, k.family, k.n))) return null;
  return `${k.why}; requests to it are not allowed unless OUTBOUND_ALLOW lists it`;
}
