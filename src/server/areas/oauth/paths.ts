/**
 * Where the OAuth 2.0 endpoints live. The REST documentation names them under the Sharing API
 * (`/sharing/rest/oauth2/…`); ArcGIS also answers them directly under `/sharing/oauth2/…`, and
 * that is where the Maps SDK for JavaScript sends the browser to sign in
 * (`IdentityManager._getAuthorizeUrl`). Both prefixes serve the same operations.
 */
import { REST } from '../../http/operation.ts';

export const OAUTH2_PREFIXES = [`${REST}/oauth2`, '/sharing/oauth2'] as const;

/** Every path an endpoint answers on: each prefix, with and without the trailing slash rest-js may add. */
export function oauth2Paths(name: string, opts: { trailingSlash?: boolean } = {}): string[] {
  return OAUTH2_PREFIXES.flatMap((prefix) => (opts.trailingSlash ? [`${prefix}/${name}`, `${prefix}/${name}/`] : [`${prefix}/${name}`]));
}
