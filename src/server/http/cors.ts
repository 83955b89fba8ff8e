/**
 * CORS as ArcGIS portals answer it: an allowed request Origin is echoed with
 * `Access-Control-Allow-Credentials: true`, because the Maps SDK sends `portals/self` and requests
 * to trusted servers with credentials, and browsers refuse `*` on those. Which origins: the
 * portal's `allowedOrigins` (empty: all). An origin not allowed gets no Access-Control-Allow-*
 * header at all, so the browser keeps the answer from its page.
 *
 * Echoing an origin lends nobody a session: no cookie ever authenticates a REST request (tokens
 * come only from the `token` parameter or the Authorization headers: http/auth.ts), so a page on
 * another origin can do with credentials exactly what it could do without them (docs/security.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Request headers a cross-origin caller may send: the token headers, the SDK's and rest-js's own, and caching ones. */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'X-Esri-Authorization',
  'X-Esri-Request-Source',
  'X-Requested-With',
  'Content-Type',
  'Cache-Control',
  'Pragma',
  'If-Modified-Since',
  'If-None-Match',
  'Range',
];
const ALLOWED_HEADER_NAMES = new Map(CORS_ALLOWED_HEADERS.map((h) => [h.toLowerCase(), h]));
export const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';
/** How long a browser may reuse a preflight's answer (seconds): short, so a changed allow-list soon applies. */
export const CORS_MAX_AGE_SECONDS = 600;

/** Whether `origin` may call: listed, or the list is empty. */
const allows = (origins: ReadonlySet<string>, origin: string) => origins.size === 0 || origins.has(origin.toLowerCase());

function answerOrigin(reply: FastifyReply, origin: string, origins: ReadonlySet<string> | undefined): void {
  if (!origins || !allows(origins, origin)) return;
  if (origin === 'null') {
    // An opaque origin (a sandboxed frame, a file: page) is any page's to claim: such callers get
    // uncredentialed access, as before, and only while every origin is allowed.
    if (origins.size === 0) reply.header('Access-Control-Allow-Origin', '*');
    return;
  }
  reply.header('Access-Control-Allow-Origin', origin).header('Access-Control-Allow-Credentials', 'true');
}

/** The requested headers this portal accepts, in their usual spelling (others are left out, and the browser refuses the request). */
function acceptedHeaders(req: FastifyRequest): string {
  const requested = req.headers['access-control-request-headers'];
  if (typeof requested !== 'string') return CORS_ALLOWED_HEADERS.join(', ');
  const accepted = requested
    .split(',')
    .map((h) => ALLOWED_HEADER_NAMES.get(h.trim().toLowerCase()))
    .filter((h): h is string => h !== undefined);
  return [...new Set(accepted)].join(', ');
}

/** The organization's allowed origins, kept a few seconds (areas/portals/allowedOrigins.ts). */
export interface OriginList {
  /** The kept list while it is fresh, else undefined. */
  fresh(): ReadonlySet<string> | undefined;
  /** Reads the list again. */
  refresh(): Promise<ReadonlySet<string>>;
}

/** `list` is given by the app (the HTTP layer imports no area). */
export function installCors(app: FastifyInstance, list: OriginList): void {
  // Hooks on every request take the callback form: an async hook costs a promise and a turn of the
  // microtask queue per request, which shows in the cheapest operations' throughput. The list is
  // read from the database only when the kept copy is stale (every few seconds).
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return done();
    // The answer depends on the Origin: a shared cache must not give one origin's answer to another.
    reply.header('Vary', 'Origin');
    const fresh = list.fresh();
    if (fresh) {
      answerOrigin(reply, origin, fresh);
      return done();
    }
    list.refresh().then(
      (origins) => {
        answerOrigin(reply, origin, origins);
        done();
      },
      (err: unknown) => {
        // Without the list no origin is vouched for; the request itself goes on (and most likely fails the same way).
        req.log.error({ err }, 'reading the allowed origins failed');
        done();
      },
    );
  });
  app.options('/*', (req, reply) => {
    reply.header('Vary', 'Origin, Access-Control-Request-Headers');
    if (reply.hasHeader('Access-Control-Allow-Origin')) {
      reply
        .header('Access-Control-Allow-Methods', CORS_ALLOWED_METHODS)
        .header('Access-Control-Allow-Headers', acceptedHeaders(req))
        .header('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
    }
    reply.code(204).send();
  });
}
