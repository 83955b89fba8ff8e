/**
 * Change owner on a group's page, against the real service: an administrator gives the group to
 * another member (Reassign Group), a refused target says why in the dialog, and the group's owner
 * who is no administrator sees the action disabled with the reason.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, getGroup, getGroupUsers } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let groupId: string;

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'user1');
  groupId = (await createGroup({ title: 'Trail crew', access: 'org' })).group.id;
}, 60_000);
afterAll(() => svc?.close());

describe('Change owner on the group page', () => {
  it('is disabled, with the reason, for the owner who is no administrator', async () => {
    await signInAs(svc, 'user1');
    renderApp(`/groups/${groupId}`);
    const button = await screen.findByRole('button', { name: 'Change owner' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(expect.stringContaining('portal:admin:reassignGroups'));
  });

  it('gives the group to another member; a target who may not own groups is refused with the reason', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/groups/${groupId}`);
    await user.click(await screen.findByRole('button', { name: 'Change owner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the owner of Trail crew' });
    const confirm = within(dialog).getByRole('button', { name: 'Change owner' });
    expect(confirm).toBeDisabled();
    const pick = async (who: RegExp) => {
      await user.click(within(dialog).getByRole('combobox', { name: /New owner/ }));
      await user.click(await screen.findByRole('option', { name: who }));
    };

    await pick(/viewer1/);
    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/The owner was not changed.*portal:user:createGroup/);
    expect((await getGroup(groupId)).owner).toBe('user1');

    await user.click(within(dialog).getByRole('button', { name: /^Clear/ }));
    await pick(/publisher1/);
    await user.click(within(dialog).getByRole('button', { name: 'Change owner' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change the owner of Trail crew' })).not.toBeInTheDocument());
    expect(await screen.findByText('publisher1', { selector: 'strong' })).toBeInTheDocument();
    const users = await getGroupUsers(groupId);
    expect(users.owner).toBe('publisher1');
    expect(users.users).toContain('user1');
  }, 30_000);
});
