/**
 * Whether the portal typed on the sign-in page can be signed in to with OAuth, and with which
 * client ID: the console's own server says so in /console-config.json for its portal; for any
 * other portal the client ID the administrator entered once (remembered in localStorage).
 * Also the portal's name, from its anonymous portals/self (the host until it answers).
 */
import { useQuery } from '@tanstack/react-query';
import { getConsoleConfig, getPortal, normalizePortalUrl } from '../../api/index.ts';
import { portalHost, rememberedClientId } from '../../lib/portals.ts';
import { portalKeys } from '../../api/queries/portal.ts';

export interface OAuthOption {
  /** The portal's name, or its host while unknown. */
  label: string;
  clientId: string | null;
  /** `console`: this server registered the console itself; `remembered`: entered on this browser. */
  source: 'console' | 'remembered' | null;
  /** The portal is the one this console's server fronts. */
  isConsolePortal: boolean;
  /** The console's configuration is still being read (nothing to decide yet). */
  loading: boolean;
}

const sameUrl = (a: string, b: string) => normalizePortalUrl(a).toLowerCase() === normalizePortalUrl(b).toLowerCase();

export function useOAuthOption(portalUrl: string | null, rememberedVersion = 0): OAuthOption {
  const config = useQuery({
    queryKey: portalKeys.consoleConfig,
    queryFn: ({ signal }) => getConsoleConfig(undefined, signal),
    staleTime: Infinity,
    retry: false,
  });
  const info = useQuery({
    queryKey: portalKeys.nameOf(portalUrl),
    queryFn: ({ signal }) => getPortal({ portalUrl: portalUrl!, token: null, signal }),
    enabled: !!portalUrl,
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (!portalUrl) return { label: '', clientId: null, source: null, isConsolePortal: false, loading: config.isPending };
  const isConsolePortal = !!config.data && sameUrl(config.data.portalUrl, portalUrl);
  const fromConsole = isConsolePortal ? (config.data?.oauth?.clientId ?? null) : null;
  // rememberedVersion changes when the page stores a client ID, so this is read again.
  void rememberedVersion;
  const remembered = fromConsole ? null : rememberedClientId(portalUrl);
  return {
    label: info.data?.name?.trim() || portalHost(portalUrl),
    clientId: fromConsole ?? remembered,
    source: fromConsole ? 'console' : remembered ? 'remembered' : null,
    isConsolePortal,
    loading: config.isPending,
  };
}
