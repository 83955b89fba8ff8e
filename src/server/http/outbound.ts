/**
 * Every request this service makes to a URL a user gave (addItem dataUrl, url probes, the service
 * proxy, webhook deliveries) goes through here. SSRF guard (perf notes §6.3, ASVS 1.3.6/15.3.2):
 * only http/https; the host is resolved once and refused if ANY address is not public and not
 * allowed by the outbound allowlist (OUTBOUND_ALLOW / ALLOW_PRIVATE_OUTBOUND, see outboundAllow.ts:
 * link-local and metadata addresses only when listed exactly), or the host is a cloud metadata
 * name that is not listed;
 * the connection goes to the address that was checked (a custom `lookup`, no second resolution);
 * redirects are never followed (a 3xx is answered to the caller as it is); every request has a
 * time limit.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { classify, METADATA_HOSTS, refusal, type OutboundAllow } from './outboundAllow.ts';

export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** Why an address may not be contacted without an allowlist entry, or null when it is public. */
export function classifyAddress(address: string): string | null {
  const k = classify(address);
  if (!k) return 'not an IP address';
  return k.cls === 'public' ? null : k.why;
}

/** All addresses of a host name, as dns.lookup gives them (injectable for tests). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface OutboundPolicy {
  /** What is allowed besides public addresses (config: OUTBOUND_ALLOW, ALLOW_PRIVATE_OUTBOUND). */
  outboundAllow: OutboundAllow;
  resolve?: Resolve;
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
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const allow = policy.outboundAllow;
  if (METADATA_HOSTS.has(host) && !allow.hosts.has(host)) throw new OutboundRefused(`The host ${host} is a cloud metadata service and may not be contacted.`);
  let addresses: { address: string; family: number }[];
  // An IP literal is not resolved: the URL parser already turned 2852039166, 0251.0376.0251.0376
  // or 127.1 into dotted form, which is what the connection uses.
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch (err) {
      throw new OutboundRefused(`The host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
  }
  if (!addresses.length) throw new OutboundRefused(`The host ${host} could not be resolved.`);
  // Every address is judged, not only the one connected to: an answer mixing allowed and
  // forbidden addresses is refused as a whole (it is the shape of a DNS-rebinding attempt).
  for (const a of addresses) {
    const why = refusal(allow, a.address, host);
    if (why) throw new OutboundRefused(net.isIP(host) ? `The address ${host} is ${why}.` : `The host ${host} resolves to ${a.address}, ${why}.`);
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
  agent = new Agent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS, maxFreeSockets: 64, lookup });
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
    const cb = callback;
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
