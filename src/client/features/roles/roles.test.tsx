import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, getRolePrivileges, listRoles, setRolePrivileges, updateUserRole } from '../../api/index.ts';
import { inputByLabel } from '../../test/queries.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

let n = 0;
const unique = (prefix: string) => `${prefix} ${++n}${Date.now().toString(36).slice(-4)}`;

async function roleNamed(name: string) {
  const { roles } = await listRoles(svc.orgId);
  return roles.find((r) => r.name === name);
}

/** The items of a titled list in a dialog or page ("Added", "Only in User"), as privilege ids. */
function listed(container: HTMLElement, title: string | RegExp): string[] {
  const region = within(container).getByRole('region', { name: title });
  return [...region.querySelectorAll('[data-privilege]')].map((li) => li.getAttribute('data-privilege')!);
}

describe('roles page', () => {
  it('lists roles with what they count as and member counts; the built-ins are read-only', async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/roles');
    const table = await screen.findByRole('table', { name: 'Roles' });
    const viewer = (await within(table).findByRole('link', { name: 'Viewer' })).closest('tr')!;
    expect(viewer).toHaveTextContent('Built-in');
    expect(within(viewer).getByRole('link', { name: /1 members with the role Viewer/ })).toHaveAttribute('href', '/members?role=iAAAAAAAAAAAAAAA');
    const del = within(viewer).getByRole('button', { name: 'Delete Viewer' });
    expect(del).toHaveAttribute('aria-disabled', 'true');
    expect(del).toHaveAccessibleDescription('Viewer is a built-in role: it cannot be deleted.');

    await user.click(within(viewer).getByRole('link', { name: 'View Viewer' }));
    await waitFor(() => expect(location()).toBe('/roles/iAAAAAAAAAAAAAAA'));
    expect(await screen.findByRole('heading', { name: 'Viewer', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Viewer is a built-in role: it cannot be changed. This is exactly what the role allows.');
    expect(inputByLabel('Join groups in the organization')).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Review and save' })).toBeNull();
  });

  it('lists the default roles too, read-only, each opening to exactly what it allows', async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/roles');
    const table = await screen.findByRole('table', { name: 'Default roles' });
    expect(
      within(table)
        .getAllByRole('link', { name: /^(Administrator|Publisher|User)$/ })
        .map((a) => a.textContent),
    ).toEqual(['Administrator', 'Publisher', 'User']);
    const publisher = within(table).getByRole('link', { name: 'Publisher' }).closest('tr')!;
    expect(within(publisher).getByRole('button', { name: 'Delete Publisher' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(within(publisher).getByRole('link', { name: 'View Publisher' }));
    await waitFor(() => expect(location()).toBe('/roles/org_publisher'));
    expect(await screen.findByRole('heading', { name: 'Publisher', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Publisher is a built-in role: it cannot be changed.');
    expect(inputByLabel('Publish hosted feature layers')).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Review and save' })).toBeNull();
  });

  it('ticks what a privilege needs, says so, and unticks what needs a privilege taken away', async () => {
    await signInAs(svc, 'admin');
    const name = unique('Notebook scheduler');
    const { user } = renderApp('/roles/new');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), name);
    await user.click(inputByLabel('Schedule notebook tasks'));
    // Scheduling needs notebooks, which need content creation: both ticked, and said.
    expect(inputByLabel('Create and edit notebooks')).toBeChecked();
    expect(inputByLabel('Create, update and delete own content')).toBeChecked();
    expect(screen.getByTestId('prerequisite-note')).toHaveTextContent(
      'Also ticked, because Schedule notebook tasks needs it: Create, update and delete own content, Create and edit notebooks.',
    );
    expect(inputByLabel('Schedule notebook tasks')).not.toHaveAccessibleDescription(expect.stringContaining('which is not granted'));
    // Taking content creation away takes what needs it too.
    await user.click(inputByLabel('Create, update and delete own content'));
    expect(inputByLabel('Create and edit notebooks')).not.toBeChecked();
    expect(inputByLabel('Schedule notebook tasks')).not.toBeChecked();
    expect(screen.getByTestId('prerequisite-note')).toHaveTextContent('Also unticked, because it needs Create, update and delete own content');
    await user.click(inputByLabel('Schedule notebook tasks'));
    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    const review = await screen.findByRole('dialog', { name: 'Create this role?' });
    expect(within(review).queryByTestId('unmet-requirements')).toBeNull();
    await user.click(within(review).getByRole('button', { name: 'Create role' }));
    expect(await screen.findByText('Role created')).toBeInTheDocument();
    const created = await roleNamed(name);
    expect((await getRolePrivileges(svc.orgId, created!.id)).privileges).toEqual([
      'portal:user:createItem',
      'premium:publisher:createNotebooks',
      'premium:publisher:scheduleNotebooks',
    ]);
  });

  it('privileges without a prerequisite (carried to a role, or saved by another client): saving waits for the one-click fix', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createRole(svc.orgId, { name: unique('Half publisher') });
    const { user, router } = renderApp('/roles');
    // What the editor carries to a new role whose privileges were not saved with it.
    await router.navigate(`/roles/${id}`, { state: { privileges: ['portal:publisher:publishFeatures', 'portal:user:viewOrgUsers'] } });
    // findByLabelText asks every input for its labels at each DOM change while the checklist renders
    // (8 of this test's 15 s in jsdom): wait with the direct lookup instead.
    const publish = await waitFor(() => inputByLabel('Publish hosted feature layers'));
    expect(publish).toHaveAccessibleDescription(expect.stringContaining('which is not granted'));
    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    const review = await screen.findByRole('dialog', { name: 'Save these changes?' });
    expect(within(review).getByTestId('unmet-requirements')).toHaveTextContent('Publish hosted feature layers needs Create, update and delete own content');
    expect(within(review).getByRole('button', { name: 'Save role' })).toBeDisabled();
    await user.click(within(review).getByRole('button', { name: 'Tick what they need' }));
    expect(within(review).queryByTestId('unmet-requirements')).toBeNull();
    await user.click(within(review).getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText('Role saved')).toBeInTheDocument();
    expect((await getRolePrivileges(svc.orgId, id)).privileges).toEqual([
      'portal:publisher:publishFeatures',
      'portal:user:createItem',
      'portal:user:viewOrgUsers',
    ]);
    // Another client sending the same gap is refused by the portal, naming the privilege.
    await expect(setRolePrivileges(svc.orgId, id, ['portal:publisher:publishFeatures'])).rejects.toMatchObject({
      code: 400,
      fieldErrors: { privileges: expect.stringContaining("'portal:publisher:publishFeatures' needs 'portal:user:createItem'") },
    });
  });

  it('builds a role from the checklist: implied privileges are ticked, the diff is shown before saving, then it is saved', async () => {
    await signInAs(svc, 'admin');
    const name = unique('Field editor');
    const { user, location } = renderApp('/roles/new');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), name);
    await user.type(screen.getByRole('textbox', { name: /^Description/ }), 'Edits features in the field');

    await user.type(screen.getByRole('searchbox', { name: 'Filter privileges' }), 'edit');
    await user.click(inputByLabel('Edit with full control'));
    expect(inputByLabel('Edit features')).toBeChecked();
    expect(inputByLabel('Edit features')).toBeDisabled();
    await user.clear(screen.getByRole('searchbox', { name: 'Filter privileges' }));
    await user.click(inputByLabel('View members of the organization'));
    expect(screen.getByTestId('pending-changes')).toHaveTextContent('3 privileges added, 0 removed');

    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    const review = await screen.findByRole('dialog', { name: 'Create this role?' });
    expect(review).toHaveTextContent(`A new role ${name} will be created`);
    expect(listed(review, 'Added')).toEqual(['portal:user:viewOrgUsers', 'features:user:edit', 'features:user:fullEdit']);
    expect(listed(review, 'Removed')).toEqual([]);
    await user.click(within(review).getByRole('button', { name: 'Create role' }));

    expect(await screen.findByText('Role created')).toBeInTheDocument();
    const created = await roleNamed(name);
    expect(created).toMatchObject({ description: 'Edits features in the field', builtIn: false, memberCount: 0 });
    await waitFor(() => expect(location()).toBe(`/roles/${created!.id}`));
    expect((await getRolePrivileges(svc.orgId, created!.id)).privileges).toEqual(['features:user:edit', 'features:user:fullEdit', 'portal:user:viewOrgUsers']);

    // Edit it: rename, drop one privilege, add another; the review names both.
    expect(await screen.findByRole('heading', { name, level: 1 })).toBeInTheDocument();
    const nameBox = screen.getByRole('textbox', { name: /^Name/ });
    await user.clear(nameBox);
    await user.type(nameBox, `${name} v2`);
    await user.click(inputByLabel('View members of the organization'));
    await user.click(inputByLabel('Create groups'));
    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    const second = await screen.findByRole('dialog', { name: 'Save these changes?' });
    expect(second).toHaveTextContent(`Name: ${name} → ${name} v2`);
    expect(listed(second, 'Added')).toEqual(['portal:user:createGroup']);
    expect(listed(second, 'Removed')).toEqual(['portal:user:viewOrgUsers']);
    await user.click(within(second).getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText('Role saved')).toBeInTheDocument();
    await waitFor(async () =>
      expect((await getRolePrivileges(svc.orgId, created!.id)).privileges).toEqual(['features:user:edit', 'features:user:fullEdit', 'portal:user:createGroup']),
    );
    expect((await roleNamed(`${name} v2`))?.id).toBe(created!.id);
    await waitFor(() => expect(screen.getByTestId('pending-changes')).toHaveTextContent('Privileges unchanged'));
  });

  it('shows a name the service refuses beside the field', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/roles/new');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Viewer');
    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    const review = await screen.findByRole('dialog', { name: 'Create this role?' });
    expect(within(review).getByTestId('privilege-diff-none')).toBeInTheDocument();
    await user.click(within(review).getByRole('button', { name: 'Create role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription(expect.stringContaining("'Viewer' is already the name of a role"));
  });

  it('compares the role being edited with another, side by side', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createRole(svc.orgId, { name: unique('Comparable') });
    await setRolePrivileges(svc.orgId, id, ['portal:user:viewOrgUsers', 'portal:user:joinGroup', 'portal:admin:viewUsers']);
    const { user } = renderApp(`/roles/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Compare with another role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compare roles' });
    await user.click(within(dialog).getByLabelText('Role B', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    const label = within(dialog).getByLabelText<HTMLInputElement>('Role A', { selector: 'input' });
    expect(listed(dialog, `Only in ${label.value}`)).toEqual(['portal:admin:viewUsers']);
    expect(listed(dialog, 'Only in Viewer')).toEqual(['portal:user:joinNonOrgGroup', 'portal:user:viewOrgGroups', 'portal:user:viewOrgItems']);
    expect(listed(dialog, 'In both')).toEqual(['portal:user:viewOrgUsers', 'portal:user:joinGroup']);
    // Dialogs close by a named button.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deleting a role members hold shows the service refusal, then leads to those members', async () => {
    await signInAs(svc, 'admin');
    const name = unique('Held');
    const { id } = await createRole(svc.orgId, { name });
    await setRolePrivileges(svc.orgId, id, ['portal:user:viewOrgUsers']);
    await createUser({ username: `holder${n}`, password: 'Holder.Pass.42', email: `holder${n}@example.com`, role: id });
    const { user, location } = renderApp('/roles');
    const table = await screen.findByRole('table', { name: 'Roles' });
    await user.click(await within(table).findByRole('button', { name: `Delete ${name}` }));
    const dialog = await screen.findByRole('dialog', { name: `Delete the role “${name}”?` });
    expect(dialog).toHaveTextContent('1 member holds it.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`The role '${name}' is assigned to 1 member; assign them another role first.`);
    expect(await roleNamed(name)).toBeDefined();

    await user.click(within(dialog).getByRole('button', { name: 'Show members with this role' }));
    await waitFor(() => expect(location()).toBe(`/members?role=${id}`));
    const members = await screen.findByRole('table', { name: 'Members' });
    expect(await within(members).findAllByText(`holder${n}`)).not.toHaveLength(0);
  });

  it('deletes a role nobody holds', async () => {
    await signInAs(svc, 'admin');
    const name = unique('Unused');
    const { id } = await createRole(svc.orgId, { name });
    const { user, location } = renderApp(`/roles/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete role' }));
    const dialog = await screen.findByRole('dialog', { name: `Delete the role “${name}”?` });
    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    await waitFor(() => expect(location()).toBe('/roles'));
    expect(await screen.findByText('Role deleted')).toBeInTheDocument();
    expect(await roleNamed(name)).toBeUndefined();
  });

  it('for members who are not default administrators, managing is disabled with the reason', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createRole(svc.orgId, { name: unique('Seen by users') });
    await setRolePrivileges(svc.orgId, id, ['features:user:fullEdit']);
    await updateUserRole(svc.orgId, { username: 'publisher1', role: 'org_publisher' });
    await signInAs(svc, 'user1');
    const { user } = renderApp('/roles');
    const create = await screen.findByRole('button', { name: 'New role' });
    expect(create).toHaveAttribute('aria-disabled', 'true');
    expect(create).toHaveAccessibleDescription('Only a default administrator can create, change or delete roles.');
    await user.click(create);
    expect(screen.queryByRole('textbox', { name: /^Name/ })).toBeNull();

    const table = await screen.findByRole('table', { name: 'Roles' });
    await user.click(await within(table).findByRole('link', { name: /^Seen by users/ }));
    await screen.findByRole('heading', { name: /^Seen by users/, level: 1 });
    expect(screen.getByRole('status')).toHaveTextContent('Only a default administrator can create, change or delete roles.');
    expect(inputByLabel('Edit features')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Delete role' })).toHaveAttribute('aria-disabled', 'true');
  });
});
