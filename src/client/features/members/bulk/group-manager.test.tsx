/**
 * Add to groups as a group's owner: addUsers lets a group's owner and managers add members to it
 * (community/groups/<id>/addUsers), so a member without portal:admin:assignToGroups who owns a group
 * may pick a selection and add it to that group — and only to the groups they own or manage.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createUser, getGroupUsers } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
let ownGroup: string;

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  await createGroup({ title: 'Admin only crew', access: 'org' });
  for (const name of ['gm.owner', 'gm.aaa', 'gm.bbb'])
    await createUser({ username: name, password: DEMO_PASSWORD, email: `${name}@example.com`, role: 'org_user', userLicenseTypeId: 'creatorUT' });
  await signInAs(svc, 'gm.owner');
  ownGroup = (await createGroup({ title: 'Owner crew', access: 'org' })).group.id;
}, 60_000);
afterAll(() => svc?.close());

describe('add to groups as the owner of a group', () => {
  it('offers only the groups the member owns or manages, and adds the selection to them', async () => {
    await signInAs(svc, 'gm.owner');
    const { user, unmount } = renderApp('/members?q=gm.');
    await user.click(await screen.findByRole('checkbox', { name: 'Select gm.aaa' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select gm.bbb' }));
    await user.click(screen.getByRole('button', { name: 'Act on selection' }));
    const item = await screen.findByRole('menuitem', { name: /^Add to groups/ });
    await waitFor(() => expect(item).not.toHaveAttribute('data-disabled'));
    await user.click(item);
    const dialog = await screen.findByRole('dialog', { name: 'Add to groups: 2 members' });
    await user.click(within(dialog).getByLabelText('Groups to join', { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'Owner crew' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Admin only crew' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Owner crew' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add to groups 2 members' }));
    await within(dialog).findByRole('table', { name: 'Add to groups results' });
    expect(within(dialog).getByTestId('bulk-counts')).toHaveTextContent('2 changed0 not changed');
    expect([...(await getGroupUsers(ownGroup)).users].sort()).toEqual(['gm.aaa', 'gm.bbb']);
    unmount();
  });
});
