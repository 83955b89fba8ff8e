/**
 * Members at scale, as an administrator walks it: counts per user type, select every member
 * matching the filter, bulk change role (Viewer-type members skipped as not compatible, never
 * sent), bulk disable and delete with a preview and one result per member (a member who owns an
 * item is refused by the portal, with a way to their page), then one member's page and its
 * Change user type, and Add member's role and user type rule.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createUser, listMembers, setRolePrivileges } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
const PASSWORD = 'Bulk.Pass.4242';
const VIEWER_ROLE = 'iAAAAAAAAAAAAAAA';

async function post(path: string, params: Record<string, string>, token: string) {
  const res = await fetch(`${svc.restUrl}/${path}`, { method: 'POST', body: new URLSearchParams({ f: 'json', token, ...params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  for (const name of ['bk.v1', 'bk.v2'])
    await createUser({ username: name, password: PASSWORD, email: `${name}@example.com`, role: VIEWER_ROLE, userLicenseTypeId: 'viewerUT' });
  for (const name of ['bk.c1', 'bk.c2', 'bk.c3'])
    await createUser({ username: name, password: PASSWORD, email: `${name}@example.com`, role: 'org_user', userLicenseTypeId: 'creatorUT' });
  // bk.c3 owns an item: the portal will not delete them.
  const { token } = await post('generateToken', { username: 'bk.c3', password: PASSWORD }, '');
  await post('content/users/bk.c3/addItem', { title: 'Crew notes', type: 'Web Map', text: '{}' }, token);
}, 60_000);
afterAll(() => svc?.close());

const member = async (username: string) => (await listMembers(svc.orgId, { username, num: 1 })).users.find((u) => u.username === username);

async function actOnAllMatching(user: ReturnType<typeof renderApp>['user'], total: number, action: string) {
  await user.click(await screen.findByRole('button', { name: `Select all ${total} matching` }));
  expect(screen.getByTestId('selection-count')).toHaveTextContent(`All ${total} members matching the filter selected`);
  await user.click(screen.getByRole('button', { name: 'Act on selection' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  return screen.findByRole('dialog', { name: `${action}: ${total} members` });
}

describe('bulk actions on members', () => {
  it('counts user types, selects all matching, previews, runs and reports per member', async () => {
    await signInAs(svc, 'admin');
    const { user, location, unmount } = renderApp('/members?q=bk.&num=2');
    const counts = await screen.findByRole('group', { name: 'Members by user type' });
    await waitFor(() => expect(within(counts).getByRole('button', { name: /^Viewer/ })).toHaveTextContent('Viewer2'));
    expect(within(counts).getByRole('button', { name: /^Creator/ })).toHaveTextContent('Creator3');
    await screen.findByText('Showing 1–2 of 5 members');

    // Change role to Publisher on all five: the Viewer-type members are skipped, and say why.
    let dialog = await actOnAllMatching(user, 5, 'Change role');
    await user.click(await within(dialog).findByLabelText('New role', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Publisher' }));
    const preview = await within(dialog).findByRole('table', { name: 'Preview' });
    expect(within(preview).getByText('bk.v1').closest('tr')).toHaveTextContent('Skipped: Not compatible with the Viewer user type.');
    await waitFor(() => expect(within(dialog).getByTestId('bulk-summary')).toHaveTextContent('3 will change, 2 skipped.'));
    await user.click(within(dialog).getByRole('button', { name: 'Change role 3 members' }));
    let results = await within(dialog).findByRole('table', { name: 'Change role results' });
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('3 changed2 not changed');
    expect(within(results).getByText('bk.v2', { selector: 'span' }).closest('tr')).toHaveTextContent('Not compatible with the Viewer user type');
    expect((await member('bk.c1'))?.role).toBe('org_publisher');
    expect((await member('bk.v1'))?.roleId).toBe(VIEWER_ROLE);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.getByTestId('selection-count')).toHaveTextContent('Tick members'));

    // The Creator count filters the list (in the address), then disable all that match.
    await user.click(within(counts).getByRole('button', { name: /^Creator/ }));
    await waitFor(() => expect(location()).toContain('userType=creatorUT'));
    await screen.findByText('Showing 1–2 of 3 members');
    dialog = await actOnAllMatching(user, 3, 'Disable');
    // The dialog reads every matching member before it can say what changes (slow beside other work).
    await waitFor(() => expect(within(dialog).getByTestId('bulk-summary')).toHaveTextContent('3 will change, 0 skipped.'));
    await user.click(within(dialog).getByRole('button', { name: 'Disable 3 members' }));
    await within(dialog).findByRole('table', { name: 'Disable results' });
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('3 changed0 not changed');
    expect((await member('bk.c2'))?.disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    // Delete the disabled Creators: the portal refuses the one who owns an item, and says why.
    await user.click(screen.getByLabelText('Status', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Disabled' }));
    await waitFor(() => expect(location()).toContain('status=disabled'));
    dialog = await actOnAllMatching(user, 3, 'Delete');
    // As with Disable, the button names its count once every matching member has been read.
    await user.click(await within(dialog).findByRole('button', { name: 'Delete 3 members' }));
    results = await within(dialog).findByRole('table', { name: 'Delete results' });
    const refused = within(results).getByText('bk.c3', { selector: 'span' }).closest('tr')!;
    expect(refused).toHaveTextContent('owns 1 item');
    expect(within(refused).getByRole('link', { name: 'Open the member page of bk.c3' })).toHaveAttribute('href', '/members/bk.c3');
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('2 changed1 not changed');
    expect(await member('bk.c1')).toBeUndefined();
    unmount();
  });

  it('one member: facts, Change user type with the types their role does not allow disabled, Reset password; Add member keeps the rule', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members/bk.c3');
    expect(await screen.findByRole('heading', { name: 'bk.c3' })).toBeInTheDocument();
    expect(await screen.findByText('Owns 1 item.')).toBeInTheDocument();
    expect(await screen.findByText('Disabled')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Change user type' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change user type of bk.c3' });
    await user.click(within(dialog).getByLabelText(/^New user type/, { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Viewer (not with the Viewer user type)' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'GIS Professional Basic' }));
    await user.click(within(dialog).getByRole('button', { name: 'Change user type' }));
    expect(await screen.findByText('bk.c3 is now GIS Professional Basic.')).toBeInTheDocument();
    expect((await member('bk.c3'))?.userLicenseTypeId).toBe('GISProfessionalBasicUT');

    // A new password: bk.c3 is disabled, so signing in with it is refused as disabled, not as a wrong password.
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset the password of bk.c3' });
    await user.type(within(reset).getByLabelText(/^New password \*?$/, { selector: 'input' }), 'Fresh.Start.5150');
    await user.type(within(reset).getByLabelText(/^New password again/, { selector: 'input' }), 'Fresh.Start.5150');
    await user.click(within(reset).getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password reset')).toBeInTheDocument();
    const signIn = await fetch(`${svc.restUrl}/generateToken`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'bk.c3', password: 'Fresh.Start.5150', f: 'json' }),
    });
    expect(JSON.stringify(await signIn.json())).toContain('This account has been disabled.');

    // Add member: a Viewer user type offers the Administrator role disabled, with why.
    await user.click(await screen.findByRole('link', { name: '← All members' }));
    await user.click(await screen.findByRole('button', { name: 'Add member' }));
    const add = await screen.findByRole('dialog', { name: 'Add member' });
    await user.click(within(add).getByLabelText('User type', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.click(within(add).getByLabelText(/^Role/, { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Administrator (not with the Viewer user type)' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('a member whose custom role may only disable members: the other bulk actions are disabled with the privilege named', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createRole(svc.orgId, { name: 'Member desk' });
    await setRolePrivileges(svc.orgId, id, ['portal:user:viewOrgUsers', 'portal:admin:viewUsers', 'portal:admin:disableUsers']);
    await createUser({ username: 'desk.one', password: DEMO_PASSWORD, email: 'desk.one@example.com', role: id });
    await signInAs(svc, 'desk.one');
    const { user } = renderApp('/members?q=bk.v');
    await user.click(await screen.findByRole('checkbox', { name: 'Select bk.v1' }));
    await user.click(screen.getByRole('button', { name: 'Act on selection' }));
    expect(await screen.findByRole('menuitem', { name: /^Disable/ })).not.toHaveAttribute('data-disabled');
    const reasons = { 'Change role': 'changeUserRoles', 'Change user type': 'manageLicenses', Delete: 'deleteUsers', 'Add to groups': 'assignToGroups' };
    for (const [action, privilege] of Object.entries(reasons)) {
      const item = screen.getByRole('menuitem', { name: new RegExp(`^${action}`) });
      expect(item).toHaveAttribute('data-disabled', 'true');
      expect(item).toHaveTextContent(`portal:admin:${privilege}`);
    }
  });
});
