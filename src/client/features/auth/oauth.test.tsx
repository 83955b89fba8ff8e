import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rememberPortalApp } from '../../lib/portals.ts';
import { getSession, getSessionState, setSession } from '../../lib/session.ts';
import { answerOnPortal, oauthPost, oauthSession, registerApp } from '../../test/oauth.ts';
import { renderApp } from '../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../test/service.ts';
import { browser } from './OAuthSignIn.tsx';
import { userKeys } from '../../api/queries/users.ts';

let svc: ClientTestService;
let clientId: string;
let portalName: string;
beforeAll(async () => {
  svc = await startClientService();
  clientId = await registerApp(svc, [`${location.origin}/oauth-callback`]);
  portalName = ((await (await fetch(`${svc.restUrl}/portals/self?f=json`)).json()) as { name: string }).name;
});
afterAll(() => svc?.close());
afterEach(() => vi.restoreAllMocks());

/** The authorize URL the page sends the browser to (jsdom cannot go there). */
function catchLeaving() {
  const open = vi.spyOn(browser, 'open').mockImplementation(() => {});
  return async () => {
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    return open.mock.calls[0][0];
  };
}

async function typePortal(user: ReturnType<typeof renderApp>['user'], url: string) {
  await user.click(await screen.findByRole('button', { name: 'Use another portal' }));
  const field = screen.getByLabelText(/portal url/i);
  await waitFor(() => expect(field).toBeVisible());
  await user.clear(field);
  await user.type(field, url);
}

describe('signing in with a portal (OAuth)', () => {
  it('sets up another portal once: explains the registration, checks the client ID, signs in through the portal and returns', async () => {
    const leaving = catchLeaving();
    const { user, location, router } = renderApp(`/sign-in?returnTo=${encodeURIComponent('/members?q=uma')}`);
    await typePortal(user, svc.restUrl);
    const setup = await screen.findByRole('region', { name: `Sign in with ${portalName}` });
    // What to give the portal when registering the console.
    expect(within(setup).getByRole('textbox', { name: 'Redirect URI' })).toHaveValue(`${window.location.origin}/oauth-callback`);
    const field = within(setup).getByLabelText(/client id/i);
    await user.type(field, 'not a client id!');
    await user.click(within(setup).getByRole('button', { name: `Sign in with ${portalName}` }));
    const error = await within(setup).findByText(/letters and digits only/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field.getAttribute('aria-describedby')).toContain(error.id);

    await user.clear(field);
    await user.type(field, clientId);
    await user.click(within(setup).getByRole('button', { name: `Sign in with ${portalName}` }));
    const authorizeUrl = await leaving();
    expect(authorizeUrl.startsWith(`${svc.restUrl}/oauth2/authorize?`)).toBe(true);
    // Remembered for this portal on this browser: the portal and the client ID, nothing else.
    expect(JSON.parse(localStorage.getItem('portal-admin-console.oauthApps')!)).toEqual([{ portalUrl: svc.restUrl, clientId }]);

    // The member signs in on the portal's own page, which sends the browser back to the callback.
    const answer = await answerOnPortal(authorizeUrl, { username: 'admin' });
    expect(answer.location.startsWith(`${window.location.origin}/oauth-callback?`)).toBe(true);
    await router.navigate(`/oauth-callback${answer.search}`);
    await waitFor(() => expect(location()).toBe('/members?q=uma'));
    expect(await screen.findByRole('table', { name: 'Members' })).toBeInTheDocument();
    const session = getSession()!;
    expect(session).toMatchObject({ portalUrl: svc.restUrl, clientId, portalName, user: { username: 'admin' } });
    expect(session.refreshToken).toBeTruthy();
    for (const k of Object.keys(localStorage)) expect(localStorage.getItem(k)).not.toContain(session.token);
  });

  it('makes the portal the primary way in once its client ID is known; username and password stay', async () => {
    rememberPortalApp(svc.restUrl, clientId);
    const leaving = catchLeaving();
    const { user } = renderApp('/sign-in');
    await typePortal(user, svc.restUrl);
    const oauthButton = await screen.findByRole('button', { name: `Sign in with ${portalName}` });
    const username = screen.getByLabelText('Username', { exact: false, selector: 'input' });
    expect(oauthButton.compareDocumentPosition(username) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: `Sign in with ${portalName}` })).toBeNull();
    await user.click(oauthButton);
    expect(new URL(await leaving()).searchParams.get('client_id')).toBe(clientId);
  });

  it('shows Cancel on the portal’s page on the sign-in page, with the portal’s reason, tied to the button', async () => {
    rememberPortalApp(svc.restUrl, clientId);
    const leaving = catchLeaving();
    const { user, location, router } = renderApp(`/sign-in?returnTo=${encodeURIComponent('/roles')}`);
    await typePortal(user, svc.restUrl);
    await user.click(await screen.findByRole('button', { name: `Sign in with ${portalName}` }));
    const answer = await answerOnPortal(await leaving(), { cancel: true });
    await router.navigate(`/oauth-callback${answer.search}`);
    await waitFor(() => expect(location()).toBe(`/sign-in?returnTo=${encodeURIComponent('/roles')}`));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in cancelled');
    expect(alert).toHaveTextContent('The user denied your request.');
    await typePortal(user, svc.restUrl);
    const again = await screen.findByRole('button', { name: `Sign in with ${portalName}` });
    expect(again.getAttribute('aria-describedby')).toContain(alert.id);
    expect(getSession()).toBeNull();
  });

  it('refuses an answer that does not belong to this tab’s sign-in (state mismatch), on the sign-in page', async () => {
    rememberPortalApp(svc.restUrl, clientId);
    const leaving = catchLeaving();
    const { user, location, router } = renderApp('/sign-in');
    await typePortal(user, svc.restUrl);
    await user.click(await screen.findByRole('button', { name: `Sign in with ${portalName}` }));
    const answer = await answerOnPortal(await leaving(), { username: 'admin' });
    const forged = new URLSearchParams(answer.search);
    forged.set('state', 'someone-elses-state');
    await router.navigate(`/oauth-callback?${forged}`);
    await waitFor(() => expect(location()).toBe('/sign-in'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/state mismatch/);
    expect(getSession()).toBeNull();
  });

  it('signing out revokes the refresh token and the access token, and forgets only that portal', async () => {
    const s = await oauthSession(svc, clientId, 'user1');
    setSession(s);
    const { user, location } = renderApp('/overview');
    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(location()).toBe('/sign-in'));
    expect(getSessionState()).toMatchObject({ session: null, ended: 'signedOut' });
    const refused = await oauthPost(svc, 'token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: s.refreshToken! });
    expect(refused.error?.message).toMatch(/Invalid refresh_token/);
    expect(refused.access_token).toBeUndefined();
    const self = await (await fetch(`${svc.restUrl}/community/self?f=json&token=${s.token}`)).json();
    expect(self.error.code).toBe(498);
    expect(Object.values(sessionStorage).join()).not.toContain(s.refreshToken!);
  });
});

