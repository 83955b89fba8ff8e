/**
 * The lifecycle pages against the real portal: a policy is created through the form (its rule
 * checked before sending), its preview shown while it is off, then switched on; a member's
 * expiration is set from their page; a portal without the extras gets a note, not an error.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
let plain: ClientTestService;
beforeAll(async () => {
  [svc, plain] = await Promise.all([startClientService(), startClientService({ localExtras: false })]);
}, 90_000);
afterAll(async () => {
  await svc?.close();
  await plain?.close();
});

describe('inactivity policies', () => {
  it('creates a policy (off), shows who it would touch, and switches it on', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members/policies');
    // The first page of the file loads the Members area's code: slower than the rest.
    await screen.findByRole('heading', { level: 1, name: 'Inactivity policies' }, { timeout: 40_000 });
    await screen.findByText('No inactivity policies yet');
    await user.click(screen.getByRole('button', { name: 'New policy' }));
    const form = await screen.findByRole('form', { name: 'New inactivity policy' });
    await user.type(within(form).getByLabelText(/^Title/), 'Dormant accounts');
    const act = within(form).getByRole('textbox', { name: /^Act after/ });
    await user.clear(act);
    await user.type(act, '30');
    await user.click(within(form).getByRole('button', { name: 'Create policy' }));
    // Acting must come after warning (60 days by default): refused before anything is sent.
    expect(await within(form).findByText('This must be more than the days before the warning')).toBeVisible();
    await user.clear(act);
    await user.type(act, '120');
    await user.click(within(form).getByRole('button', { name: 'Create policy' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New inactivity policy' })).toBeNull());

    const card = await screen.findByRole('region', { name: 'Dormant accounts' });
    expect(within(card).getByText('Off')).toBeVisible();
    expect(await within(card).findByText('If it ran now')).toBeVisible();
    expect(within(card).getByText('Warned after 60 days without signing in, disabled after 120 days.')).toBeVisible();
    await user.click(within(card).getByRole('switch', { name: 'Switched on' }));
    expect(await within(card).findByText('On')).toBeVisible();
  });

  it('on a portal without the lifecycle extras, says so instead of failing', async () => {
    await signInAs(plain, 'admin');
    renderApp('/members/policies');
    // The page's note, and the same reason under the disabled New policy button.
    const notes = await screen.findAllByText(/^Not available on this portal: .* does not offer inactivity policies\.$/);
    expect(notes).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'New policy' })).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('expiration', () => {
  it('is set from the member page and shown there', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members/user1');
    await user.click(await screen.findByRole('button', { name: 'Set expiration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Expiration of user1' });
    const date = within(dialog).getByLabelText(/^Disable on/);
    fireEvent.change(date, { target: { value: '2000-01-01' } });
    await user.click(within(dialog).getByRole('button', { name: 'Set expiration' }));
    expect(await within(dialog).findByText('Choose a date after today')).toBeVisible();
    fireEvent.change(date, { target: { value: `${new Date().getFullYear() + 1}-06-01` } });
    await user.click(within(dialog).getByRole('button', { name: 'Set expiration' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText(/^Disabled on Jun 1, /)).toBeVisible();
  });
});
