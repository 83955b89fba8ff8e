/**
 * OAuth 2.0 sign-in with the authorization code grant and PKCE (RFC 7636), as ArcGIS portals
 * offer it (oauth2/authorize → redirect back with ?code → oauth2/token). Loaded by the sign-in and
 * callback pages only, never by the rest of the console.
 *
 * Why not @esri/arcgis-rest-request's ArcGISIdentityManager (docs/console-sign-in.md): it keeps
 * the state and the code verifier in localStorage (shared by every tab, kept after the tab
 * closes), its requests and refreshes bypass the console's request() core (error envelope →
 * ApiError, the 498 refresher, several portals' sessions), and it would add its own request stack
 * to the sign-in chunk. The flow itself is short; it is written here with the same steps.
 *
 * What waits for the callback — state, code verifier, portal, client ID, redirect URI and the page
 * to return to — is kept in sessionStorage (this tab) and removed when the callback reads it.
 */
import { describeError, exchangeAuthorizationCode, getPortal, getSelf, normalizePortalUrl, type ApiError } from '../api/index.ts';
import { safeReturnTo } from './returnTo.ts';
import type { Session } from './session.ts';
import { oauthRedirectUri, portalHost } from './portals.ts';

const PENDING_KEY = 'portal-admin-console.oauthPending';

/** Minutes asked for on oauth2/authorize (`expiration`: how long the refresh token lasts): a working day. */
export const OAUTH_SESSION_MINUTES = 8 * 60;

/** RFC 7636 §4.1: 43–128 characters of A–Z a–z 0–9 - . _ ~ */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** base64url without padding (RFC 7636 Appendix A). */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomBase64Url(byteCount: number): string {
  const bytes = new Uint8Array(byteCount);
  crypto.getRandomValues(bytes);
  return base64Url(bytes);
}

/** A code verifier: 48 random bytes as base64url = 64 characters (RFC 7636 §4.1 asks for 43–128). */
export function createCodeVerifier(): string {
  return randomBase64Url(48);
}

/** The S256 code challenge: base64url(SHA-256(ASCII(verifier))) (RFC 7636 §4.2). */
export async function codeChallengeS256(verifier: string): Promise<string> {
  if (!CODE_VERIFIER_PATTERN.test(verifier)) throw new Error('A PKCE code verifier is 43–128 characters of A–Z a–z 0–9 - . _ ~');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** The state sent with the authorize request: 32 random bytes, matched exactly at the callback. */
export function createState(): string {
  return randomBase64Url(32);
}

export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  portalUrl: string;
  clientId: string;
  redirectUri: string;
  returnTo: string;
}

