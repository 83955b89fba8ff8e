/**
 * Disabling and enabling a member's account from the Members page: the administrator confirms, the
 * row shows the account disabled and the member can no longer sign in; enabling lets them back in;
 * members without portal:admin:disableUsers, and one's own row, show the action disabled with why.
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

const signIn = async (username: string) => {
  const res = await fetch(`${svc.restUrl}/generateToken`, { method: 'POST', body: new URLSearchParams({ username, password: DEMO_PASSWORD, f: 'json' }) });
  return (await res.json()) as { token?: string; error?: { details: string[] } };
};

async function openMenuOf(username: string, entry: RegExp) {
  const { user } = renderApp('/members');
  const table = await screen.findByRole('table', { name: 'Members' });
  await within(table).findByText(username);
  await user.click(within(table).getByRole('button', { name: `More actions for ${username}` }));
  return { user, table, item: await screen.findByRole('menuitem', { name: entry }) };
}

describe('disable and enable an account', () => {
  it('an administrator disables a member after confirming: the row says Disabled and the member cannot sign in; enabling lets them in again', async () => {
    await signInAs(svc, 'admin');
    const { user, table, item } = await openMenuOf('viewer1', /^Disable account/);
    await user.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'Disable the account of viewer1' });
    expect(dialog).toHaveTextContent('signed out everywhere at once');
    await user.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    await screen.findByText('viewer1 can no longer sign in.');
    const row = within(table).getByText('viewer1').closest('tr')!;
    await waitFor(() => expect(within(row).getByText('Disabled')).toBeInTheDocument());
    expect((await signIn('viewer1')).error?.details.join(' ')).toContain('This account has been disabled.');

    await user.click(within(row).getByRole('button', { name: 'More actions for viewer1' }));
    await user.click(await screen.findByRole('menuitem', { name: /^Enable account/ }));
    const enable = await screen.findByRole('dialog', { name: 'Enable the account of viewer1' });
    await user.click(within(enable).getByRole('button', { name: 'Enable account' }));
    await screen.findByText('viewer1 can sign in again.');
    await waitFor(() => expect(within(row).queryByText('Disabled')).toBeNull());
    expect((await signIn('viewer1')).token).toEqual(expect.any(String));
  });

  it('cancelling changes nothing', async () => {
    await signInAs(svc, 'admin');
    const { user, item } = await openMenuOf('user1', /^Disable account/);
    await user.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'Disable the account of user1' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await signIn('user1')).token).toEqual(expect.any(String));
  });

  it('is disabled on one’s own row, and for members without the privilege, naming why', async () => {
    await signInAs(svc, 'admin');
    const own = await openMenuOf('admin', /^Disable account/);
    expect(own.item).toHaveAttribute('data-disabled', 'true');
    expect(own.item).toHaveTextContent('You cannot disable or enable your own account.');
  });

  it('a member without portal:admin:disableUsers sees it disabled with the privilege named', async () => {
    await signInAs(svc, 'publisher1');
    const { item } = await openMenuOf('user1', /^Disable account/);
    expect(item).toHaveAttribute('data-disabled', 'true');
    expect(item).toHaveAttribute('data-missing-privilege', 'portal:admin:disableUsers');
  });
});
