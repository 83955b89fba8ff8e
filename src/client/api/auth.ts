/** Sign-in (generateToken, OAuth 2.0 code exchange and refresh) and sign-out (revokeToken). */
import { request, type RequestOptions } from './request.ts';
import type { ConsoleConfig, OAuthTokenResponse } from '../../shared/contract/oauth.ts';
import type { TokenResponse } from './types.ts';

export interface GenerateTokenInput {
  username: string;
  password: string;
  /** Minutes; the portal caps it (portals/self maxTokenExpirationMinutes). */
  expiration?: number;
  /** Sign in to this portal instead of the configured one. */
  portalUrl?: string;
}

/** `POST generateToken` → {token, expires (epoch ms), ssl}. The token is bound to this page's origin as referer. */
export function generateToken(input: GenerateTokenInput, options: Pick<RequestOptions, 'signal'> = {}): Promise<TokenResponse> {
  const referer = typeof location !== 'undefined' && location.origin !== 'null' ? location.origin : 'portal-admin-console';
  return request<TokenResponse>(
    'generateToken',
    { username: input.username, password: input.password, expiration: input.expiration, client: 'referer', referer },
    { method: 'POST', token: null, portalUrl: input.portalUrl, signal: options.signal },
  );
}

/**
 * `POST oauth2/revokeToken` (auth_token, client_id) → {success:true}: the token stops working at
 * once. For OAuth tokens the portal wants the client ID of the app that got them (it revokes only
 * its own app's tokens); a refresh token takes the access tokens issued from it along.
 */
export function revokeToken(token: string, options: Pick<RequestOptions, 'portalUrl'> & { clientId?: string } = {}): Promise<{ success: boolean }> {
  return request<{ success: boolean }>(
    'oauth2/revokeToken',
    { auth_token: token, client_id: options.clientId },
    { method: 'POST', token: null, portalUrl: options.portalUrl },
  );
}

/** The answer of `oauth2/token` (seconds, as the documentation gives them). */
export type { OAuthTokenResponse, ConsoleConfig } from '../../shared/contract/oauth.ts';

export interface AuthorizationCodeInput {
  portalUrl: string;
  clientId: string;
  code: string;
  /** The redirect_uri sent to oauth2/authorize: the portal checks they are the same. */
  redirectUri: string;
  /** PKCE (RFC 7636): the secret whose S256 hash went to oauth2/authorize. */
  codeVerifier: string;
}

/** `POST oauth2/token` grant_type=authorization_code: the code from the callback → access and refresh token. */
export function exchangeAuthorizationCode(input: AuthorizationCodeInput, options: Pick<RequestOptions, 'signal'> = {}): Promise<OAuthTokenResponse> {
  return request<OAuthTokenResponse>(
    'oauth2/token',
    { grant_type: 'authorization_code', client_id: input.clientId, code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier },
    { method: 'POST', token: null, portalUrl: input.portalUrl, signal: options.signal },
  );
}

/** `POST oauth2/token` grant_type=refresh_token → a new access token (and, on some portals, a new refresh token). */
export function refreshAccessToken(input: { portalUrl: string; clientId: string; refreshToken: string }): Promise<OAuthTokenResponse> {
  return request<OAuthTokenResponse>(
    'oauth2/token',
    { grant_type: 'refresh_token', client_id: input.clientId, refresh_token: input.refreshToken },
    { method: 'POST', token: null, portalUrl: input.portalUrl },
  );
}

/**
 * `GET /console-config.json` on the console's own server: the portal it fronts and, when the
 * console is registered there, the client ID to sign in with. Not a REST operation (no f=json,
 * no token); a server without the file (404, not JSON) means "nothing configured".
 */
export async function getConsoleConfig(
  origin: string = typeof location !== 'undefined' ? location.origin : '',
  signal?: AbortSignal,
): Promise<ConsoleConfig | null> {
  let response: Response;
  try {
    response = await fetch(`${origin}/console-config.json`, { signal, credentials: 'same-origin', headers: { Accept: 'application/json' } });
  } catch (err) {
    if (err instanceof Error && err.name === 'AbortError') throw err;
    return null;
  }
  if (!response.ok) return null;
  try {
    const json = (await response.json()) as Partial<ConsoleConfig> | null;
    if (!json || typeof json.portalUrl !== 'string') return null;
    const clientId = json.oauth && typeof json.oauth.clientId === 'string' && json.oauth.clientId ? json.oauth.clientId : undefined;
    return { portalUrl: json.portalUrl, ...(clientId ? { oauth: { clientId } } : {}) };
  } catch {
    return null;
  }
}
