/**
 * The console offers only the roles the signed-in member may give (docs/security.md, "Role
 * assignment"): the others are disabled with the reason, their own role cannot be changed, and
 * the same goes for the new-member default role in Settings. Against the real service.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_ROLE_PRIVILEGES } from '../../../shared/privileges.ts';
import { createGroup, createRole, createUser, getUserDefaultSettings, listMembers, setRolePrivileges } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
const roles: Record<string, string> = {};

async function role(name: string, privileges: string[]) {
  const { id } = await createRole(svc.orgId, { name });
  await setRolePrivileges(svc.orgId, id, privileges);
  roles[name] = id;
}

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  // The case from the report: may only view members and change their roles.
  await role('Role changer', ['portal:admin:viewUsers', 'portal:admin:changeUserRoles']);
  await role('Almost admin', ['portal:admin:viewUsers', 'portal:admin:changeUserRoles', 'portal:admin:manageRoles', 'portal:admin:manageWebhooks']);
  await role('Member viewer', ['portal:admin:viewUsers']);
  await role('Defaults keeper', ['portal:admin:manageSecurity', ...BASE_ROLE_PRIVILEGES.org_user]);
  await createUser({ username: 'changer', password: DEMO_PASSWORD, email: 'changer@example.com', role: roles['Role changer'] });
  await createUser({ username: 'keeper', password: DEMO_PASSWORD, email: 'keeper@example.com', role: roles['Defaults keeper'] });
});
afterAll(() => svc?.close());

async function membersTable() {
  const table = await screen.findByRole('table', { name: 'Members' });
  await within(table).findByText('user1');
  return table;
}

describe('changing roles as a member holding only viewUsers and changeUserRoles', () => {
  it('cannot open their own role change: the button says why', async () => {
    await signInAs(svc, 'changer');
    renderApp('/members?q=changer');
    const table = await screen.findByRole('table', { name: 'Members' });
    const own = await within(table).findByRole('button', { name: 'Change role of changer' });
    expect(own).toHaveAttribute('aria-disabled', 'true');
    expect(own).toHaveAccessibleDescription(expect.stringContaining('You cannot change your own role.'));
  });

  it('sees bigger roles disabled with the privileges it lacks, and gives a role it holds entirely', async () => {
    await signInAs(svc, 'changer');
    const { user } = renderApp('/members');
    const table = await membersTable();
    await user.click(within(table).getByRole('button', { name: 'Change role of user1' }));
    const dialog = await screen.findByRole('dialog', { name: /Change role of Uma User/ });
    await user.click(within(dialog).getByLabelText(/^New role/, { selector: 'input' }));

    expect(await screen.findByRole('option', { name: 'Administrator (default administrators only)' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: /^Publisher \(you lack portal:user:viewOrgUsers, portal:user:createGroup and \d+ more\)$/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('option', { name: 'Almost admin (you lack portal:admin:manageRoles, portal:admin:manageWebhooks)' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    // The built-in Viewer holds member-level privileges this role does not.
    expect(screen.getByRole('option', { name: /^Viewer \(you lack / })).toHaveAttribute('aria-disabled', 'true');
    const smaller = screen.getByRole('option', { name: 'Member viewer' });
    expect(smaller).not.toHaveAttribute('aria-disabled', 'true');

    await user.click(smaller);
    await user.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Uma User is now Member viewer.')).toBeInTheDocument();
    const page = await listMembers(svc.orgId, { username: 'user1' });
    expect(page.users[0].roleId).toBe(roles['Member viewer']);
  });
});

describe('new-member defaults as a member holding manageSecurity and what a User holds', () => {
  it('offers User, and shows Publisher and bigger custom roles disabled with the reason', async () => {
    // A group of the administrator's (keeper may not add members to it) and one of keeper's own.
    await signInAs(svc, 'admin');
    await createGroup({ title: 'Board room', access: 'org' });
    await signInAs(svc, 'keeper');
    const { group: own } = await createGroup({ title: 'Keeper crew' });
    const { user } = renderApp('/settings');
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    await user.click(screen.getByRole('button', { name: 'Edit defaults' }));
    const form = await screen.findByRole('form', { name: 'New-member defaults' });
    await user.click(within(form).getByLabelText(/^Role/, { selector: 'input' }));

    expect(
      await screen.findByRole('option', { name: /^Publisher \(you lack portal:publisher:publishFeatures, portal:publisher:publishTiles and \d+ more\)$/ }),
    ).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Almost admin (administrator role)' })).toHaveAttribute('aria-disabled', 'true');
    const plain = screen.getByRole('option', { name: 'User' });
    expect(plain).not.toHaveAttribute('aria-disabled', 'true');
    await user.click(plain);

    await user.click(within(form).getByLabelText(/^Groups/, { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Board room (only its managers add members)' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'Keeper crew' }));
    await user.click(within(form).getByRole('button', { name: 'Save defaults' }));
    await waitFor(async () => expect(await getUserDefaultSettings(svc.orgId)).toMatchObject({ role: 'org_user', groups: [own.id] }));
  });
});
