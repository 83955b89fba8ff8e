/**
 * The dirty-form guard where typed input used to be lost: the role editor (in-app navigation and
 * unload), the Add item dialog (Esc, Cancel) and an item's details form, against the real service.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, signInAs } from '../test/render.tsx';
import { startClientService, type ClientTestService } from '../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const question = () => screen.findByRole('dialog', { name: 'Discard your changes?' });

/** Whether a beforeunload now would make the browser ask. */
function unloadAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('dirty-form guard', () => {
  it('the role editor asks before leaving with typed input, in the console and on unload; nothing typed, nothing asked', async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/roles/new');
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(unloadAsks()).toBe(false);
    await user.type(name, 'Half-typed role');
    expect(unloadAsks()).toBe(true);

    await user.click(screen.getAllByRole('link', { name: 'Roles' })[0]);
    const ask = await question();
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull());
    expect(location()).toBe('/roles/new');
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Half-typed role');

    await user.click(screen.getAllByRole('link', { name: 'Roles' })[0]);
    await user.click(within(await question()).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(location()).toBe('/roles'));
    expect(unloadAsks()).toBe(false);
  });

  it('the Add item dialog asks before Esc or Cancel throws typed input away', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/content');
    await user.click(await screen.findByRole('button', { name: 'Add item' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add item' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Harbour survey');
    await user.keyboard('{Escape}');
    await user.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull());
    const still = screen.getByRole('dialog', { name: 'Add item' });
    expect(within(still).getByRole('textbox', { name: /^Title/ })).toHaveValue('Harbour survey');

    await user.click(within(still).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await question()).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add item' })).toBeNull());

    // Nothing typed: Esc closes at once.
    await user.click(screen.getByRole('button', { name: 'Add item' }));
    await screen.findByRole('dialog', { name: 'Add item' });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add item' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull();
  });
});
