import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMembers } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const input = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' });

async function membersTable() {
  const table = await screen.findByRole('table', { name: 'Members' });
  await within(table).findByText('admin');
  return table;
}

/** Usernames in table order. */
function usernames(table: HTMLElement): string[] {
  return (
    within(table)
      .getAllByRole('row')
      .slice(1)
      // Cells: selection box, name, username, …
      .map((row) => within(row).getAllByRole('cell')[2]?.textContent ?? '')
  );
}

describe('members page', () => {
  it('lists the demo organization and only it', async () => {
    await signInAs(svc, 'admin');
    renderApp('/members');
    const table = await membersTable();
    expect(usernames(table)).toEqual(['admin', 'publisher1', 'user1', 'viewer1']);
    expect(within(table).queryByText('partner_admin')).toBeNull();
    // Roles read as words; viewer1 has the built-in Viewer custom role.
    const viewerRow = within(table).getByText('viewer1').closest('tr')!;
    expect(viewerRow).toHaveTextContent('Viewer');
    const publisherRow = within(table).getByText('publisher1').closest('tr')!;
    expect(publisherRow).toHaveTextContent('Publisher');
    expect(screen.getByText('Showing 1–4 of 4 members')).toBeInTheDocument();
  });

  it('pages, sorts and searches through the service', async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/members?num=2');
    const table = await membersTable();
    expect(usernames(table)).toEqual(['admin', 'publisher1']);
    expect(screen.getByText('Showing 1–2 of 4 members')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(usernames(table)).toEqual(['user1', 'viewer1']));
    expect(location()).toBe('/members?start=3&num=2');

    await user.click(within(table).getByRole('button', { name: /^Username: sort descending/ }));
    await waitFor(() => expect(usernames(table)).toEqual(['viewer1', 'user1']));
    expect(within(table).getByRole('columnheader', { name: /Username/ })).toHaveAttribute('aria-sort', 'descending');

    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'pat{Enter}');
    await waitFor(() => expect(usernames(table)).toEqual(['publisher1']));
    expect(location()).toContain('q=pat');

    await user.clear(screen.getByRole('searchbox', { name: 'Search members' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search members' }), 'nobody-here{Enter}');
    expect(await screen.findByText('No members match')).toBeInTheDocument();
  });

  it('filters by role', async () => {
    await signInAs(svc, 'admin');
    renderApp('/members?role=org_publisher');
    const table = await screen.findByRole('table', { name: 'Members' });
    await waitFor(() => expect(usernames(table)).toEqual(['publisher1']));
  });

  it('adds a member: a server field error is shown beside its field, then it works', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    await membersTable();
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });

    // The form checks what it can before calling the service.
    await user.click(within(dialog).getByRole('button', { name: 'Add member' }));
    expect(await within(dialog).findByText(/Must be a valid email address/)).toBeInTheDocument();

    await user.type(input('First name'), 'Nora');
    await user.type(input('Last name'), 'New');
    await user.type(input('Email'), 'nora@example.com');
    await user.type(input('Username'), 'publisher1'); // taken: only the service knows
    await user.type(input('Password'), 'Sturdy.Pass.91');
    await user.click(within(dialog).getByRole('button', { name: 'Add member' }));

    await waitFor(() => expect(input('Username')).toHaveAttribute('aria-invalid', 'true'));
    expect(input('Username')).toHaveAccessibleDescription(expect.stringContaining("'publisher1' is already taken"));
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await user.clear(input('Username'));
    await user.type(input('Username'), 'nora_new');
    await user.click(within(dialog).getByRole('button', { name: 'Add member' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add member' })).toBeNull());
    expect(await screen.findByText('Member added')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Members' });
    expect(await within(table).findByText('nora_new')).toBeInTheDocument();

    const page = await listMembers(svc.orgId, { username: 'nora_new' });
    expect(page.users[0]).toMatchObject({ username: 'nora_new', fullName: 'Nora New', role: 'org_user' });
  });

  it('changes a member role', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    const table = await membersTable();
    await user.click(within(table).getByRole('button', { name: 'Change role of user1' }));
    const dialog = await screen.findByRole('dialog', { name: /Change role of Uma User/ });
    expect(within(dialog).getByText('Current role:', { exact: false })).toHaveTextContent('User');

    await user.click(within(dialog).getByLabelText(/^New role/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Publisher' }));
    await user.click(within(dialog).getByRole('button', { name: 'Change role' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Uma User is now Publisher.')).toBeInTheDocument();
    await waitFor(() => expect(within(table).getByText('user1').closest('tr')).toHaveTextContent('Publisher'));
    const page = await listMembers(svc.orgId, { username: 'user1' });
    expect(page.users[0].role).toBe('org_publisher');
  });

  it('for a member without the privileges, actions are disabled and name the missing privilege', async () => {
    await signInAs(svc, 'user1');
    const { user } = renderApp('/members');
    const table = await membersTable();

    const add = screen.getByRole('button', { name: 'Add member' });
    expect(add).toHaveAttribute('aria-disabled', 'true');
    expect(add).toHaveAccessibleDescription(expect.stringContaining('portal:admin:inviteUsers'));
    await user.click(add);
    expect(screen.queryByRole('dialog')).toBeNull();

    const change = within(table).getByRole('button', { name: 'Change role of publisher1' });
    expect(change).toHaveAttribute('aria-disabled', 'true');
    expect(change).toHaveAccessibleDescription(expect.stringContaining('portal:admin:changeUserRoles'));
    // Still reachable from the keyboard, so the reason can be read.
    change.focus();
    expect(change).toHaveFocus();
  });

  it('offers the base roles, and custom roles when the roles list can be read', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    await membersTable();
    await user.click(screen.getByRole('button', { name: 'Add member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add member' });
    await user.click(within(dialog).getByLabelText(/^Role/, { selector: 'input' }));
    for (const name of ['Administrator', 'Publisher', 'User']) expect(await screen.findByRole('option', { name })).toBeInTheDocument();
    // Custom roles come from portals/<orgId>/roles; when that fails the page says so and keeps working.
    const note = within(dialog).queryByText(/Custom roles could not be loaded/);
    const custom = screen.queryByRole('option', { name: 'Viewer' });
    expect(note !== null || custom !== null).toBe(true);
  });
});
