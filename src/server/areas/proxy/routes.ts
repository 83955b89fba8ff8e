/**
 * The service proxy (spec §4.1 `service` object, §7 CONT_0049). An item added (or updated) with a
 * `url` and `service: {hitsPerInterval, intervalSeconds = 60, referrers}` is reachable at
 *
 *     {base}/sharing/rest/content/items/<itemId>/proxy[/<rest of path>][?query]
 *
 * which forwards GET and POST to `<item url>[/<rest of path>][?query]` (the caller's `token` is
 * never passed on). Local choice: when the item has stored service credentials
 * (serviceUsername/servicePassword) they are sent upstream as HTTP Basic authentication
 * (`Authorization: Basic …`); the credentials never reach the caller.
 *
 * Rules: the caller must be allowed to see the item (a public proxy item needs no token); when
 * `referrers` is set the request's Referer (or Origin) must match one of them — an exact origin or
 * URL prefix, or a wildcard subdomain pattern such as `https://*.example.com` — else 403; hits are
 * counted per item and interval window in `proxy_hits` with one atomic upsert, so several service
 * processes share the count; beyond hitsPerInterval the answer is code 429, messageCode CONT_0049.
 * Outbound requests go through the SSRF guard; redirects are passed back, not followed.
 *
 * The upstream is anyone's server, answered on the portal's own origin, where the console keeps its
 * token: every upstream answer carries `Content-Security-Policy: sandbox` (no script runs, no
 * same-origin access, even if the body is HTML or SVG) and `X-Content-Type-Options: nosniff`;
 * HTML, SVG, XML and script types are also `Content-Disposition: attachment`, and a body without a
 * type is `application/octet-stream`. The path after `/proxy` is forwarded as it was sent, and a
 * path that could leave the item's URL in any reading (dot segments raw or percent-decoded once,
 * twice…, backslashes, double-encoded dots and slashes) is refused with 400 before anything else:
 * the stored service credentials go only below the registered service path.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import { tokenFrom } from '../../http/auth.ts';
import { resolveCaller } from '../users/service.ts';
import { checkHeaderParam, checkPathParams } from '../../http/boundary.ts';
import { ApiError, forbidden } from '../../http/errors.ts';
import { REST } from '../../http/operation.ts';
import { OutboundRefused, outboundRequest } from '../../http/outbound.ts';
import { rawParams } from '../../http/params.ts';
import type { PortalContext } from '../../context.ts';
import { visibleItem, type ItemRow } from '../items/service.ts';
import { countHit } from './service.ts';
import { trimEnd } from '../../../shared/trim.ts';

/** Does `referer` match `pattern` (exact origin / URL prefix, or `scheme://*.domain[:port]`)? */
export function referrerMatches(pattern: string, referer: string): boolean {
  let ref: URL;
  try {
    ref = new URL(referer);
  } catch {
    return false;
  }
  const p = trimEnd(pattern.trim(), '/');
  const wild = /^(https?):\/\/\*\.([^/:]+)(?::(\d+))?(\/.*)?$/i.exec(p);
  if (wild) {
    const [, scheme, domain, port, pathPrefix] = wild;
    if (ref.protocol !== `${scheme.toLowerCase()}:`) return false;
    if ((port ?? '') !== ref.port) return false;
    if (!ref.hostname.toLowerCase().endsWith(`.${domain.toLowerCase()}`)) return false;
    return !pathPrefix || ref.pathname.startsWith(pathPrefix);
  }
  let pat: URL;
  try {
    pat = new URL(p);
  } catch {
    return false;
  }
  if (pat.origin.toLowerCase() !== ref.origin.toLowerCase()) return false;
  const prefix = trimEnd(pat.pathname, '/');
  return !prefix || ref.pathname === prefix || ref.pathname.startsWith(`${prefix}/`);
}

const rateLimited = (proxy: NonNullable<ItemRow['service_proxy']>) =>
  new ApiError(
    429,
    'Rate limit exceeded. Please retry later.',
    [`This proxy allows ${proxy.hitsPerInterval} requests per ${proxy.intervalSeconds} seconds.`],
    MESSAGE_CODES.proxyRateLimited,
  );

/** Why `rest` (the raw path after /proxy) could leave the service path, or null. */
function traversal(rest: string): string | null {
  let view = rest;
  for (let round = 0; ; round++) {
    if (view.includes('\\')) return 'a backslash';
    if (view.includes('\0')) return 'a NUL character';
    if (view.split('/').some((s) => s === '.' || s === '..')) return "a '.' or '..' segment";
    // A dot, slash or backslash still encoded after one decoding was encoded twice: a server or
    // intermediary that decodes again would read it as a path separator or a dot segment.
    if (round > 0 && /%(2e|2f|5c)/i.test(view)) return 'a double-encoded dot, slash or backslash';
    let next: string;
    try {
      next = decodeURIComponent(view);
    } catch {
      return 'malformed percent-encoding';
    }
    if (next === view) return null;
    if (round === 3) return 'percent-encoding nested more than three deep';
    view = next;
  }
}

