import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, createGroup, getGroup, shareItem } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { recordRequests } from '../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const titles = (table: HTMLElement) =>
  within(table)
    .queryAllByRole('link')
    .map((a) => a.textContent);

describe('groups page', () => {
  it('creates a group from the form, opens it, and finds it in the list', async () => {
    await signInAs(svc, 'publisher1');
    const { user, location } = renderApp('/groups');
    expect(await screen.findByText('No groups yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create group' });
    // The form checks what it can first.
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(await within(dialog).findByText('Enter a title')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Field crews');
    await user.type(within(dialog).getByRole('textbox', { name: /^Summary/ }), 'Everyone who works outdoors');
    await user.type(within(dialog).getByRole('textbox', { name: /^Description/ }), 'Maps and layers for the field.');
    const tags = within(dialog).getByLabelText(/^Tags/, { selector: 'input' });
    await user.type(tags, 'field,crews,');
    // The one tags field (components/TagField.tsx): "outdoor," arriving without a comma key (a phone
    // keyboard) and added by Enter keeps no comma.
    fireEvent.change(tags, { target: { value: 'outdoor, ' } });
    fireEvent.keyDown(tags, { key: 'Enter' });
    expect(within(dialog).getByText('outdoor')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /^Organization/ }));
    await user.click(within(dialog).getByRole('checkbox', { name: /^Invitation only/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));

    expect(await screen.findByRole('heading', { name: 'Field crews', level: 1 })).toBeInTheDocument();
    const id = location().split('/')[2];
    expect(await getGroup(id)).toMatchObject({
      title: 'Field crews',
      snippet: 'Everyone who works outdoors',
      description: 'Maps and layers for the field.',
      tags: ['field', 'crews', 'outdoor'],
      access: 'org',
      isInvitationOnly: true,
      owner: 'publisher1',
    });
    const members = await screen.findByRole('table', { name: 'Group members' });
    expect(await within(members).findByText('publisher1')).toBeInTheDocument();
    expect(within(members).getByText('publisher1').closest('tr')).toHaveTextContent('Owner');
    // The owner cannot be ticked for removal.
    expect(within(members).getByRole('checkbox', { name: 'Select publisher1' })).toBeDisabled();

    await user.click(within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', { name: 'Groups' }));
    const table = await screen.findByRole('table', { name: 'Groups' });
    await waitFor(() => expect(titles(table)).toEqual(['Field crews']));
    const row = within(table).getByRole('link', { name: 'Field crews' }).closest('tr')!;
    expect(row).toHaveTextContent('Organization');
    expect(row).toHaveTextContent('Owner');
  });

  it('searches, sorts and pages through the service, and narrows to the groups one owns', async () => {
    await signInAs(svc, 'admin');
    for (const title of ['Alpha surveyors', 'Beta testers', 'Gamma rays']) await createGroup({ title, access: 'org', tags: ['listtest'] });
    await signInAs(svc, 'publisher1');
    await createGroup({ title: 'Delta crew', access: 'org', tags: ['listtest'] });
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/groups?num=2&q=listtest');
    const table = await screen.findByRole('table', { name: 'Groups' });
    // admin sees its own three and publisher1's org group.
    await waitFor(() => expect(titles(table)).toEqual(['Alpha surveyors', 'Beta testers']));
    expect(screen.getByText('Showing 1–2 of 4 groups')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(titles(table)).toEqual(['Delta crew', 'Gamma rays']));

    await user.click(within(table).getByRole('button', { name: /^Group: sort descending/ }));
    await waitFor(() => expect(titles(table)).toEqual(['Gamma rays', 'Delta crew']));
    expect(location()).toContain('sortOrder=desc');

    await user.click(screen.getByRole('radio', { name: 'Owned by me' }));
    await waitFor(() => expect(screen.getByText('Showing 1–2 of 3 groups')).toBeInTheDocument());

    await user.clear(screen.getByRole('searchbox', { name: 'Search groups' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'survey{Enter}');
    await waitFor(() => expect(titles(table)).toEqual(['Alpha surveyors']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search groups' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search groups' }), 'nothing-like-this{Enter}');
    expect(await screen.findByText('No groups match')).toBeInTheDocument();
  });

  it('edits a group, sending only what changed; a title the owner already uses is refused beside the field', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Editable group', snippet: 'before', access: 'private' });
    await createGroup({ title: 'Taken title' });
    const { user } = renderApp(`/groups/${group.id}`);
    await user.click(await screen.findByRole('button', { name: 'Edit group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Editable group' });
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'Taken title');
    await user.click(within(dialog).getByRole('button', { name: 'Save group' }));
    await waitFor(() => expect(title).toHaveAccessibleDescription(expect.stringContaining('you already own a group with this title')));

    await user.clear(title);
    await user.type(title, 'Edited group');
    const summary = within(dialog).getByRole('textbox', { name: /^Summary/ });
    await user.clear(summary);
    await user.type(summary, 'after');
    const requests = recordRequests();
    await user.click(within(dialog).getByRole('button', { name: 'Save group' }));
    expect(await screen.findByRole('heading', { name: 'Edited group', level: 1 })).toBeInTheDocument();
    requests.stop();
    const sent = requests.sent.find((r) => r.path === `community/groups/${group.id}/update`)!;
    expect([...sent.params.keys()].sort()).toEqual(['f', 'snippet', 'title', 'token']);
    expect(await getGroup(group.id)).toMatchObject({ title: 'Edited group', snippet: 'after', access: 'private' });
  });

  it('disables what the member may not do, naming why', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Seen by others', access: 'org' });
    await signInAs(svc, 'user1');
    renderApp(`/groups/${group.id}`);
    const add = await screen.findByRole('button', { name: 'Add users' });
    expect(add).toHaveAttribute('aria-disabled', 'true');
    expect(add).toHaveAccessibleDescription(expect.stringContaining('portal:admin:assignToGroups'));
    expect(screen.getByRole('button', { name: 'Delete group' })).toHaveAccessibleDescription(expect.stringContaining('portal:admin:deleteGroups'));
    expect(screen.getByRole('switch', { name: /^Protected from deletion/ })).toBeDisabled();

    await signInAs(svc, 'viewer1');
    renderApp('/groups');
    const create = await screen.findByRole('button', { name: 'Create group' });
    expect(create).toHaveAttribute('aria-disabled', 'true');
    expect(create).toHaveAccessibleDescription(expect.stringContaining('portal:user:createGroup'));
  });

  it('protects a group (delete is then disabled with the reason), unprotects and deletes it', async () => {
    await signInAs(svc, 'admin');
    const { group } = await createGroup({ title: 'Short-lived' });
    const { user, location } = renderApp(`/groups/${group.id}`);
    await user.click(await screen.findByRole('switch', { name: /^Protected from deletion/ }));
    await waitFor(async () => expect((await getGroup(group.id)).protected).toBe(true));
    // The button is drawn anew once disabled: look it up again.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete group' })).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.getByRole('button', { name: 'Delete group' })).toHaveAccessibleDescription('The group is protected from deletion: unprotect it first.');

    await waitFor(() => expect(screen.getByRole('switch', { name: /^Protected from deletion/ })).toBeEnabled());
    await user.click(screen.getByRole('switch', { name: /^Protected from deletion/ }));
    await waitFor(async () => expect((await getGroup(group.id)).protected).toBe(false));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Delete group' })).not.toHaveAttribute('aria-disabled'));
    await user.click(screen.getByRole('button', { name: 'Delete group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Short-lived?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete group' }));
    await waitFor(() => expect(location()).toBe('/groups'));
    expect(await screen.findByText('Group deleted')).toBeInTheDocument();
  });

  it("sets who can be in the group, shows it on the group's page, and sends anyone as an empty value", async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/groups');
    await user.click(await screen.findByRole('button', { name: 'Create group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create group' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Home team');
    const who = within(dialog).getByRole('radiogroup', { name: 'Who can be in the group' });
    expect(within(who).getByRole('radio', { name: /^Anyone/ })).toBeChecked();
    await user.click(within(who).getByRole('radio', { name: /^Only members of your organization/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(await screen.findByRole('heading', { name: 'Home team', level: 1 })).toBeInTheDocument();
    const id = location().split('/')[2];
    expect((await getGroup(id)).membershipAccess).toBe('org');
    expect(screen.getByText('Only members of this organization')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit group' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Home team' });
    await user.click(within(edit).getByRole('radio', { name: /^Anyone/ }));
    const requests = recordRequests();
    await user.click(within(edit).getByRole('button', { name: 'Save group' }));
    expect(await screen.findByText('Anyone, including members of other organizations')).toBeInTheDocument();
    requests.stop();
    const sent = requests.sent.find((r) => r.path === `community/groups/${id}/update`)!;
    expect(sent.params.get('membershipAccess')).toBe('');
    expect(sent.params.get('clearEmptyFields')).toBe('true');
    expect((await getGroup(id)).membershipAccess).toBe('none');
  });

  it("lists the group's content, paged, with links to the items; an empty group says so", async () => {
    await signInAs(svc, 'publisher1');
    const { group } = await createGroup({ title: 'Shared maps' });
    const { group: empty } = await createGroup({ title: 'Nothing here' });
    const ids: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const { id } = await addItem('publisher1', '/', { title: `Shared map ${String(i).padStart(2, '0')}`, type: 'Web Map', text: '{}' });
      await shareItem('publisher1', id, { groups: [group.id] });
      ids.push(id);
    }
    await addItem('publisher1', '/', { title: 'Not shared map', type: 'Web Map', text: '{}' });
    const { user } = renderApp(`/groups/${group.id}`);
    const table = await screen.findByRole('table', { name: 'Content shared with the group' });
    await waitFor(() => expect(within(table).getAllByRole('link')).toHaveLength(10));
    expect(screen.getByText('Showing 1–10 of 12 items')).toBeInTheDocument();
    // Newest change first; the title goes to the item's page.
    const first = within(table).getByRole('link', { name: 'Shared map 12' });
    expect(first).toHaveAttribute('href', `/content/items/${ids[11]}`);
    expect(first.closest('tr')).toHaveTextContent('Web Map');
    expect(first.closest('tr')).toHaveTextContent('publisher1');
    await user.click(within(table).getByRole('button', { name: /^Title: sort ascending/ }));
    await waitFor(() => expect(within(table).getAllByRole('link')[0]).toHaveTextContent('Shared map 01'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['Shared map 11', 'Shared map 12']),
    );
    expect(within(table).queryByText('Not shared map')).toBeNull();

    renderApp(`/groups/${empty.id}`);
    expect(await screen.findByText('Nothing shared with this group yet')).toBeInTheDocument();
  }, 60_000);
});
