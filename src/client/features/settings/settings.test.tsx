import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createRole, deleteGroup, getPortal, getUserDefaultSettings, setRolePrivileges, setUserDefaultSettings } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const EMPTY = { role: null, userLicenseType: null, groups: [], userType: null, apps: [], appBundles: [] };

/** The summary table as {label: value}. */
function summary(): Record<string, string> {
  const table = screen.getByRole('table', { name: 'Current new-member defaults' });
  return Object.fromEntries(
    within(table)
      .getAllByRole('row')
      .map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]),
  );
}

async function pick(user: UserEvent, label: string | RegExp, option: string) {
  await user.click(screen.getByLabelText(label, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('settings: new-member defaults', () => {
  it('shows the defaults, edits them, and clears them all after a before/after summary', async () => {
    await signInAs(svc, 'admin');
    const { group: north } = await createGroup({ title: 'North team' });
    const { group: south } = await createGroup({ title: 'South team' });
    const { user } = renderApp('/settings');
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    expect(summary()).toEqual({ Role: 'Not set', 'User type': 'Not set', Groups: 'Not set', Apps: 'Not set' });
    // Nothing to clear yet.
    expect(screen.getByRole('button', { name: 'Clear all defaults' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Edit defaults' }));
    const form = await screen.findByRole('form', { name: 'New-member defaults' });
    await pick(user, /^Role/, 'Publisher');
    await pick(user, /^User type/, 'GIS Professional Standard');
    await user.click(within(form).getByLabelText(/^Groups/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'North team' }));
    await user.click(await screen.findByRole('option', { name: 'South team' }));
    await pick(user, /^Apps/, 'ArcGIS and Esri apps');
    await user.click(within(form).getByRole('button', { name: 'Save defaults' }));

    expect(await screen.findByText('Defaults saved')).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    await waitFor(() =>
      expect(summary()).toEqual({ Role: 'Publisher', 'User type': 'GIS Professional Standard', Groups: 'North teamSouth team', Apps: 'ArcGIS and Esri apps' }),
    );
    expect(await getUserDefaultSettings(svc.orgId)).toMatchObject({
      role: 'org_publisher',
      userLicenseType: 'GISProfessionalStdUT',
      groups: [north.id, south.id],
      userType: 'both',
    });

    await user.click(screen.getByRole('button', { name: 'Clear all defaults' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear all new-member defaults?' });
    const rows = within(within(dialog).getByRole('table', { name: 'Before and after' }))
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows.slice(1)).toEqual([
      ['Role', 'Publisher', 'Not set'],
      ['User type', 'GIS Professional Standard', 'Not set'],
      ['Groups', 'North team, South team', 'Not set'],
      ['Apps', 'ArcGIS and Esri apps', 'Not set'],
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Clear all defaults' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Defaults cleared')).toBeInTheDocument();
    await waitFor(() => expect(summary()).toEqual({ Role: 'Not set', 'User type': 'Not set', Groups: 'Not set', Apps: 'Not set' }));
    expect(await getUserDefaultSettings(svc.orgId)).toEqual(EMPTY);
  });

  it('never offers an administrator role, and shows the service refusal beside the field', async () => {
    await signInAs(svc, 'admin');
    const { id: adminRole } = await createRole(svc.orgId, { name: 'Deputy administrators' });
    await setRolePrivileges(svc.orgId, adminRole, ['portal:admin:viewUsers']);
    const { group } = await createGroup({ title: 'Soon gone' });
    const { user } = renderApp('/settings');
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    await user.click(screen.getByRole('button', { name: 'Edit defaults' }));
    const form = await screen.findByRole('form', { name: 'New-member defaults' });
    await user.click(within(form).getByLabelText(/^Role/, { selector: 'input' }));
    expect(screen.queryByRole('option', { name: 'Administrator' })).toBeNull();
    expect(await screen.findByRole('option', { name: 'Deputy administrators (administrator role)' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'User' }));

    // The group disappears before saving: the portal names it, beside the Groups field.
    await user.click(within(form).getByLabelText(/^Groups/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Soon gone' }));
    await deleteGroup(group.id);
    await user.click(within(form).getByRole('button', { name: 'Save defaults' }));
    await waitFor(() =>
      expect(within(form).getByLabelText(/^Groups/, { selector: 'input' })).toHaveAccessibleDescription(
        expect.stringContaining(`Names groups that are not groups of this organization: ${group.id}`),
      ),
    );
    expect(await getUserDefaultSettings(svc.orgId)).toEqual(EMPTY);
  });

  it('offers only the roles the chosen user type allows, saying why, and the portal refuses the pair too', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/settings');
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    await user.click(screen.getByRole('button', { name: 'Edit defaults' }));
    const form = await screen.findByRole('form', { name: 'New-member defaults' });
    // A role chosen first, then a user type that does not allow it: said beside the role, not sent.
    await pick(user, /^Role/, 'Publisher');
    await pick(user, /^User type/, 'Viewer');
    const role = within(form).getByLabelText(/^Role/, { selector: 'input' });
    expect(role).toHaveAccessibleDescription(
      expect.stringContaining("The Viewer user type allows only viewing (roles like Viewer): the role 'Publisher' holds privileges it does not allow"),
    );
    await user.click(within(form).getByRole('button', { name: 'Save defaults' }));
    expect(role).toHaveAccessibleDescription(expect.stringContaining('Viewer user type'));
    expect(within(form).getByRole('button', { name: 'Save defaults' })).toBeEnabled();
    expect(await getUserDefaultSettings(svc.orgId)).toEqual(EMPTY);

    await user.click(role);
    expect(await screen.findByRole('option', { name: 'Publisher (not with the Viewer user type)' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'User (not with the Viewer user type)' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Data Editor (not with the Viewer user type)' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'Viewer' }));
    // The description follows the chosen role in a later render: on a loaded machine it lags the click.
    await waitFor(() => expect(role).not.toHaveAccessibleDescription(expect.stringContaining('allows only viewing')));
    await user.click(within(form).getByRole('button', { name: 'Save defaults' }));
    expect(await screen.findByText('Defaults saved')).toBeInTheDocument();
    expect(await getUserDefaultSettings(svc.orgId)).toMatchObject({ role: 'iAAAAAAAAAAAAAAA', userLicenseType: 'viewerUT' });

    // The same pair sent by another client: the portal names the field.
    await expect(setUserDefaultSettings(svc.orgId, { role: 'org_publisher' })).rejects.toMatchObject({
      code: 400,
      fieldErrors: { role: expect.stringContaining('Viewer user type') },
    });
    await setUserDefaultSettings(svc.orgId, { role: '', userLicenseType: '' });
  });

  it('clears one default alone: the role goes, the groups and user type stay', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Stays a default' });
    await setUserDefaultSettings(svc.orgId, { role: 'org_user', userLicenseType: 'creatorUT', groups: [group.id] });
    const { user } = renderApp('/settings');
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    await waitFor(() => expect(summary()).toMatchObject({ Role: 'User', Groups: 'Stays a default' }));
    await user.click(screen.getByRole('button', { name: 'Edit defaults' }));
    const form = await screen.findByRole('form', { name: 'New-member defaults' });
    await user.click(within(form).getByRole('button', { name: 'Clear the default role' }));
    expect(within(form).getByLabelText(/^Role/, { selector: 'input' })).toHaveValue('');
    await user.click(within(form).getByRole('button', { name: 'Save defaults' }));
    expect(await screen.findByText('Defaults saved')).toBeInTheDocument();
    await waitFor(() => expect(summary()).toMatchObject({ Role: 'Not set', 'User type': 'Creator', Groups: 'Stays a default' }));
    expect(await getUserDefaultSettings(svc.orgId)).toMatchObject({ role: null, userLicenseType: 'creatorUT', groups: [group.id] });
    await deleteGroup(group.id);
    await setUserDefaultSettings(svc.orgId, { userLicenseType: '', groups: [] });
  });

  it('a default set elsewhere shows up, even a custom role by name', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createRole(svc.orgId, { name: 'Field starters' });
    await setRolePrivileges(svc.orgId, id, ['portal:user:viewOrgUsers']);
    await setUserDefaultSettings(svc.orgId, { role: id, userType: 'arcgisonly' });
    renderApp('/settings');
    await screen.findByRole('table', { name: 'Current new-member defaults' });
    await waitFor(() => expect(summary()).toMatchObject({ Role: 'Field starters', Apps: 'ArcGIS only' }));
  });

  it('changes how many members from other organizations a group may hold', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/settings');
    const input = await screen.findByRole('textbox', { name: /^Members from other organizations per group/ });
    await waitFor(() => expect(input).toHaveValue('100'));
    expect(within(screen.getByRole('form', { name: 'Group settings' })).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(input);
    await user.type(input, '7');
    await user.click(within(screen.getByRole('form', { name: 'Group settings' })).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Setting saved')).toBeInTheDocument();
    expect((await getPortal()).maxExternalMembersPerGroup).toBe(7);
  });

  it('is for administrators only', async () => {
    await signInAs(svc, 'user1');
    renderApp('/settings');
    expect(await screen.findByText('You cannot open Settings')).toBeInTheDocument();
    expect(screen.getByText(/portal:admin:manageSecurity/)).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main navigation' })).queryByRole('link', { name: 'Settings' })).toBeNull();
  });
});
