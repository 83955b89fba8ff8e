/** Sign-in and sign-out. */
import { request, type RequestOptions } from './request.ts';
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

/** `POST oauth2/revokeToken` (auth_token) → {success:true}: the token stops working at once. */
export function revokeToken(token: string, options: Pick<RequestOptions, 'portalUrl'> = {}): Promise<{ success: boolean }> {
  return request<{ success: boolean }>('oauth2/revokeToken', { auth_token: token }, { method: 'POST', token: null, portalUrl: options.portalUrl });
}
