import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGroupUsers, createGroup, createRole, createUser, getGroupUserlist, setRolePrivileges } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { recordRequests } from '../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { mergeNames, parseCsvUsernames, parseNameList } from './usernames.ts';

describe('usernames from what people paste or upload', () => {
  it('splits a pasted list on new lines, commas, semicolons, spaces and tabs', () => {
    expect(parseNameList('ann\nbob, cy;dee\te  f\r\n\n"gus"')).toEqual(['ann', 'bob', 'cy', 'dee', 'e', 'f', 'gus']);
    expect(parseNameList('  \n , ')).toEqual([]);
  });

  it('reads the first column of a CSV, with or without a header row', () => {
    expect(parseCsvUsernames('username,email\nann,a@x.org\nbob,b@x.org\n')).toEqual({ names: ['ann', 'bob'], headerSkipped: true });
    expect(parseCsvUsernames('\uFEFFUser Name;Role\r\nann;viewer\r\n')).toEqual({ names: ['ann'], headerSkipped: true });
    expect(parseCsvUsernames('ann,Ann A\nbob,"Bob, the builder"\n"cy ""q""",x\n\n')).toEqual({ names: ['ann', 'bob', 'cy "q"'], headerSkipped: false });
    expect(parseCsvUsernames('ann\tA\nbob\tB')).toEqual({ names: ['ann', 'bob'], headerSkipped: false });
    expect(parseCsvUsernames('')).toEqual({ names: [], headerSkipped: false });
  });

  it('keeps each username once, case-insensitively, in the order first given', () => {
    expect(mergeNames(['Ann', 'bob'], ['ANN', 'cy'], ['bob', 'dee'])).toEqual({ names: ['Ann', 'bob', 'cy', 'dee'], duplicates: 2 });
  });
});

