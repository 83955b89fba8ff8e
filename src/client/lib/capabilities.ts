/**
 * What the signed-in portal offers beyond the public ArcGIS REST API. The local portal marks its
 * `portals/self` answer with `localExtras: true` while its extras are on (LOCAL_EXTRAS); other
 * portals — and the local one with LOCAL_EXTRAS=off — do not, and then the console hides or
 * disables the local-only actions (test delivery, redeliver, run now, collaboration history, the
 * external-members setting) and says why, instead of sending a request the portal cannot answer.
 * See docs/local-extras.md.
 */
import { useQuery } from '@tanstack/react-query';
import type { Portal } from '../api/index.ts';
import { portalQuery } from '../api/queries/portal.ts';
import type { Permission } from './privileges.ts';

export interface PortalCapabilities {
  /** portals/self has answered: until then actions are not refused, and local-only reads wait. */
  known: boolean;
  /** The portal said it offers this console's local-only operations and extras. */
  localExtras: boolean;
  /** The portal's name as people know it (the organization's name). */
  portalName: string;
  /** "Not available on this portal: <name> does not offer <what>." */
  unavailable(what: string): string;
}

export function capabilitiesOf(portal: Pick<Portal, 'name' | 'portalName' | 'localExtras'> | undefined): PortalCapabilities {
  const portalName = portal?.name || portal?.portalName || 'This portal';
  return {
    known: portal !== undefined,
    localExtras: portal?.localExtras === true,
    portalName,
    unavailable: (what) => `Not available on this portal: ${portalName} does not offer ${what}.`,
  };
}

export function usePortalCapabilities(): PortalCapabilities {
  const portal = useQuery(portalQuery());
  return capabilitiesOf(portal.data);
}

/**
 * A local-only action's permission: the member's own (privileges) on a portal that offers it,
 * otherwise refused with the portal's reason — GuardedButton shows it beside the disabled action.
 */
export function localOnly(caps: PortalCapabilities, what: string, permission: Permission = { allowed: true }): Permission {
  // Not known yet: offer it as before rather than flash a refusal (the page's data usually comes later).
  return caps.localExtras || !caps.known ? permission : { allowed: false, missing: '', reason: caps.unavailable(what) };
}
