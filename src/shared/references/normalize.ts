/**
 * Normalising what a reference points at, so that two spellings of the same thing compare equal:
 * item ids (32 hex digits, any case) and service URLs (a layer of a service, a trailing slash, a
 * query string, http or https all name the same service). Pure string work: no DOM, no Node.
 */

import { trimEnd } from '../trim.ts';

const ITEM_ID = /^[0-9a-f]{32}$/i;

/** The item id in lower case, or undefined when `value` is not one (32 hex digits, blanks around allowed). */
export function normalizeItemId(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  return ITEM_ID.test(v) ? v.toLowerCase() : undefined;
}

const CONTENT_ITEMS = /\/content\/items\//gi;
const ITEM_PAGE = /\/item\.html\?/i;
const ID_LENGTH = 32;

const isHexAt = (s: string, from: number, to: number) => to <= s.length && ITEM_ID.test(s.slice(from, to));

/**
 * An item's id inside a portal URL: `…/sharing/rest/content/items/<id>/…` (an item's data or a
 * resource, e.g. a vector tile style's `root.json`) or `…/home/item.html?id=<id>`.
 *
 * One pass over the URL, no backtracking: item data is request data, and a pattern that tries
 * every `item.html?` against the whole rest of the string is quadratic (a 240 kB layer URL of
 * repeated `/item.html?&` held the request thread for seconds). Each `/content/items/` is followed
 * by exactly 32 characters to check; the item page's query (up to its fragment) is read once,
 * parameter by parameter, and the first `id` parameter holding an item id wins.
 */
export function itemIdInUrl(url: string): string | undefined {
  const items = CONTENT_ITEMS;
  items.lastIndex = 0;
  for (let m = items.exec(url); m; m = items.exec(url)) {
    const from = m.index + m[0].length;
    const to = from + ID_LENGTH;
    if (isHexAt(url, from, to) && (to === url.length || '/?#'.includes(url[to]))) return url.slice(from, to).toLowerCase();
  }
  const page = ITEM_PAGE.exec(url);
  if (!page) return undefined;
  const hash = url.indexOf('#', page.index);
  const end = hash < 0 ? url.length : hash;
  for (let start = page.index + page[0].length; start <= end;) {
    const amp = url.indexOf('&', start);
    const stop = amp < 0 || amp > end ? end : amp;
    // `id=` and 32 hex digits, nothing else: no search beyond this parameter.
    if (stop - start === 3 + ID_LENGTH && url.slice(start, start + 3).toLowerCase() === 'id=' && isHexAt(url, start + 3, stop)) {
      return url.slice(start + 3, stop).toLowerCase();
    }
    start = stop + 1;
  }
  return undefined;
}

/** Where a URL's service root ends: the parts of `…/services/[folder/]Name/<Type>Server`. */
interface ParsedUrl {
  /** `http` or `https`, as written (lower case). */
  scheme: string;
  /** `host[:port]` in lower case, credentials and default ports dropped. */
  host: string;
  /** The path's segments, without empty ones (so no trailing slash). */
  segments: string[];
  /** Index of the `<Type>Server` segment, or -1 when the URL is not an ArcGIS service URL. */
  serverAt: number;
}

const SERVER_SEGMENT = /^[a-z]+server$/i;

function parse(raw: string): ParsedUrl | undefined {
  let s = raw.trim();
  if (s.startsWith('//')) s = `https:${s}`;
  const m = /^(https?):\/\/([^/?#\s]+)([^?#\s]*)/i.exec(s);
  if (!m) return undefined;
  let host = m[2].toLowerCase();
  // Credentials in a URL are not part of what it names.
  const at = host.lastIndexOf('@');
  if (at >= 0) host = host.slice(at + 1);
  host = host.replace(/:(443|80)$/, '');
  if (!host) return undefined;
  const segments = m[3].split('/').filter((p) => p !== '');
  // ArcGIS Server: `…/rest/services/[folder/]Name/<Type>Server[/layer…]` (and `…/services/…` on
  // hosted servers). The first `<Type>Server` segment after `services` ends the service root.
  let serverAt = -1;
  const servicesAt = segments.findIndex((p) => p.toLowerCase() === 'services');
  if (servicesAt >= 0) {
    for (let i = servicesAt + 1; i < segments.length; i++) {
      if (SERVER_SEGMENT.test(segments[i])) {
        serverAt = i;
        break;
      }
    }
  }
  return { scheme: m[1].toLowerCase(), host, segments, serverAt };
}

/**
 * The key a service URL is matched by: a layer or sub-resource of an ArcGIS service is cut back to
 * the service root (`…/FeatureServer/0/query?…` → `…/FeatureServer`), the query string and fragment
 * are dropped, trailing slashes removed, scheme and host lower-cased, `http:` taken as `https:` and
 * default ports dropped. ArcGIS Server resolves service paths without regard to case, so an ArcGIS
 * service root is lower-cased whole; any other URL keeps its path's case (a CSV or KML file on a
 * web server may be case-sensitive). Undefined when `value` is not an absolute http(s) URL.
 */
export function normalizeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const p = parse(value);
  if (!p) return undefined;
  const origin = `https://${p.host}`;
  if (p.serverAt >= 0) return `${origin}/${p.segments.slice(0, p.serverAt + 1).join('/')}`.toLowerCase();
  return p.segments.length ? `${origin}/${p.segments.join('/')}` : origin;
}

/** True when `value` is an ArcGIS service URL with something after the service root (a layer, a table, `/query`…). */
export function isBelowServiceRoot(value: string): boolean {
  const p = parse(value);
  return !!p && p.serverAt >= 0 && p.serverAt < p.segments.length - 1;
}

/**
 * `value` as written, cut back to its service root (scheme, case and host as given; query, layer and
 * trailing slashes dropped). For a URL that is not an ArcGIS service URL: without query and trailing
 * slashes. Undefined when `value` is not an absolute http(s) URL.
 */
export function serviceRootText(value: string): string | undefined {
  const p = parse(value);
  if (!p) return undefined;
  const segments = p.serverAt >= 0 ? p.segments.slice(0, p.serverAt + 1) : p.segments;
  return `${p.scheme}://${p.host}${segments.length ? `/${segments.join('/')}` : ''}`;
}

/**
 * Rewrites the part of `raw` that `normalizeUrl(raw)` names with `to`, keeping what follows it:
 * `…/Old/FeatureServer/3?where=1=1` with `to` = `…/New/FeatureServer` gives `…/New/FeatureServer/3?where=1=1`.
 * For a URL that is not an ArcGIS service URL the whole URL is replaced, keeping its query string.
 */
export function rewriteUrl(raw: string, to: string): string {
  const target = trimEnd(to, '/');
  const p = parse(raw);
  if (!p) return target;
  const s = raw.trim();
  const queryAt = s.search(/[?#]/);
  const query = queryAt >= 0 ? s.slice(queryAt) : '';
  const rest = p.serverAt >= 0 ? p.segments.slice(p.serverAt + 1) : [];
  // A query string on the replacement wins: it was chosen by the caller.
  const keepQuery = /[?#]/.test(target) ? '' : query;
  return `${target}${rest.length ? `/${rest.join('/')}` : ''}${keepQuery}`;
}