describe('add users dialog', () => {
  let svc: ClientTestService;
  let noJoinRole: string;
  const PASSWORD = 'Crew.Member.2468';
  /** 55 ordinary members, and 5 whose role lacks portal:user:joinGroup. */
  const ordinary = Array.from({ length: 55 }, (_, i) => `crew${String(i + 1).padStart(2, '0')}`);
  const cannotJoin = Array.from({ length: 5 }, (_, i) => `nojoin${i + 1}`);

  beforeAll(async () => {
    svc = await startClientService();
    await signInAs(svc, 'admin');
    noJoinRole = (await createRole(svc.orgId, { name: 'No joining' })).id;
    await setRolePrivileges(svc.orgId, noJoinRole, ['portal:user:viewOrgUsers', 'portal:user:viewOrgGroups']);
    const accounts = [...ordinary.map((u) => [u, 'org_user']), ...cannotJoin.map((u) => [u, noJoinRole])];
    for (let i = 0; i < accounts.length; i += 10) {
      await Promise.all(
        accounts.slice(i, i + 10).map(([username, role]) => createUser({ username, password: PASSWORD, email: `${username}@example.com`, role })),
      );
    }
  }, 120_000);
  afterAll(() => svc?.close());

  /** The organization's member searches that looked names up (`username:(a OR b …)`), by the number of names each asked. */
  const lookups = (wire: ReturnType<typeof recordRequests>) =>
    wire.sent.filter((r) => r.path === 'portals/self/users/search').map((r) => (r.params.get('q') ?? '').replace(/^username:\(|\)$/g, '').split(' OR ').length);

  it('adds 60 users pasted and from a CSV file in batches of 25, looked up first in a few requests, says why some were not added, and retries them', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Sixty users' });
    const { user } = renderApp(`/groups/${group.id}`);
    await user.click(await screen.findByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users to Sixty users' });
    const summary = within(dialog).getByTestId('names-summary');

    // Pasted: 32 names in mixed separators, a duplicate, and two names nobody in the organization has.
    const pasted = `${ordinary.slice(0, 12).join('\n')}\n${ordinary.slice(12, 22).join(', ')} ${ordinary.slice(22, 32).join(' ')}\nCREW01\nghost_one, ghost_two`;
    const wire = recordRequests();
    await user.click(within(dialog).getByRole('textbox', { name: /^Or paste a list/ }));
    await user.paste(pasted);
    await waitFor(() => expect(summary).toHaveTextContent('34 users to add in 2 batches of at most 25, 2 not in your organization, 1 duplicate left out.'));
    // 34 names looked up in two searches, not 34.
    expect(lookups(wire)).toEqual([25, 9]);
    // CSV: a header row, the rest of the members and the five who may not join, plus a repeat.
    const csv = ['Username,Email', ...ordinary.slice(32).map((u) => `${u},${u}@example.com`), ...cannotJoin.map((u) => `"${u}",x`), 'crew40,again'].join(
      '\r\n',
    );
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([csv], 'crew.csv', { type: 'text/csv' }));
    expect(await within(dialog).findByText('29 usernames read from the first column (header row left out).')).toBeInTheDocument();
    await waitFor(() => expect(summary).toHaveTextContent('62 users to add in 3 batches of at most 25, 2 not in your organization, 2 duplicates left out.'));
    // Only the 28 new names were looked up.
    expect(lookups(wire)).toEqual([25, 9, 25, 3]);
    wire.stop();
    const who = within(dialog).getByRole('table', { name: 'Who will be added' });
    expect(within(who).getByText('ghost_one').closest('tr')).toHaveTextContent('Not in your organization');
    expect(within(who).getByText('crew33').closest('tr')).toHaveTextContent('Will be added');

    const requests = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Add 62 users' }));
    // Two names not in the organization: asked first.
    expect(await within(dialog).findByRole('heading', { name: 'Add members of other organizations?' })).toHaveFocus();
    expect(within(dialog).getByLabelText('Not in your organization')).toHaveTextContent('ghost_one, ghost_two');
    await user.click(within(dialog).getByRole('button', { name: 'Add all 62, with 2 of other organizations' }));
    const results = await within(dialog).findByRole('table', { name: 'Add users results' }, { timeout: 20_000 });
    requests.stop();

    // Three requests of 25, 25 and 12 names, members only.
    const batches = requests.sent.filter((r) => r.path.endsWith('/addUsers'));
    expect(batches.map((b) => b.params.get('users')!.split(',').length)).toEqual([25, 25, 12]);
    expect(batches.every((b) => (b.params.get('admins') ?? '') === '')).toBe(true);

    expect(within(dialog).getByRole('status')).toHaveTextContent('55 added7 not added');
    const reasonOf = (name: string) => within(results).getByText(name).closest('tr')!;
    expect(reasonOf('ghost_one')).toHaveTextContent('Not addedThe user does not exist.');
    for (const name of cannotJoin) expect(reasonOf(name)).toHaveTextContent('The user lacks the privilege to join groups (portal:user:joinGroup).');
    expect(reasonOf('crew55')).toHaveTextContent('Added');
    expect((await getGroupUserlist(group.id, { num: 1 })).total).toBe(1 + 55);

    // Give the role the privilege, then retry only the seven not added.
    await setRolePrivileges(svc.orgId, noJoinRole, ['portal:user:viewOrgUsers', 'portal:user:viewOrgGroups', 'portal:user:joinGroup']);
    const retry = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Retry the ones not added (7)' }));
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('60 added2 not added'), { timeout: 15_000 });
    retry.stop();
    const again = retry.sent.filter((r) => r.path.endsWith('/addUsers'));
    expect(again).toHaveLength(1);
    expect(again[0].params.get('users')!.split(',').sort()).toEqual([...cannotJoin, 'ghost_one', 'ghost_two'].sort());
    const after = within(dialog).getByRole('table', { name: 'Add users results' });
    expect(within(after).getByText('nojoin3').closest('tr')).toHaveTextContent('Added');
    expect(within(after).getByText('ghost_two').closest('tr')).toHaveTextContent('The user does not exist.');
    expect((await getGroupUserlist(group.id, { num: 1 })).total).toBe(1 + 60);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Showing 1–10 of 61 members')).toBeInTheDocument();
  });

  it('adds pasted names as managers, then removes members chosen in the list', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Managed' });
    const { user } = renderApp(`/groups/${group.id}`);
    await user.click(await screen.findByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users to Managed' });
    await user.click(within(dialog).getByRole('textbox', { name: /^Or paste a list/ }));
    await user.paste('crew10 crew11 crew12');
    await user.click(within(dialog).getByRole('radio', { name: 'Managers' }));
    await waitFor(() => expect(within(dialog).getByTestId('names-summary')).toHaveTextContent('3 users to add in 1 batch of at most 25.'));
    const requests = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Add 3 users' }));
    await within(dialog).findByRole('table', { name: 'Add users results' });
    requests.stop();
    const sent = requests.sent.find((r) => r.path.endsWith('/addUsers'))!;
    expect(sent.params.get('admins')).toBe('crew10,crew11,crew12');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    const table = await screen.findByRole('table', { name: 'Group members' });
    const rowOf = (name: string) => within(table).getAllByText(name)[0].closest('tr')!;
    await waitFor(() => expect(rowOf('crew11')).toHaveTextContent('Manager'));
    await user.click(within(table).getByRole('checkbox', { name: 'Select crew10' }));
    await user.click(within(table).getByRole('checkbox', { name: 'Select crew11' }));
    await user.click(screen.getByRole('button', { name: 'Remove from group' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove 2 from Managed?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await within(confirm).findByRole('status')).toHaveTextContent('2 removed.');
    await user.click(within(confirm).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(within(table).queryAllByText('crew10')).toHaveLength(0));
    const left = await getGroupUserlist(group.id);
    expect(left.users.map((u) => u.username)).toEqual(['admin', 'crew12']);
  });

  it('picks two members by their full names, shows who is already in the group, and confirms one of another organization', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Picked' });
    await addGroupUsers(group.id, { users: ['user1'] });
    const { user } = renderApp(`/groups/${group.id}`);
    await user.click(await screen.findByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users to Picked' });
    const picker = within(dialog).getByRole('combobox', { name: /^Find members/ });

    // By keyboard: type part of a full name, arrow to the member, Enter.
    await user.click(picker);
    await user.type(picker, 'Vic');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await user.keyboard('{ArrowDown}{Enter}');
    await user.clear(picker);
    await user.type(picker, 'Uma');
    const uma = await screen.findByRole('option', { name: /Uma User \(user1\)/ });
    // The list already says she is in the group.
    await waitFor(() => expect(uma).toHaveTextContent("Already the group's member: left out."));
    await user.click(uma);
    await user.keyboard('{Escape}');
    expect(within(dialog).getByRole('button', { name: 'Remove Vic Viewer (viewer1)' })).toBeInTheDocument();

    // A member of the partner organization, pasted.
    await user.click(within(dialog).getByRole('textbox', { name: /^Or paste a list/ }));
    await user.paste('partner_admin');
    const summary = within(dialog).getByTestId('names-summary');
    await waitFor(() => expect(summary).toHaveTextContent('2 users to add in 1 batch of at most 25, 1 left out, 1 not in your organization.'));
    expect(summary).toHaveAttribute('aria-live', 'polite');
    const who = within(dialog).getByRole('table', { name: 'Who will be added' });
    expect(within(who).getByText('(viewer1)').closest('tr')).toHaveTextContent('Vic Viewer (viewer1)Will be added');
    expect(within(who).getByText('(user1)').closest('tr')).toHaveTextContent("Already in the groupAlready the group's member: left out.");
    expect(within(who).getByText('partner_admin').closest('tr')).toHaveTextContent('Not in your organization');
    expect(within(dialog).getByText('1 name is not in your organization')).toBeInTheDocument();

    const requests = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Add 2 users' }));
    const heading = await within(dialog).findByRole('heading', { name: 'Add members of other organizations?' });
    expect(heading).toHaveFocus();
    // Back, and on again: nothing was sent meanwhile.
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add 2 users' }));
    expect(requests.sent.filter((r) => r.path.endsWith('/addUsers'))).toHaveLength(0);
    await user.click(await within(dialog).findByRole('button', { name: 'Add all 2, with 1 of other organizations' }));
    const results = await within(dialog).findByRole('table', { name: 'Add users results' });
    requests.stop();
    expect(requests.sent.filter((r) => r.path.endsWith('/addUsers')).map((r) => r.params.get('users'))).toEqual(['viewer1,partner_admin']);
    expect(within(results).getByText('partner_admin').closest('tr')).toHaveTextContent('Added');
    expect(within(dialog).getByText(/1 name was left out before sending/)).toBeInTheDocument();
    const members = await getGroupUserlist(group.id);
    expect(members.users.map((u) => u.username).sort()).toEqual(['admin', 'partner_admin', 'user1', 'viewer1']);
  }, 60_000);

  it('a group of members of this organization only: says so, and leaves out names it does not find', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Home only', membershipAccess: 'org' });
    const { user } = renderApp(`/groups/${group.id}`);
    await user.click(await screen.findByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users to Home only' });
    expect(within(dialog).getByText('This group accepts only members of your organization.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('textbox', { name: /^Or paste a list/ }));
    await user.paste('partner_admin crew05');
    await waitFor(() => expect(within(dialog).getByTestId('names-summary')).toHaveTextContent('1 user to add in 1 batch of at most 25, 1 left out.'));
    const who = within(dialog).getByRole('table', { name: 'Who will be added' });
    expect(within(who).getByText('partner_admin').closest('tr')).toHaveTextContent(
      'Not foundNot found in your organization, and this group accepts only members of your organization. Left out.',
    );
    // No confirmation: only crew05 is sent.
    const requests = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Add 1 user' }));
    await within(dialog).findByRole('table', { name: 'Add users results' });
    requests.stop();
    expect(requests.sent.filter((r) => r.path.endsWith('/addUsers')).map((r) => r.params.get('users'))).toEqual(['crew05']);
  }, 30_000);
});
