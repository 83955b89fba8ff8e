/**
 * Unlocking a member's sign-in from the Members page (a local extra; docs/security.md "Sign-in
 * throttling"): a default administrator confirms, the portal lifts the waits and the result is
 * announced; anyone else sees the action disabled with the reason.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, DEMO_PASSWORD, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
}, 60_000);
afterAll(() => svc?.close());

const signIn = async (username: string, password: string) => {
  const res = await fetch(`${svc.restUrl}/generateToken`, { method: 'POST', body: new URLSearchParams({ username, password, f: 'json' }) });
  return (await res.json()) as { token?: string; error?: { details: string[] } };
};

async function openMenuOf(username: string) {
  const { user } = renderApp('/members');
  const table = await screen.findByRole('table', { name: 'Members' });
  await within(table).findByText(username);
  await user.click(within(table).getByRole('button', { name: `More actions for ${username}` }));
  return { user, item: await screen.findByRole('menuitem', { name: /^Unlock sign-in/ }) };
}

describe('unlock sign-in', () => {
  it('a default administrator unlocks a member after confirming, and the result is announced', async () => {
    // This test's address waits for viewer1 after five wrong passwords.
    for (let i = 0; i < 5; i++) await signIn('viewer1', `wrong-password-${i}`);
    expect((await signIn('viewer1', DEMO_PASSWORD)).error?.details[0]).toMatch(/^Too many invalid sign-in attempts/);

    await signInAs(svc, 'admin');
    const { user, item } = await openMenuOf('viewer1');
    await user.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'Unlock sign-in for viewer1' });
    await user.click(within(dialog).getByRole('button', { name: 'Unlock sign-in' }));
    const done = await screen.findByText('viewer1 can sign in again: 1 waiting address was released.');
    expect(done.closest('[role="alert"]')).not.toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await signIn('viewer1', DEMO_PASSWORD)).token).toEqual(expect.any(String));
  });

  it('cancelling changes nothing', async () => {
    await signInAs(svc, 'admin');
    const { user, item } = await openMenuOf('user1');
    await user.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'Unlock sign-in for user1' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(/No address was waiting for user1/)).toBeNull();
  });

  it('is disabled for anyone but a default administrator, naming why', async () => {
    await signInAs(svc, 'publisher1');
    const { item } = await openMenuOf('user1');
    expect(item).toHaveAttribute('data-disabled', 'true');
    expect(item).toHaveTextContent("Only a default administrator can unlock a member's sign-in.");
  });
});