function tab(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Reads and forgets the sign-in waiting for its callback: a state is good for one answer only. */
export function takePendingSignIn(): PendingSignIn | null {
  const s = tab();
  const raw = s?.getItem(PENDING_KEY);
  s?.removeItem(PENDING_KEY);
  if (!raw) return null;
  try {
    const p = JSON.parse(raw) as Partial<PendingSignIn>;
    const fields = [p.state, p.codeVerifier, p.portalUrl, p.clientId, p.redirectUri, p.returnTo];
    return fields.every((f) => typeof f === 'string' && f.length > 0) ? (p as PendingSignIn) : null;
  } catch {
    return null;
  }
}

export interface BeginOAuthInput {
  portalUrl: string;
  clientId: string;
  /** The console page to open after signing in. */
  returnTo: string;
  /** The console's origin (tests pass one); the redirect URI is <origin>/oauth-callback. */
  origin?: string;
}

/**
 * Starts a sign-in: makes the verifier, challenge and state, keeps what the callback needs in this
 * tab, and returns the portal's authorize URL for the browser to open.
 */
export async function beginOAuthSignIn(input: BeginOAuthInput): Promise<string> {
  const portalUrl = normalizePortalUrl(input.portalUrl);
  const codeVerifier = createCodeVerifier();
  const challenge = await codeChallengeS256(codeVerifier);
  const pending: PendingSignIn = {
    state: createState(),
    codeVerifier,
    portalUrl,
    clientId: input.clientId,
    redirectUri: oauthRedirectUri(input.origin),
    returnTo: safeReturnTo(input.returnTo) ?? '/overview',
  };
  tab()?.setItem(PENDING_KEY, JSON.stringify(pending));
  const query = new URLSearchParams({
    client_id: pending.clientId,
    response_type: 'code',
    redirect_uri: pending.redirectUri,
    state: pending.state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    expiration: String(OAUTH_SESSION_MINUTES),
  });
  return `${portalUrl}/oauth2/authorize?${query}`;
}

/** Why a sign-in through the portal did not end with a session: for the sign-in page. */
export class OAuthSignInError extends Error {
  override readonly name = 'OAuthSignInError';
  constructor(
    readonly title: string,
    message: string,
    /** Where the member was going (kept for the next attempt). */
    readonly returnTo: string,
    /** The portal's own error code (access_denied, invalid_grant…), when it gave one. */
    readonly reason?: string,
  ) {
    super(message);
  }
}

export interface CompletedSignIn {
  session: Session;
  returnTo: string;
}

/**
 * The callback: checks the state exactly, exchanges the code (with the verifier) for tokens, reads
 * community/self and portals/self with the new token. Rejects with an OAuthSignInError that says
 * what went wrong in the portal's words; never exchanges a code whose state does not match.
 */
export async function completeOAuthSignIn(search: string, now: () => number = Date.now): Promise<CompletedSignIn> {
  const params = new URLSearchParams(search);
  const pending = takePendingSignIn();
  if (!pending) {
    throw new OAuthSignInError(
      'Sign-in could not be completed',
      'This tab has no sign-in waiting for an answer (it was completed already, or started in another tab). Start again.',
      '/overview',
      'no_pending_sign_in',
    );
  }
  const { returnTo } = pending;
  const where = portalHost(pending.portalUrl);
  if (params.get('state') !== pending.state) {
    throw new OAuthSignInError(
      'Sign-in could not be completed',
      `The answer from ${where} does not belong to the sign-in this tab started (state mismatch), so it was not used. Start again.`,
      returnTo,
      'state_mismatch',
    );
  }
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description')?.trim();
    if (error === 'access_denied') {
      throw new OAuthSignInError('Sign-in cancelled', `Sign-in was cancelled on ${where}${description ? `: ${description}` : '.'}`, returnTo, error);
    }
    throw new OAuthSignInError('Sign-in failed', `${where} did not sign you in (${error})${description ? `: ${description}` : '.'}`, returnTo, error);
  }
  const code = params.get('code');
  if (!code) throw new OAuthSignInError('Sign-in failed', `${where} sent no authorization code back. Start again.`, returnTo, 'no_code');

  const started = now();
  let answer;
  try {
    answer = await exchangeAuthorizationCode({
      portalUrl: pending.portalUrl,
      clientId: pending.clientId,
      code,
      redirectUri: pending.redirectUri,
      codeVerifier: pending.codeVerifier,
    });
  } catch (err) {
    throw new OAuthSignInError('Sign-in failed', `${where} refused the sign-in: ${describeError(err)}`, returnTo, (err as ApiError).messageCode);
  }
  let user;
  try {
    user = await getSelf({ portalUrl: pending.portalUrl, token: answer.access_token });
  } catch (err) {
    throw new OAuthSignInError('Sign-in failed', `Signed in, but your account on ${where} could not be read: ${describeError(err)}`, returnTo);
  }
  const portal = await getPortal({ portalUrl: pending.portalUrl, token: answer.access_token }).catch(() => null);
  return {
    returnTo,
    session: {
      portalUrl: pending.portalUrl,
      token: answer.access_token,
      expires: started + answer.expires_in * 1000,
      user,
      portalName: portal?.name || undefined,
      clientId: pending.clientId,
      refreshToken: answer.refresh_token,
      refreshTokenExpires: answer.refresh_token && answer.refresh_token_expires_in ? started + answer.refresh_token_expires_in * 1000 : undefined,
    },
  };
}
