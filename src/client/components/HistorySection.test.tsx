/**
 * The History section against the real local portal: an item's History tab and a group page's
 * History list one object's changes in words and undo them; a member's history opens in a drawer;
 * a member who may not read history is not offered it; a portal that refuses the history operation
 * gets one short line and nothing else.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGroupUsers, addItem, createGroup, getGroupUserlist, getItem, setContentStatus } from '../api/index.ts';
import { setSession } from '../lib/session.ts';
import { renderApp, renderWithProviders, signInAs } from '../test/render.tsx';
import { startClientService, type ClientTestService } from '../test/service.ts';
import { HistorySection } from './HistorySection.tsx';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

describe('History section', () => {
  it("an item's History tab lists its changes and undoes a content status change", async () => {
    await signInAs(svc, 'admin');
    const { id } = await addItem('admin', undefined, { title: 'History roads', type: 'Web Map', text: '{}' });
    await setContentStatus(id, 'deprecated');
    const { user } = renderApp(`/content/items/${id}`);
    await user.click(await screen.findByRole('tab', { name: 'History' }));
    const table = await screen.findByRole('table', { name: 'History of the item “History roads”' });
    expect(await within(table).findByText("admin marked 'History roads' as deprecated")).toBeInTheDocument();
    expect(within(table).getByText(/^No undo: Undoing an add would delete the item/)).toBeInTheDocument();
    // Only this item's events: the target column is left out, and nothing of other objects shows.
    expect(within(table).queryByRole('columnheader', { name: 'Target' })).toBeNull();

    await user.click(within(table).getByRole('checkbox', { name: "Select to undo: admin marked 'History roads' as deprecated" }));
    await user.click(screen.getByRole('button', { name: 'Undo selected (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo 1 change' });
    expect(await within(dialog).findByText("Set the content status of 'History roads' back to no status.")).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Undo 1 change' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Undo 1 change' }));
    const results = await within(dialog).findByRole('table', { name: 'Undo results' });
    expect(within(results).getByText("Set the content status of 'History roads' back to no status: done.")).toBeInTheDocument();
    expect((await getItem(id)).contentStatus ?? '').toBe('');
    // The undo is itself recorded, and the list shows it once refetched.
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await within(table).findByText("admin removed the content status of 'History roads'")).toBeInTheDocument();
  }, 60_000);

  it("a group page's History undoes a batch of added members", async () => {
    await signInAs(svc, 'admin');
    const group = (await createGroup({ title: 'History crews', access: 'org' })).group;
    await addGroupUsers(group.id, { users: ['user1', 'publisher1'] });
    const { user } = renderApp(`/groups/${group.id}`);
    expect(await screen.findByRole('heading', { name: 'History', level: 2 })).toBeInTheDocument();
    // Read only when asked for.
    await user.click(screen.getByRole('button', { name: 'Show history' }));
    expect(screen.getByRole('button', { name: 'Hide history' })).toHaveAttribute('aria-expanded', 'true');
    const table = await screen.findByRole('table', { name: 'History of the group “History crews”' });
    await user.click(await within(table).findByRole('checkbox', { name: /^Select to undo: admin added .* to the group 'History crews'$/ }));
    await user.click(screen.getByRole('button', { name: 'Undo selected (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo 1 change' });
    await within(dialog).findByText(/^Remove the 2 members the batch added from the group 'History crews'/);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Undo 1 change' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Undo 1 change' }));
    await within(dialog).findByRole('table', { name: 'Undo results' });
    const members = await getGroupUserlist(group.id);
    expect(members.users.map((m) => m.username)).toEqual(['admin']);
  }, 60_000);

  it("a member's history opens from the members list in a drawer", async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members?q=user1');
    await user.click(await screen.findByRole('button', { name: 'More actions for user1' }));
    await user.click(await screen.findByRole('menuitem', { name: 'History' }));
    const drawer = await screen.findByRole('dialog', { name: 'History: user1' });
    expect(await within(drawer).findByRole('table', { name: 'History of the member user1' })).toBeInTheDocument();
  }, 60_000);

  it('is not offered to a member who may not read history', async () => {
    await signInAs(svc, 'user1');
    const { id } = await addItem('user1', undefined, { title: 'History of mine', type: 'Web Map', text: '{}' });
    renderApp(`/content/items/${id}`);
    expect(await screen.findByRole('tab', { name: 'Content status' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'History' })).toBeNull();
  }, 60_000);

  it('says in one line that history is not available when the portal refuses the operation', async () => {
    // The portal answers 403 for another organization's history, as ArcGIS Enterprise answers for
    // an operation it does not have: the section must read that as "not available" and stop there.
    const { token, user } = await signInAs(svc, 'admin');
    setSession({ portalUrl: svc.restUrl, token, expires: Date.now() + 3_600_000, user: { ...user, orgId: svc.partnerOrgId } });
    renderWithProviders(<HistorySection id="anything" type="i" name="the item" />);
    expect(await screen.findByText('History is not available on this portal.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: /Undo selected/ })).toBeNull();
  }, 60_000);
});
