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
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import { resolveCaller, tokenFrom } from '../../http/auth.ts';
import { checkHeaderParam, checkPathParams } from '../../http/boundary.ts';
import { ApiError, forbidden } from '../../http/errors.ts';
import { REST } from '../../http/operation.ts';
import { OutboundRefused, outboundRequest } from '../../http/outbound.ts';
import { rawParams } from '../../http/params.ts';
import type { PortalContext } from '../../context.ts';
import { visibleItem } from '../items/access.ts';
import type { ItemRow } from '../items/service.ts';

/** Does `referer` match `pattern` (exact origin / URL prefix, or `scheme://*.domain[:port]`)? */
export function referrerMatches(pattern: string, referer: string): boolean {
  let ref: URL;
  try {
    ref = new URL(referer);
  } catch {
    return false;
  }
  const p = pattern.trim().replace(/\/+$/, '');
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
  const prefix = pat.pathname.replace(/\/+$/, '');
  return !prefix || ref.pathname === prefix || ref.pathname.startsWith(`${prefix}/`);
}

/** Counts one hit in the current window; answers the count including this hit. */
export async function countHit(ctx: PortalContext, itemId: string, intervalSeconds: number): Promise<number> {
  const span = intervalSeconds * 1000;
  const window = Math.floor(ctx.clock.now() / span) * span;
  const [row] = await ctx.db.query<{ hits: number }>(
    `INSERT INTO proxy_hits (item_id, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (item_id, window_start) DO UPDATE SET hits = proxy_hits.hits + 1
     RETURNING hits`,
    [itemId, window],
  );
  if (row.hits === 1) await ctx.db.query('DELETE FROM proxy_hits WHERE item_id = $1 AND window_start < $2', [itemId, window]);
  return row.hits;
}

const rateLimited = (proxy: NonNullable<ItemRow['service_proxy']>) =>
  new ApiError(
    429,
    'Rate limit exceeded. Please retry later.',
    [`This proxy allows ${proxy.hitsPerInterval} requests per ${proxy.intervalSeconds} seconds.`],
    MESSAGE_CODES.proxyRateLimited,
  );

const PASSED_BACK = ['content-type', 'content-length', 'cache-control', 'etag', 'last-modified', 'content-disposition', 'location'];

async function proxy(portal: PortalContext, req: FastifyRequest, reply: FastifyReply) {
  const params = req.params as { itemId: string; '*'?: string };
  const raw = rawParams(req);
  const token = tokenFrom(req, raw);
  // The item id and the token reach SQL; what is forwarded to the service is the service's business.
  checkPathParams({ itemId: params.itemId });
  checkHeaderParam('token', token);
  const caller = token ? await resolveCaller(portal.db, token, portal.clock.now()) : null;
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
  const rest = params['*'] ?? '';
  if (rest) upstream.pathname = `${upstream.pathname.replace(/\/+$/, '')}/${rest}`;
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
  return reply.send(res.body);
}

export function proxyRoutes(app: FastifyInstance): void {
  const portal = app.portal;
  for (const url of [`${REST}/content/items/:itemId/proxy`, `${REST}/content/items/:itemId/proxy/*`]) {
    app.route({ method: ['GET', 'POST'], url, handler: (req, reply) => proxy(portal, req, reply) });
  }
}
