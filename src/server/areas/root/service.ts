/**
 * The Sharing API root and its Info resource: what clients ask before anything else. The Maps SDK's
 * IdentityManager.checkSignInStatus validates a stored token with `GET /sharing/rest?f=json&token=…`
 * (498 means signed out); its server discovery reads `/sharing/rest/info` for the token service.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { CURRENT_VERSION } from '../portals/service.ts';
import { trimEnd } from '../../../shared/trim.ts';

/** Root: "only returns the version of the containing portal" — the same version portals/self answers. */
export function rootAnswer(): { currentVersion: string } {
  return { currentVersion: CURRENT_VERSION };
}

/** The portal's own address: PUBLIC_URL behind a proxy, else the address the request came to. */
export function portalUrlOf(config: Pick<Config, 'publicUrl'>, req: FastifyRequest): string {
  return config.publicUrl ? trimEnd(config.publicUrl, '/') : `${req.protocol}://${req.host}`;
}

/** Info: who owns this sharing API and how to get a token for it (tokens only; no web-tier sign-in). */
export function infoAnswer(config: Pick<Config, 'publicUrl'>, req: FastifyRequest) {
  const owningSystemUrl = portalUrlOf(config, req);
  return {
    owningSystemUrl,
    authInfo: { isTokenBasedSecurity: true, tokenServicesUrl: `${owningSystemUrl}/sharing/rest/generateToken` },
  };
}
