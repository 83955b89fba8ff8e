/**
 * `allowedOrigins` of `portals/<orgId>/update` and `portals/self`: the web origins that may call the
 * portal from a browser with credentials (CORS). Sent as a comma-separated list (or a JSON array);
 * answered as an array. Empty: every origin may call (the portal's default).
 */
import { z } from 'zod';
import { commaList } from './wire.ts';

export const MAX_ALLOWED_ORIGINS = 100;
const MAX_ORIGIN_CHARS = 2048;

/**
 * Why `value` is not an origin as browsers send it in the Origin header (http or https, a host, an
 * optional port, nothing after), or undefined when it is one. The ArcGIS documentation asks for the
 * scheme with the host and allows no wildcard.
 */
export function originProblem(value: string): string | undefined {
  if (value.length > MAX_ORIGIN_CHARS) return `is longer than ${MAX_ORIGIN_CHARS} characters`;
  if (value.includes('*')) return 'has a wildcard: name each origin (an empty list allows every origin)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not scheme://host[:port]';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.username || url.password) return 'must not carry credentials';
  // The origin is all there is: no path (not even a trailing slash), query or fragment.
  if (url.pathname !== '/' || value.endsWith('/') || value.includes('?') || value.includes('#')) {
    return 'must be scheme://host[:port] with no path, query or trailing slash';
  }
  return undefined;
}

/** The parameter: origins normalised as browsers send them (lower case, default port dropped), no duplicates. */
export const allowedOriginsParam = commaList.transform((list, ctx) => {
  if (list.length > MAX_ALLOWED_ORIGINS) {
    ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_ALLOWED_ORIGINS} origins (${list.length} were sent)` });
    return z.NEVER;
  }
  const origins: string[] = [];
  for (const entry of list) {
    const problem = originProblem(entry);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `'${entry.slice(0, 200)}' ${problem}` });
      continue;
    }
    const origin = new URL(entry).origin;
    if (!origins.includes(origin)) origins.push(origin);
  }
  return origins;
});
