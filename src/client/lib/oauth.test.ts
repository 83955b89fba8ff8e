import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getConsoleConfig } from '../api/index.ts';
import { answerOnPortal, registerApp } from '../test/oauth.ts';
import { startClientService, type ClientTestService } from '../test/service.ts';
import {
  base64Url,
  beginOAuthSignIn,
  codeChallengeS256,
  completeOAuthSignIn,
  createCodeVerifier,
  createState,
  OAuthSignInError,
  OAUTH_SESSION_MINUTES,
} from './oauth.ts';

const PENDING_KEY = 'portal-admin-console.oauthPending';

afterEach(() => vi.restoreAllMocks());

describe('PKCE (RFC 7636)', () => {
  it('makes a code verifier of 43–128 unreserved characters from crypto.getRandomValues, new each time', () => {
    const random = vi.spyOn(crypto, 'getRandomValues');
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const v = createCodeVerifier();
      expect(v).toMatch(/^[A-Za-z0-9\-._~]+$/);
      expect(v.length).toBeGreaterThanOrEqual(43);
      expect(v.length).toBeLessThanOrEqual(128);
      seen.add(v);
    }
    expect(seen.size).toBe(50);
    expect(random).toHaveBeenCalledTimes(50);
  });

  it('computes the S256 challenge of RFC 7636 Appendix B', async () => {
    expect(await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('refuses verifiers the RFC does not allow', async () => {
    await expect(codeChallengeS256('too-short')).rejects.toThrow(/43–128/);
    await expect(codeChallengeS256('a'.repeat(129))).rejects.toThrow(/43–128/);
    await expect(codeChallengeS256(`${'a'.repeat(42)}+`)).rejects.toThrow(/43–128/);
  });

  it('encodes base64url without padding; the state is 32 random bytes', () => {
    expect(base64Url(new Uint8Array([251, 255, 191]))).toBe('-_-_');
    expect(base64Url(new Uint8Array([1]))).toBe('AQ');
    const a = createState();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createState()).not.toBe(a);
  });
});

describe('starting a sign-in', () => {
  it('sends the browser to the portal’s authorize page and keeps what the callback needs in this tab only', async () => {
    const url = new URL(
      await beginOAuthSignIn({ portalUrl: 'https://portal.example/arcgis/sharing/rest/', clientId: 'abc123XYZ', returnTo: '/members?q=uma' }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://portal.example/arcgis/sharing/rest/oauth2/authorize');
    const q = url.searchParams;
    expect(q.get('client_id')).toBe('abc123XYZ');
    expect(q.get('response_type')).toBe('code');
    expect(q.get('redirect_uri')).toBe(`${location.origin}/oauth-callback`);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('expiration')).toBe(String(OAUTH_SESSION_MINUTES));
    const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY)!);
    expect(pending).toMatchObject({
      state: q.get('state'),
      portalUrl: 'https://portal.example/arcgis/sharing/rest',
      clientId: 'abc123XYZ',
      returnTo: '/members?q=uma',
    });
    expect(q.get('code_challenge')).toBe(await codeChallengeS256(pending.codeVerifier));
    // The verifier itself never leaves the tab.
    expect(url.href).not.toContain(pending.codeVerifier);
    expect(localStorage.length).toBe(0);
  });

  it('never returns to a page outside the console', async () => {
    await beginOAuthSignIn({ portalUrl: 'https://portal.example/sharing/rest', clientId: 'abc', returnTo: '//evil.example/x' });
    expect(JSON.parse(sessionStorage.getItem(PENDING_KEY)!).returnTo).toBe('/overview');
  });
});

describe('completing a sign-in against the portal', () => {
  let svc: ClientTestService;
  let clientId: string;
  beforeAll(async () => {
    svc = await startClientService();
    clientId = await registerApp(svc, [`${location.origin}/oauth-callback`]);
  });
  afterAll(() => svc?.close());

  const begin = (returnTo = '/members') => beginOAuthSignIn({ portalUrl: svc.restUrl, clientId, returnTo });

  it('checks the state, exchanges the code with the verifier and reads the member and the portal', async () => {
    const answer = await answerOnPortal(await begin('/roles'), { username: 'admin' });
    const { session, returnTo } = await completeOAuthSignIn(answer.search);
    expect(returnTo).toBe('/roles');
    expect(session).toMatchObject({ portalUrl: svc.restUrl, clientId, user: { username: 'admin' } });
    expect(session.portalName).toBeTruthy();
    expect(session.refreshToken).toBeTruthy();
    expect(session.expires).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(session.refreshTokenExpires).toBeGreaterThan(Date.now() + (OAUTH_SESSION_MINUTES - 1) * 60_000);
    // What waited for the callback is gone: the same answer cannot be used twice.
    expect(sessionStorage.getItem(PENDING_KEY)).toBeNull();
    await expect(completeOAuthSignIn(answer.search)).rejects.toMatchObject({ reason: 'no_pending_sign_in' });
    const self = await (await fetch(`${svc.restUrl}/community/self?f=json&token=${session.token}`)).json();
    expect(self.username).toBe('admin');
  });

  it('refuses an answer whose state does not match, without spending its code', async () => {
    const answer = await answerOnPortal(await begin(), { username: 'user1' });
    const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY)!);
    const forged = new URLSearchParams(answer.search);
    forged.set('state', `${pending.state}x`);
    const err = await completeOAuthSignIn(`?${forged}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthSignInError);
    expect(err).toMatchObject({ reason: 'state_mismatch', returnTo: '/members' });
    expect((err as Error).message).toMatch(/state mismatch/);
    // The code was not exchanged: it still works for whoever holds the verifier.
    const body = new URLSearchParams({
      f: 'json',
      grant_type: 'authorization_code',
      client_id: clientId,
      code: forged.get('code')!,
      redirect_uri: pending.redirectUri,
      code_verifier: pending.codeVerifier,
    });
    const exchanged = await (await fetch(`${svc.restUrl}/oauth2/token`, { method: 'POST', body })).json();
    expect(exchanged.access_token).toBeTruthy();
  });

  it('reports Cancel on the portal’s page with the portal’s reason', async () => {
    const answer = await answerOnPortal(await begin(), { cancel: true });
    expect(answer.search).toContain('error=access_denied');
    const err = await completeOAuthSignIn(answer.search).catch((e: unknown) => e);
    expect(err).toMatchObject({ title: 'Sign-in cancelled', reason: 'access_denied', returnTo: '/members' });
    expect((err as Error).message).toContain('The user denied your request.');
  });

  it('reports an exchange the portal refuses in its own words', async () => {
    const answer = await answerOnPortal(await begin(), { username: 'user1' });
    // Another verifier than the one the challenge was made from.
    const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY)!);
    sessionStorage.setItem(PENDING_KEY, JSON.stringify({ ...pending, codeVerifier: createCodeVerifier() }));
    const err = await completeOAuthSignIn(answer.search).catch((e: unknown) => e);
    expect(err).toMatchObject({ title: 'Sign-in failed' });
    expect((err as Error).message).toMatch(/refused the sign-in: Invalid code_verifier/);
  });

  it('reads the console configuration of a server, and nothing from one without it', async () => {
    const origin = new URL(svc.restUrl).origin;
    // The test service registers no console app of its own: a portal URL and no OAuth.
    expect(await getConsoleConfig(origin)).toEqual({ portalUrl: svc.restUrl });
    expect(await getConsoleConfig('http://127.0.0.1:1')).toBeNull();
  });
});
