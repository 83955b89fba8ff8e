/**
 * The portals and organizations a copy can go to: every other portal this tab is signed in to, and
 * any organization (of this portal or another) signed in to for the copy alone. A copy's own sign-in
 * is kept in memory for the dialog's life only, never stored: the console's session stays as it is.
 */
import { generateToken, normalizePortalUrl, request, type Portal, type PortalUser } from '../../api/index.ts';
import type { Session } from '../../lib/session.ts';
import type { PortalConnection } from './portal.ts';

export function connectionOfSession(s: Session): PortalConnection {
  return {
    portalUrl: s.portalUrl,
    token: s.token,
    username: s.user.username,
    orgId: s.user.orgId,
    label: `${s.portalName?.trim() || new URL(s.portalUrl).host} (${s.user.username})`,
  };
}

/** Signs in to `portalUrl` as `username` for the copy (generateToken, then community/self and portals/self). */
export async function signInForCopy(portalUrl: string, username: string, password: string): Promise<PortalConnection> {
  const url = normalizePortalUrl(portalUrl);
  const { token } = await generateToken({ portalUrl: url, username, password, expiration: 120 });
  const [self, portal] = await Promise.all([
    request<PortalUser>('community/self', {}, { portalUrl: url, token }),
    request<Portal>('portals/self', {}, { portalUrl: url, token }).catch(() => undefined),
  ]);
  const name = portal?.name?.trim() || new URL(url).host;
  return { portalUrl: url, token, username: self.username, orgId: self.orgId, label: `${name} (${self.username})` };
}

/** Where a copied item opens: the console's item page on the console's own portal, else the portal's item page. */
export function itemHref(target: PortalConnection, itemId: string, consolePortalUrl: string): string {
  if (normalizePortalUrl(target.portalUrl).toLowerCase() === normalizePortalUrl(consolePortalUrl).toLowerCase()) return `/content/items/${itemId}`;
  return `${target.portalUrl.replace(/\/sharing\/rest$/i, '')}/home/item.html?id=${itemId}`;
}