/** The path after `/proxy` as sent (still percent-encoded); refused with 400 if it could leave the service path. */
export function forwardedPath(rawUrl: string): string {
  const path = rawUrl.split('?')[0];
  const m = /\/content\/items\/[^/]+\/proxy(?=\/|$)/.exec(path);
  const rest = m ? path.slice(m.index + m[0].length) : '';
  const why = traversal(rest);
  if (why)
    throw new ApiError(400, 'Invalid proxy path.', [`The path after /proxy holds ${why}; it may not leave the service's URL.`], undefined, { path: why });
  return rest;
}

/** Types a browser runs or renders as a document with scripts: never shown inline from the portal's origin. */
const ACTIVE_TYPE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xsl|[a-z]+\/(x-)?(java|ecma|j)script|[a-z]+\/([a-z0-9.-]+\+)?xml)$/;

export function isActiveType(contentType: string | undefined): boolean {
  return ACTIVE_TYPE.test((contentType ?? '').split(';')[0].trim().toLowerCase());
}

const PASSED_BACK = ['content-type', 'content-length', 'cache-control', 'etag', 'last-modified', 'content-disposition', 'location'];

async function proxy(portal: PortalContext, req: FastifyRequest, reply: FastifyReply) {
  const params = req.params as { itemId: string; '*'?: string };
  const raw = rawParams(req);
  const token = tokenFrom(req, raw);
  // The item id and the token reach SQL; what is forwarded to the service is the service's business.
  checkPathParams({ itemId: params.itemId });
  checkHeaderParam('token', token);
  const rest = forwardedPath(req.url);
  const caller = token ? await resolveCaller(portal.db, token, portal.clock.now(), req) : null;
  const item = await visibleItem(portal.db, params.itemId, caller);
  const settings = item.service_proxy;
  if (!settings || !item.url) throw new ApiError(400, 'This item has no service proxy.', [`Item '${item.id}' was not added with a service proxy.`]);
  if (settings.referrers?.length) {
    const referer = String(req.headers.referer ?? req.headers.origin ?? '');
    if (!referer || !settings.referrers.some((p) => referrerMatches(p, referer)))
      throw forbidden(referer ? `The referrer ${referer} is not allowed to use this proxy.` : 'This proxy needs a Referer header.');
  }
  const hits = await countHit(portal, item.id, settings.intervalSeconds ?? 60);
  if (hits > settings.hitsPerInterval) throw rateLimited(settings);

  const upstream = new URL(item.url);
  const servicePath = trimEnd(upstream.pathname, '/');
  if (rest) upstream.pathname = `${servicePath}${rest}`;
  // forwardedPath refused every form the URL parser would resolve; this holds even if one slipped by.
  if (upstream.origin !== new URL(item.url).origin || (upstream.pathname !== servicePath && !upstream.pathname.startsWith(`${servicePath}/`)))
    throw new ApiError(400, 'Invalid proxy path.', ["The path after /proxy leaves the service's URL."]);
  const query = new URLSearchParams(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
  query.delete('token');
  for (const [k, v] of query) upstream.searchParams.append(k, v);
  const headers: Record<string, string> = {};
  if (item.service_credentials?.username) {
    headers.authorization = `Basic ${Buffer.from(`${item.service_credentials.username}:${item.service_credentials.password}`).toString('base64')}`;
  }
  let body: string | undefined;
  if (req.method === 'POST') {
    const form = new URLSearchParams();
    const bodyParams = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(bodyParams)) if (k !== 'token' && typeof v === 'string') form.append(k, v);
    body = form.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  let res;
  try {
    res = await outboundRequest(upstream.toString(), portal.config, { method: req.method === 'POST' ? 'POST' : 'GET', headers, body, timeoutMs: 30_000 });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new ApiError(403, 'The proxied service may not be contacted.', [err.message]);
    throw new ApiError(502, 'The proxied service could not be reached.', [(err as Error).message]);
  }
  reply.code(res.status);
  for (const h of PASSED_BACK) if (res.headers[h] !== undefined) reply.header(h, res.headers[h]);
  reply.header('Content-Security-Policy', 'sandbox').header('X-Content-Type-Options', 'nosniff');
  if (!res.headers['content-type']) reply.header('content-type', 'application/octet-stream');
  else if (isActiveType(res.headers['content-type'])) reply.header('Content-Disposition', 'attachment');
  return reply.send(res.body);
}

export function proxyRoutes(app: FastifyInstance): void {
  const portal = app.portal;
  for (const url of [`${REST}/content/items/:itemId/proxy`, `${REST}/content/items/:itemId/proxy/*`]) {
    // HEAD as well: what it passes back may be a file, whose size a client asks first.
    app.route({ method: ['GET', 'POST'], url, exposeHeadRoute: true, handler: (req, reply) => proxy(portal, req, reply) });
  }
}
