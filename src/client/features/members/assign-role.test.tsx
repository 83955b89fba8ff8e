import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, listMembers, setRolePrivileges } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

async function roleOf(username: string) {
  const { users } = await listMembers(svc.orgId, { username });
  return users[0].roleId ?? users[0].role;
}

describe('assigning a role to several members', () => {
  it('previews, assigns, reports per member with the service reason, and retries the failed ones', async () => {
    await signInAs(svc, 'admin');
    const { id: roleId } = await createRole(svc.orgId, { name: 'Bulk Analyst' });
    await setRolePrivileges(svc.orgId, roleId, ['portal:user:viewOrgUsers', 'portal:user:createItem']);
    for (const name of ['bulk_one', 'bulk_two'])
      await createUser({ username: name, password: 'Bulk.Pass.4242', email: `${name}@example.com`, role: 'org_user' });

    const { user } = renderApp('/members?q=bulk');
    const table = await screen.findByRole('table', { name: 'Members' });
    await within(table).findAllByText('bulk_two');
    const assign = screen.getByRole('button', { name: 'Assign role' });
    expect(assign).toBeDisabled();

    // Both on this page, then admin from another search (the selection is kept).
    await user.click(within(table).getByRole('checkbox', { name: 'Select all members on this page' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('2 members selected');
    await user.clear(screen.getByRole('searchbox', { name: 'Search members' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'Portal Administrator{Enter}');
    await user.click(await within(table).findByRole('checkbox', { name: 'Select admin' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('3 members selected');

    await user.click(screen.getByRole('button', { name: 'Assign role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign a role to 3 members' });
    await user.click(within(dialog).getByLabelText('Role', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Bulk Analyst' }));
    const preview = within(dialog).getByRole('table', { name: 'Preview' });
    expect(within(preview).getAllByRole('row')).toHaveLength(4);
    expect(within(preview).getByText('admin').closest('tr')).toHaveTextContent(
      'AdministratorBulk AnalystYou cannot change your own role. The portal will likely refuse it.',
    );
    expect(dialog).toHaveTextContent('3 will change, 0 already have it.');
    await user.click(within(dialog).getByRole('button', { name: 'Assign role' }));

    // Nobody changes their own role: the preview warned, and the service says why.
    const results = await within(dialog).findByRole('table', { name: 'Role assignment results' });
    const adminRow = within(results).getByText('admin', { selector: 'span' }).closest('tr')!;
    expect(adminRow).toHaveTextContent('Not changed');
    expect(adminRow).toHaveTextContent('You cannot change your own role.');
    for (const name of ['bulk_one', 'bulk_two']) {
      expect(within(results).getByText(name, { selector: 'span' }).closest('tr')).toHaveTextContent('ChangedNow Bulk Analyst');
      expect(await roleOf(name)).toBe(roleId);
    }
    expect(within(dialog).getByRole('status')).toHaveTextContent('2 changed1 not changed');

    // Retry the failed one: refused again for the same reason; nothing else is sent again.
    await user.click(within(dialog).getByRole('button', { name: 'Retry failed (1)' }));
    const again = await within(dialog).findByRole('table', { name: 'Role assignment results' });
    await waitFor(() => expect(within(again).getByText('admin', { selector: 'span' }).closest('tr')).toHaveTextContent('Not changed'));
    expect(await roleOf('admin')).toBe('org_admin');
    for (const name of ['bulk_one', 'bulk_two']) expect(await roleOf(name)).toBe(roleId);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('selection-count')).toHaveTextContent('Tick members');
  });

  it('is disabled, with the privilege named, for members who may not change roles', async () => {
    await signInAs(svc, 'user1');
    renderApp('/members');
    const assign = await screen.findByRole('button', { name: 'Assign role' });
    expect(assign).toHaveAttribute('aria-disabled', 'true');
    expect(assign).toHaveAccessibleDescription(expect.stringContaining('portal:admin:changeUserRoles'));
  });
});
