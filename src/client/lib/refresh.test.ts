import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getPortal, getSelf, type ApiError } from '../api/index.ts';
import { renderApp, signInAs } from '../test/render.tsx';
import { oauthPost, oauthSession, registerApp } from '../test/oauth.ts';
import { startClientService, type ClientTestService } from '../test/service.ts';
import { getSession, getSessionState, REFRESH_LEAD_MS, setSession } from './session.ts';

let svc: ClientTestService;
let clientId: string;
beforeAll(async () => {
  svc = await startClientService();
  clientId = await registerApp(svc, [`${location.origin}/oauth-callback`]);
});
afterAll(() => svc?.close());
afterEach(() => vi.restoreAllMocks());

/** Watches (does not change) the requests the console makes: how many went to oauth2/token. */
function countTokenCalls() {
  const spy = vi.spyOn(globalThis, 'fetch');
  return () => spy.mock.calls.filter(([url]) => String(url).includes('/oauth2/token')).length;
}

const selfWith = async (token: string) => (await fetch(`${svc.restUrl}/community/self?f=json&token=${token}`)).json();

describe('keeping an OAuth session alive', () => {
  it('refreshes the access token shortly before it expires', async () => {
    const s = await oauthSession(svc, clientId, 'admin');
    setSession({ ...s, expires: Date.now() + REFRESH_LEAD_MS + 300 });
    await waitFor(() => expect(getSession()?.token).not.toBe(s.token), { timeout: 5_000 });
    const next = getSession()!;
    expect(next.refreshToken).toBe(s.refreshToken);
    expect(next.expires).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect((await selfWith(next.token)).username).toBe('admin');
    // The stored copy (a reload of the tab) has the new token too.
    expect(sessionStorage.getItem('portal-admin-console.sessions')).toContain(next.token);
  });

  it('a refused token (498) is refreshed once, however many requests were refused, and each request is repeated', async () => {
    const s = await oauthSession(svc, clientId, 'admin');
    setSession(s);
    // The portal ends the access token (the refresh token stays good).
    expect((await oauthPost(svc, 'revokeToken', { auth_token: s.token, client_id: clientId })).success).toBe(true);
    expect((await selfWith(s.token)).error.code).toBe(498);
    const tokenCalls = countTokenCalls();
    const [me, portal, again] = await Promise.all([getSelf(), getPortal(), getSelf()]);
    expect(me.username).toBe('admin');
    expect(again.username).toBe('admin');
    expect(portal.id).toBeTruthy();
    expect(tokenCalls()).toBe(1);
    expect(getSession()?.token).not.toBe(s.token);
    expect(getSessionState().ended).toBe('none');
  });

  it('a page keeps working when its token was ended underneath it', async () => {
    const s = await oauthSession(svc, clientId, 'admin');
    setSession(s);
    expect((await oauthPost(svc, 'revokeToken', { auth_token: s.token, client_id: clientId })).success).toBe(true);
    const { location } = renderApp('/members');
    // The table's frame shows before its rows: wait for a member read with the new token.
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(await within(table).findByText('publisher1', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(location()).toBe('/members');
    expect(getSession()?.token).not.toBe(s.token);
  });

  it('when the refresh is refused, returns to sign-in and keeps the page the member was on', async () => {
    const s = await oauthSession(svc, clientId, 'user1');
    setSession(s);
    // Revoking the refresh token ends the access tokens issued from it as well.
    await oauthPost(svc, 'revokeToken', { auth_token: s.refreshToken!, client_id: clientId });
    const tokenCalls = countTokenCalls();
    const { location } = renderApp('/members?q=uma');
    await waitFor(() => expect(location()).toBe(`/sign-in?returnTo=${encodeURIComponent('/members?q=uma')}`));
    expect(getSessionState().ended).toBe('expired');
    expect(await screen.findByText(/session has expired or is no longer valid/i)).toBeInTheDocument();
    expect(tokenCalls()).toBe(1);
    expect(Object.values(sessionStorage).join()).not.toContain(s.refreshToken!);
  });

  it('a username/password session (no refresh token) ends on 498 without asking for one', async () => {
    await signInAs(svc, 'user1');
    setSession({ ...getSession()!, token: 'revoked-or-expired-token' });
    const tokenCalls = countTokenCalls();
    const err = (await getSelf().catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe(498);
    expect(tokenCalls()).toBe(0);
  });
});
