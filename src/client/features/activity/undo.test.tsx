/**
 * Undo from the Activity page against the real local portal: three transfers by mistake are ticked,
 * the dialog shows the compensating operations and the pre-check, and the run puts each item back
 * with its owner and folder; a transfer the pre-check refuses keeps Undo disabled and names the fix;
 * an event whose target changed afterwards is left out and says so; one whose item is gone has no checkbox.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addGroupUsers,
  addItem,
  createFolder,
  createGroup,
  createRole,
  deleteItem,
  getItem,
  moveItem,
  reassignItems,
  setRolePrivileges,
  shareItem,
  updateUserRole,
} from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

/** user1's items in a new folder, then transferred to admin's root folder by admin (the mistake). */
async function mistakenTransfers(prefix: string, count: number) {
  await signInAs(svc, 'user1');
  const folder = (await createFolder('user1', `${prefix} folder`)).folder;
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) ids.push((await addItem('user1', folder.id, { title: `${prefix} ${i}`, type: 'Web Map', text: '{}' })).id);
  await signInAs(svc, 'admin');
  await reassignItems('user1', ids, 'admin', '/');
  return { ids, folder };
}

describe('Undo on the Activity page', () => {
  it('undoes three transfers: plan, pre-check, results, and the items are back with their owner and folder', async () => {
    const { ids, folder } = await mistakenTransfers('Undo parcels', 3);
    const { user } = renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    for (let i = 1; i <= 3; i++)
      await user.click(await within(table).findByRole('checkbox', { name: `Select to undo: admin transferred 'Undo parcels ${i}' from user1 to admin` }));
    // A sign-in or an addition has no checkbox: the reason is shown instead.
    expect(within(table).getAllByText(/^No undo: Undoing an add would delete the item/).length).toBeGreaterThanOrEqual(3);
    await user.click(screen.getByRole('button', { name: 'Undo selected (3)' }));

    const dialog = await screen.findByRole('dialog', { name: 'Undo 3 changes' });
    const plan = await within(dialog).findByRole('table', { name: 'Changes to undo' });
    expect(within(plan).getByText("Transfer 'Undo parcels 2' from admin back to user1, into the folder 'Undo parcels folder'.")).toBeInTheDocument();
    const check = await within(dialog).findByRole('table', { name: 'Pre-check results' });
    expect(within(check).getAllByText('OK')).toHaveLength(3);
    expect(within(dialog).getByRole('heading', { name: 'Transfer pre-check: back to user1' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Undo 3 changes' }));
    const results = await within(dialog).findByRole('table', { name: 'Undo results' });
    expect(within(results).getAllByText(/^Back with user1/)).toHaveLength(3);
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('3 undone');
    // The title counts the rows that ran, not the changes first chosen.
    expect(screen.getByRole('dialog', { name: 'Undo results: 3 of 3 changes undone' })).toBe(dialog);
    await waitFor(() => expect(screen.getByTestId('announcer-polite')).toHaveTextContent('3 undone, 0 not undone.'));
    for (const id of ids) {
      const item = await getItem(id);
      expect([item.owner, item.ownerFolder]).toEqual(['user1', folder.id]);
    }
  }, 60_000);

  it('keeps Undo disabled while a transfer back is blocked, with the blocker and its fix', async () => {
    const { ids } = await mistakenTransfers('Undo blocked', 1);
    // After the mistake, admin shares the item with a group user1 is not in: user1 may not receive it back.
    const group = (await createGroup({ title: 'Undo admins only', access: 'org' })).group.id;
    await shareItem('admin', ids[0], { groups: [group] });
    const { user } = renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    await user.click(await within(table).findByRole('checkbox', { name: "Select to undo: admin transferred 'Undo blocked 1' from user1 to admin" }));
    await user.click(screen.getByRole('button', { name: 'Undo selected (1)' }));

    const dialog = await screen.findByRole('dialog', { name: 'Undo 1 change' });
    const check = await within(dialog).findByRole('table', { name: 'Pre-check results' });
    expect(within(check).getByText("user1 is not a member of the group 'Undo admins only' the item is shared to.")).toBeInTheDocument();
    expect(within(check).getByText('Add user1 to the group “Undo admins only”, or unshare the item from it.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Undo 1 change' })).toBeDisabled();

    // The fix made, a new check lets it run.
    await addGroupUsers(group, { users: ['user1'] });
    await user.click(within(dialog).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Undo 1 change' })).toBeEnabled());
    await user.click(within(dialog).getByRole('button', { name: 'Undo 1 change' }));
    await within(dialog).findByRole('table', { name: 'Undo results' });
    expect((await getItem(ids[0])).owner).toBe('user1');
  }, 60_000);

  it('leaves out an event whose target changed afterwards, and says so', async () => {
    const { ids } = await mistakenTransfers('Undo moved', 1);
    const later = (await createFolder('admin', 'Undo later folder')).folder;
    await moveItem('admin', ids[0], later.id);
    const { user } = renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    await user.click(await within(table).findByRole('checkbox', { name: "Select to undo: admin transferred 'Undo moved 1' from user1 to admin" }));
    await user.click(screen.getByRole('button', { name: 'Undo selected (1)' }));

    const dialog = await screen.findByRole('dialog', { name: 'Undo 1 change' });
    const plan = await within(dialog).findByRole('table', { name: 'Changes to undo' });
    const box = await within(plan).findByRole('checkbox', { name: "Undo: admin transferred 'Undo moved 1' from user1 to admin" });
    await waitFor(() => expect(within(plan).getByText('Changed since')).toBeInTheDocument());
    expect(box).not.toBeChecked();
    expect(within(plan).getByText(/Changed afterwards \(admin moved 'Undo moved 1'.*\): left out so that later change is not overwritten/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Undo 0 changes' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await getItem(ids[0])).owner).toBe('admin');
  }, 60_000);

  it('offers no undo for a transfer whose item was deleted afterwards: the reason instead of a checkbox', async () => {
    const { ids } = await mistakenTransfers('Undo gone', 1);
    await deleteItem('admin', ids[0]);
    renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    const sentence = await within(table).findByText("admin transferred 'Undo gone 1' from user1 to admin");
    const row = sentence.closest('tr')!;
    expect(within(row).queryByRole('checkbox')).toBeNull();
    expect(within(row).getByText("No undo: the object is gone (admin deleted the item 'Undo gone 1').")).toBeInTheDocument();
    await expect(getItem(ids[0])).rejects.toThrow();
  }, 60_000);

  it('names the role a member gets back by its name, never by its id', async () => {
    await signInAs(svc, 'admin');
    const roleId = (await createRole(svc.orgId, { name: 'Undo field crew' })).id;
    await setRolePrivileges(svc.orgId, roleId, ['portal:user:viewOrgUsers']);
    await updateUserRole(svc.orgId, { username: 'publisher1', role: roleId });
    await updateUserRole(svc.orgId, { username: 'publisher1', role: 'org_publisher' });
    const { user } = renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    await user.click(
      await within(table).findByRole('checkbox', { name: /^Select to undo: admin changed the role of publisher1 from the role 'Undo field crew'/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Undo selected (1)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo 1 change' });
    const plan = await within(dialog).findByRole('table', { name: 'Changes to undo' });
    expect(within(plan).getByText("Give publisher1 the previous role ('Undo field crew') back.")).toBeInTheDocument();
    expect(dialog.textContent).not.toContain(roleId);
  }, 60_000);
});
