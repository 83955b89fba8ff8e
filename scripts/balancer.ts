/**
 * A small round-robin HTTP load balancer for running several local portals side by side (the
 * scale-out check, docs/operations.md). Every request goes to the next backend in turn — strictly,
 * with no affinity — so that consecutive requests of one client (the parts of one upload, a write
 * and the read after it) land on different instances: that is what proves the instances share
 * nothing but PostgreSQL and the object store.
 *
 *   node --import tsx scripts/balancer.ts [--port 8080] [--host 127.0.0.1] http://127.0.0.1:3001 http://127.0.0.1:3002
 *
 * Bodies stream both ways (a 512 MB upload is never held in memory). The balancer adds
 * X-Forwarded-For/-Proto/-Host; the instances trust them with TRUST_PROXY=<the balancer's address>.
 * A backend that cannot be reached answers 502 in the REST API's error envelope. Requests are not
 * retried on another backend: a body already sent cannot be replayed, and a write may have happened.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface Balancer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** Replaces the backends (e.g. once instances whose PUBLIC_URL is this balancer have started). */
  setBackends(backends: string[]): void;
  close(): Promise<void>;
}

export interface BalancerOptions {
  port?: number;
  host?: string;
  /**
   * Listen before any backend is known (they come later through `setBackends`; until then requests
   * answer 503). Lets a caller own the balancer's port before starting instances that must know it,
   * instead of probing for a free port that another process may take in between.
   */
  backendsLater?: boolean;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: each side of the
// proxy has its own connection, so they are not passed on. Everything else is.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEndHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  // A Connection header may name further hop-by-hop headers.
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name)) out[name] = value;
  }
  return out;
}

function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers = endToEndHeaders(req.headers);
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${String(prior)}, ${client}` : client;
  headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

/** The REST API's error envelope (HTTP 200 on the API, but a gateway's failure is not the API's answer: 502). */
function sendBadGateway(res: http.ServerResponse, backend: string, err: Error): void {
  if (res.headersSent) {
    // Part of the answer is already out: the client must see a broken response, not a truncated "success".
    res.destroy(err);
    return;
  }
  const body = JSON.stringify({ error: { code: 502, message: `The backend ${backend} could not be reached.`, details: [err.message] } });
  res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function backendUrls(backends: string[]): URL[] {
  if (backends.length === 0) throw new Error('startBalancer: at least one backend is needed');
  const targets = backends.map((b) => new URL(b));
  for (const t of targets) if (t.protocol !== 'http:') throw new Error(`startBalancer: ${t.href} is not an http:// URL`);
  return targets;
}

function sendNoBackend(res: http.ServerResponse): void {
  const body = JSON.stringify({ error: { code: 503, message: 'No backend is ready yet.', details: [] } });
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startBalancer(backends: string[], opts: BalancerOptions = {}): Promise<Balancer> {
  let targets = opts.backendsLater && backends.length === 0 ? [] : backendUrls(backends);
  // Keep-alive: a new TCP connection per request would dominate the time of small API calls.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;

  const server = http.createServer((req, res) => {
    if (targets.length === 0) {
      req.resume();
      sendNoBackend(res);
      return;
    }
    const target = targets[next % targets.length];
    next = (next + 1) % targets.length;
    const upstream = http.request({
      agent,
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: forwardedHeaders(req),
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.headers));
      answer.pipe(res);
      answer.on('error', (err) => res.destroy(err));
    });
    upstream.on('error', (err) => sendBadGateway(res, target.host, err));
    // The client went away (or its body broke off): stop the backend's work on it too.
    req.on('error', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  // Large uploads and slow report tasks: no request timeout at the balancer (the instances have theirs).
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    setBackends(urls) {
      targets = backendUrls(urls);
      next = 0;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}

function parseCommandLine(args: string[]): { backends: string[]; port: number; host: string } {
  const backends: string[] = [];
  let port = 8080;
  let host = '127.0.0.1';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port') port = Number(args[++i]);
    else if (args[i] === '--host') host = args[++i];
    else backends.push(args[i]);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a port number');
  if (backends.length === 0) throw new Error('usage: balancer.ts [--port 8080] [--host 127.0.0.1] http://backend1 http://backend2 …');
  return { backends, port, host };
}

// Run as a program: not when imported, nor when bundled into another program (the console tests'
// portal, scripts/build-server.ts), where import.meta.url names that program's file. No top-level
// await: that bundle is CommonJS.
async function runAsProgram(): Promise<void> {
  try {
    const { backends, port, host } = parseCommandLine(process.argv.slice(2));
    const balancer = await startBalancer(backends, { port, host });
    console.log(`Balancer: ${balancer.url} → ${backends.join(', ')} (round robin)`);
    const stop = () => void balancer.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && import.meta.url.endsWith('/balancer.ts')) void runAsProgram();
