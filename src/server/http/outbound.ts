/**
 * Every request this service makes to a URL a user gave (addItem dataUrl, url probes, the service
 * proxy, webhook deliveries) goes through here. SSRF guard (perf notes §6.3, ASVS 1.3.6/15.3.2):
 * only http/https; the host is resolved once and refused if ANY address is loopback, private,
 * link-local, unspecified, multicast or reserved, or the host is a cloud metadata name — unless
 * the configuration allows private outbound requests (ALLOW_PRIVATE_OUTBOUND, tests, the demo);
 * the connection goes to the address that was checked (a custom `lookup`, no second resolution);
 * redirects are never followed (a 3xx is answered to the caller as it is); every request has a
 * time limit.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';

export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.amazonaws.com', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

const V4_BLOCKS: [string, number, string][] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

/** Why an address may not be contacted, or null when it is a public address. */
export function classifyAddress(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) {
    const n = ipv4ToInt(address);
    for (const [base, bits, why] of V4_BLOCKS) {
      const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
      if ((n & mask) >>> 0 === (ipv4ToInt(base) & mask) >>> 0) return why;
    }
    return null;
  }
  if (family === 6) {
    const words = expandV6(address);
    // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms: judge the embedded IPv4 address.
    if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || words[5] === 0) && (words[6] !== 0 || words[7] > 1)) {
      const v4 = `${words[6] >> 8}.${words[6] & 255}.${words[7] >> 8}.${words[7] & 255}`;
      return classifyAddress(v4);
    }
    if (words.every((w) => w === 0)) return 'an unspecified address';
    if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return 'a loopback address';
    if ((words[0] & 0xfe00) === 0xfc00) return 'a private (unique local) address';
    if ((words[0] & 0xffc0) === 0xfe80) return 'a link-local address';
    if ((words[0] & 0xffc0) === 0xfec0) return 'a site-local address';
    if ((words[0] & 0xff00) === 0xff00) return 'a multicast address';
    if (words[0] === 0x2001 && words[1] === 0x0db8) return 'a documentation address';
    if (words[0] === 0x0064 && words[1] === 0xff9b) return classifyAddress(`${words[6] >> 8}.${words[6] & 255}.${words[7] >> 8}.${words[7] & 255}`);
    return null;
  }
  return 'not an IP address';
}

function expandV6(address: string): number[] {
  let text = address.split('%')[0];
  // A trailing dotted IPv4 part becomes two words.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4ToInt(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((w) => parseInt(w || '0', 16));
}

export interface OutboundPolicy {
  allowPrivateOutbound: boolean;
}

export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Parses and resolves `raw`; throws OutboundRefused with a reason a user can read. */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(`'${raw}' is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`Only http and https URLs may be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new OutboundRefused('URLs with embedded credentials may not be fetched.');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (!policy.allowPrivateOutbound && METADATA_HOSTS.has(host)) throw new OutboundRefused(`The host ${host} is a cloud metadata service and may not be contacted.`);
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new OutboundRefused(`The host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
  if (!addresses.length) throw new OutboundRefused(`The host ${host} could not be resolved.`);
  if (!policy.allowPrivateOutbound) {
    for (const a of addresses) {
      const why = classifyAddress(a.address);
      if (why) throw new OutboundRefused(`The host ${host} resolves to ${a.address}, ${why}; requests to private networks are not allowed.`);
    }
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: OutgoingHttpHeaders;
  body?: Buffer | string | Readable;
  /** Limit for connecting and for the response headers to arrive, and for any pause of the body. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Reuse connections (webhook deliveries: many requests to the same receiver). The connection
   * pool is per checked address, so a reused connection always goes to an address that this
   * request's own check resolved and allowed; the check still runs for every request.
   */
  keepAlive?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

/** Idle connections are closed before a typical server's keep-alive limit (Node's is 5 s). */
const KEEP_ALIVE_IDLE_MS = 4_000;
const KEEP_ALIVE_AGENTS_MAX = 256;
const keepAliveAgents = new Map<string, http.Agent>();

/**
 * The keep-alive agent of one checked address (scheme, host name for TLS, address, port): its
 * sockets only ever connect to that address. Least recently used agents beyond the cap are closed.
 */
function keepAliveAgent(target: CheckedTarget, lookup: LookupFunction): http.Agent {
  const { url, address } = target;
  const key = `${url.protocol}//${url.hostname}@${address}:${url.port}`;
  let agent = keepAliveAgents.get(key);
  if (agent) {
    keepAliveAgents.delete(key);
    keepAliveAgents.set(key, agent);
    return agent;
  }
  const Agent = url.protocol === 'https:' ? https.Agent : http.Agent;
  agent = new Agent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS, maxFreeSockets: 64, lookup } as http.AgentOptions);
  keepAliveAgents.set(key, agent);
  if (keepAliveAgents.size > KEEP_ALIVE_AGENTS_MAX) {
    const [oldest, old] = keepAliveAgents.entries().next().value as [string, http.Agent];
    keepAliveAgents.delete(oldest);
    old.destroy();
  }
  return agent;
}

/** One request to an already checked target, connecting to the checked address only. */
export function requestChecked(target: CheckedTarget, req: OutboundRequest = {}): Promise<OutboundResponse> {
  const { url, address, family } = target;
  const lookup: LookupFunction = (_host, options, callback) => {
    const cb = callback as unknown as (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    if ((options as { all?: boolean }).all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  const timeoutMs = req.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const r = mod.request(
      url,
      {
        method: req.method ?? 'GET',
        headers: { 'user-agent': 'local-portal', ...req.headers },
        lookup,
        agent: req.keepAlive ? keepAliveAgent(target, lookup) : false,
        timeout: timeoutMs,
        signal: req.signal,
      },
      (res) => {
        res.setTimeout(timeoutMs, () => res.destroy(new Error(`The response from ${url.host} stalled for ${timeoutMs} ms.`)));
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
      },
    );
    r.on('timeout', () => r.destroy(new Error(`No answer from ${url.host} within ${timeoutMs} ms.`)));
    r.on('error', reject);
    if (req.body === undefined) r.end();
    else if (typeof req.body === 'string' || Buffer.isBuffer(req.body)) r.end(req.body);
    else req.body.pipe(r);
  });
}

/** Check, then request. Redirects are not followed: a 3xx comes back as it is. */
export async function outboundRequest(rawUrl: string, policy: OutboundPolicy, req: OutboundRequest = {}): Promise<OutboundResponse> {
  return requestChecked(await checkOutboundUrl(rawUrl, policy), req);
}
