/**
 * The dirty-form guard where typed input used to be lost: the role editor (in-app navigation and
 * unload), the Add item, webhook and scheduled-task dialogs (Esc, Cancel, the close button, a click
 * outside) and an item's details form, against the real service.
 */
import { cleanup as cleanupPage, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTask, createWebhook } from '../api/index.ts';
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
    // The first page of the file: its lazily loaded editor was once 15 s coming beside the end-to-end run.
    const name = await screen.findByRole('textbox', { name: /^Name/ }, { timeout: 30_000 });
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

  /**
   * An edit dialog whose form has changed: Esc asks (Keep editing keeps what was typed), the close
   * button and Cancel ask, Discard closes, and the portal's record is unchanged.
   */
  async function guardsEditDialog(user: ReturnType<typeof renderApp>['user'], dialogName: string, field: RegExp, typed: string) {
    const dialog = await screen.findByRole('dialog', { name: dialogName });
    const input = within(dialog).getByRole('textbox', { name: field });
    await user.clear(input);
    await user.type(input, typed);
    await user.keyboard('{Escape}');
    await user.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull());
    const still = screen.getByRole('dialog', { name: dialogName });
    expect(within(still).getByRole('textbox', { name: field })).toHaveValue(typed);

    // The dialog's close button (×) asks too; keeping again, then Cancel and Discard.
    await user.click(within(still).getByRole('button', { name: /close/i }));
    await user.click(within(await question()).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull());
    await user.click(within(screen.getByRole('dialog', { name: dialogName })).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await question()).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: dialogName })).toBeNull());
  }

  it('the webhook edit dialog asks before Esc, its close button or Cancel throws typed input away', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createWebhook(svc.orgId, { name: 'Guarded hook', url: 'http://127.0.0.1:9/guarded', events: ['/'] });
    const { user } = renderApp(`/webhooks/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await guardsEditDialog(user, 'Edit Guarded hook', /^Name/, 'Renamed but not saved');
    expect(await screen.findByRole('heading', { name: 'Guarded hook' })).toBeInTheDocument();
  });

  it('the scheduled-task edit dialog asks before Esc, its close button or Cancel throws typed input away', async () => {
    await signInAs(svc, 'admin');
    await createTask('admin', {
      type: 'ExecuteReport',
      title: 'Guarded task',
      parameters: { reportType: 'items' },
      minute: '0',
      hour: '6',
      dayOfMonth: '?',
      month: '*',
      dayOfWeek: 'MON-FRI',
    });
    const { user } = renderApp('/tasks');
    await user.click(await screen.findByRole('button', { name: 'Actions for Guarded task' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    await guardsEditDialog(user, 'Edit Guarded task', /^Title/, 'Retitled but not saved');
    expect(await screen.findByRole('button', { name: 'Actions for Guarded task' })).toBeInTheDocument();
  });

  it('the group and member dialogs ask through the same guard', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Create group' }));
    await guardsEditDialog(user, 'Create group', /^Title/, 'Half-made group');
    cleanupPage();
    const members = renderApp('/members');
    await members.user.click(await screen.findByRole('button', { name: 'Add member' }));
    await guardsEditDialog(members.user, 'Add member', /^First name/, 'Ada');
  });
});
