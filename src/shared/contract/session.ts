/**
 * The operations that act on no member's object: signing in and out (generateToken, revokeToken),
 * the REST root and `info`, and the health check. Public, or on the caller's own session only.
 */
import { own, type Authority } from '../authority.ts';

/** Who may call each: anyone, for themself (no privilege reaches another member's session). */
export const SESSION_OPERATIONS = {
  generateToken: own(),
  revokeToken: own(),
  restRoot: own(),
  restInfo: own(),
  healthCheck: own(),
} as const satisfies Record<string, Authority>;
