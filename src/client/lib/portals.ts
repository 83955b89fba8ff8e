/**
 * Portals as the console names them, and the OAuth apps an administrator registered the console
 * as on other portals. The app registrations (portal URL → client ID) are remembered in
 * localStorage so they are asked for once per browser; a client ID is public (it is in every
 * authorize URL), and nothing else is kept there — no secret, no token.
 */
import { normalizePortalUrl } from '../api/index.ts';

const APPS_KEY = 'portal-admin-console.oauthApps';
/** More than anyone administers; keeps a tampered or runaway list small. */
const MAX_REMEMBERED = 20;

export interface PortalApp {
  /** …/sharing/rest */
  portalUrl: string;
  clientId: string;
}

function local(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Client IDs are letters and digits (ArcGIS Online and Enterprise issue 16 of them). */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9]{1,64}$/;

export function rememberedPortalApps(): PortalApp[] {
  try {
    const parsed: unknown = JSON.parse(local()?.getItem(APPS_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (a: Partial<PortalApp> | null): a is PortalApp =>
          !!a && typeof a.portalUrl === 'string' && typeof a.clientId === 'string' && CLIENT_ID_PATTERN.test(a.clientId),
      )
      .map((a) => ({ portalUrl: normalizePortalUrl(a.portalUrl), clientId: a.clientId }))
      .slice(0, MAX_REMEMBERED);
  } catch {
    return [];
  }
}

/** The client ID remembered for this portal, if any. */
export function rememberedClientId(portalUrl: string): string | null {
  const key = normalizePortalUrl(portalUrl).toLowerCase();
  return rememberedPortalApps().find((a) => a.portalUrl.toLowerCase() === key)?.clientId ?? null;
}

/** Remembers (or replaces) the console's client ID on a portal; the most recent first. */
export function rememberPortalApp(portalUrl: string, clientId: string): void {
  if (!CLIENT_ID_PATTERN.test(clientId)) return;
  const url = normalizePortalUrl(portalUrl);
  const others = rememberedPortalApps().filter((a) => a.portalUrl.toLowerCase() !== url.toLowerCase());
  local()?.setItem(APPS_KEY, JSON.stringify([{ portalUrl: url, clientId }, ...others].slice(0, MAX_REMEMBERED)));
}

/** host[:port] of a portal URL (the URL itself when it does not parse). */
export function portalHost(portalUrl: string): string {
  try {
    return new URL(portalUrl).host;
  } catch {
    return portalUrl;
  }
}

/** What to call a portal: its name (portals/self) when known, else its host. */
export function portalLabel(portal: { portalUrl: string; portalName?: string }): string {
  return portal.portalName?.trim() || portalHost(portal.portalUrl);
}

/** Where the portal sends the browser back after its sign-in page: the console's callback route. */
export function oauthRedirectUri(origin: string = location.origin): string {
  return `${origin}/oauth-callback`;
}