describe('several portals in one tab', () => {
  /** The same service under a second address: to the console, another portal. */
  const otherUrl = () => svc.restUrl.replace('127.0.0.1', 'localhost');

  async function signInTwice() {
    const first = await oauthSession(svc, clientId, 'admin');
    setSession(first);
    const body = new URLSearchParams({ f: 'json', username: 'user1', password: DEMO_PASSWORD, expiration: '60' });
    const { token, expires } = await (await fetch(`${otherUrl()}/generateToken`, { method: 'POST', body })).json();
    const me = await (await fetch(`${otherUrl()}/community/self?f=json&token=${token}`)).json();
    setSession({ portalUrl: otherUrl(), token, expires, user: me, portalName: 'Second Portal' });
    return first;
  }

  it('the header names the portal; switching drops what was read and keeps the area', async () => {
    const first = await signInTwice();
    const { user, location, queryClient } = renderApp('/members');
    const host = new URL(otherUrl()).host;
    const switcher = await screen.findByRole('button', { name: new RegExp(`^Portal: Second Portal ${host}`) });
    await waitFor(() => expect(queryClient.getQueryData<{ username: string }>(userKeys.self)?.username).toBe('user1'));

    await user.click(switcher);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: /Second Portal/ })).toHaveAttribute('aria-current', 'true');
    await user.click(within(menu).getByRole('menuitem', { name: new RegExp(first.portalName!) }));
    // Nothing read from the other portal is left.
    expect(queryClient.getQueryData<{ username: string }>(userKeys.self)?.username).not.toBe('user1');
    expect(getSession()?.portalUrl).toBe(svc.restUrl);
    expect(location()).toBe('/members');
    expect(await screen.findByRole('button', { name: new RegExp(`^Portal: ${first.portalName}`) })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryData<{ username: string }>(userKeys.self)?.username).toBe('admin'));
    expect(await screen.findByRole('table', { name: 'Members' })).toBeInTheDocument();
    expect(await screen.findByText(/Now acting on/)).toBeInTheDocument();
  });

  it('"Sign in to another portal…" keeps the current session; after signing out of one, the other is offered', async () => {
    const first = await signInTwice();
    const { user, location } = renderApp('/members/transfer');
    await user.click(await screen.findByRole('button', { name: /^Portal: Second Portal/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign in to another portal…' }));
    await waitFor(() => expect(location()).toBe(`/sign-in?another=1&returnTo=${encodeURIComponent('/members')}`));
    expect(await screen.findByRole('heading', { name: 'Sign in to another portal', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Second Portal' }));
    await waitFor(() => expect(location()).toBe('/members'));

    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(location()).toBe('/sign-in'));
    await user.click(await screen.findByRole('button', { name: new RegExp(`Continue with ${first.portalName} as admin`) }));
    await waitFor(() => expect(location()).toBe('/overview'));
    expect(getSession()?.user.username).toBe('admin');
    expect(getSessionState().sessions).toHaveLength(1);
  });
});
