import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSession, getSessionState, setSession } from '../../lib/session.ts';
import { pointSignInAt, renderApp, signInAs } from '../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

describe('sign-in page', () => {
  it('shows the service words for a wrong password and stays on sign-in', async () => {
    pointSignInAt(svc);
    const { user, location } = renderApp('/sign-in');
    await user.type(await screen.findByLabelText('Username', { exact: false, selector: 'input' }), 'user1');
    await user.type(screen.getByLabelText('Password', { exact: false, selector: 'input' }), 'wrong-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid username or password.');
    expect(location()).toBe('/sign-in');
    expect(getSession()).toBeNull();
    // The password is cleared for the next attempt.
    expect(screen.getByLabelText('Password', { exact: false, selector: 'input' })).toHaveValue('');
  });

  it('checks the form before calling the portal', async () => {
    pointSignInAt(svc);
    const { user } = renderApp('/sign-in');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your username')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
  });

  it('signs in to a portal typed in, stores the session and opens the overview', async () => {
    const { user, location } = renderApp('/sign-in');
    await user.click(await screen.findByRole('button', { name: 'Use another portal' }));
    const portal = screen.getByLabelText(/portal url/i);
    // The field slides open: type into it once it is shown.
    await waitFor(() => expect(portal).toBeVisible());
    await user.clear(portal);
    expect(portal).toHaveValue('');
    await user.type(portal, 'http://127.0.0.1:1/not-a-portal');
    await user.type(screen.getByLabelText('Username', { exact: false, selector: 'input' }), 'publisher1');
    await user.type(screen.getByLabelText('Password', { exact: false, selector: 'input' }), DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/ends with \/sharing\/rest/)).toBeInTheDocument();

    await user.clear(portal);
    await user.type(portal, `${svc.restUrl}/`);
    // The password typed before is kept: only the portal URL was wrong.
    expect(screen.getByLabelText('Password', { exact: false, selector: 'input' })).toHaveValue(DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(location()).toBe('/overview'));
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeInTheDocument();
    const session = getSession();
    expect(session?.user.username).toBe('publisher1');
    expect(session?.portalUrl).toBe(svc.restUrl);
    expect(session?.token).toBeTruthy();
  });

  it('sends a signed-out visitor to sign-in and back to the page they asked for', async () => {
    pointSignInAt(svc);
    const { user, location } = renderApp('/members?q=uma');
    await waitFor(() => expect(location()).toBe(`/sign-in?returnTo=${encodeURIComponent('/members?q=uma')}`));
    await user.type(await screen.findByLabelText('Username', { exact: false, selector: 'input' }), 'admin');
    await user.type(screen.getByLabelText('Password', { exact: false, selector: 'input' }), DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(location()).toBe('/members?q=uma'));
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(await within(table).findByText('user1')).toBeInTheDocument();
  });

  it('an invalid token (498) returns to sign-in with a message, then back where the member was', async () => {
    pointSignInAt(svc);
    const { user: me } = await signInAs(svc, 'user1');
    // The portal no longer accepts the stored token.
    setSession({ ...getSession()!, token: 'revoked-or-expired-token', user: me });
    const { user, location } = renderApp('/members?sortOrder=desc');
    await waitFor(() => expect(location()).toMatch(/^\/sign-in\?returnTo=/));
    expect(getSessionState().ended).toBe('expired');
    expect(await screen.findByText(/session has expired or is no longer valid/i)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Username', { exact: false, selector: 'input' }), 'user1');
    await user.type(screen.getByLabelText('Password', { exact: false, selector: 'input' }), DEMO_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(location()).toBe('/members?sortOrder=desc'));
  });

  it('signing out revokes the token and clears the session', async () => {
    const { token } = await signInAs(svc, 'viewer1');
    const { user, location } = renderApp('/overview');
    await user.click(await screen.findByRole('button', { name: /account menu/i }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await waitFor(() => expect(location()).toBe('/sign-in'));
    expect(getSession()).toBeNull();
    expect(Object.values(sessionStorage).join()).not.toContain(token);
    const res = await fetch(`${svc.restUrl}/community/self?f=json&token=${token}`);
    expect((await res.json()).error.code).toBe(498);
  });
});
