import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGroupUsers, createGroup, getItem, request, shareItem } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { recordRequests } from '../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { fixFor, precheck, runTransfer } from '../../lib/transfer.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const addItemAs = async (title: string) => (await request<{ id: string }>('content/users/user1/addItem', { title, type: 'Web Map' }, { method: 'POST' })).id;

describe('transfer in batches of 100', () => {
  it('250 items: the pre-check and the run each go in batches of at most 100; blocked items are named with their reason', async () => {
    await signInAs(svc, 'admin');
    const group = (await createGroup({ title: 'Batch crews', access: 'org' })).group.id;
    await addGroupUsers(group, { users: ['user1'] });
    await signInAs(svc, 'user1');
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) ids.push(await addItemAs(`Batch item ${i}`));
    const blockedIds = [ids[10], ids[150], ids[249]];
    for (const id of blockedIds) await shareItem('user1', id, { groups: [group] });

    await signInAs(svc, 'admin');
    const wire = recordRequests();
    const progress: number[] = [];
    const checked = await precheck('user1', ids, 'publisher1', (n) => progress.push(n));
    const checks = wire.sent.filter((r) => r.path === 'content/users/user1/canReassignItems');
    expect(checks.map((r) => r.params.get('items')!.split(',').length)).toEqual([100, 100, 50]);
    expect(progress).toEqual([100, 200, 250]);
    const blocked = checked.filter((o) => o.status === 'blocked');
    expect(blocked.map((o) => o.itemId)).toEqual(blockedIds);
    const first = blocked[0].status === 'blocked' ? blocked[0].blocked : null;
    expect(first?.reasons).toEqual([expect.objectContaining({ code: 'targetNotInGroup', groupId: group, groupTitle: 'Batch crews' })]);
    expect(fixFor(first!.reasons[0], 'publisher1')).toEqual({
      text: 'Add publisher1 to the group “Batch crews”, or unshare the item from it.',
      href: `/groups/${group}`,
    });

    const ok = checked.filter((o) => o.status === 'ok').map((o) => o.itemId);
    const moved = await runTransfer('user1', ok, 'publisher1', 'Batch', () => {});
    const runs = wire.sent.filter((r) => r.path === 'content/users/user1/reassignItems');
    expect(runs.map((r) => r.params.get('items')!.split(',').length)).toEqual([100, 100, 47]);
    expect(moved.every((o) => o.ok)).toBe(true);
    expect((await getItem(ok[0])).owner).toBe('publisher1');

    // Running the blocked ones anyway: each fails with its reason, nothing moves.
    const refused = await runTransfer('user1', blockedIds, 'publisher1', '/', () => {});
    expect(refused.map((o) => [o.ok, o.message])).toEqual(
      blockedIds.map(() => [false, "publisher1 is not a member of the group 'Batch crews' the item is shared to."]),
    );
    expect((await getItem(blockedIds[0])).owner).toBe('user1');
    wire.stop();
  }, 60_000);
});

describe('transfer wizard', () => {
  it('opens with the given selection, checks it, names the blocked item with its fix and transfers the rest', async () => {
    await signInAs(svc, 'user1');
    const okId = await addItemAs('Wizard parks');
    const sharedId = await addItemAs('Wizard shared');
    await signInAs(svc, 'admin');
    const group = (await createGroup({ title: 'Wizard crews', access: 'org' })).group.id;
    await addGroupUsers(group, { users: ['user1'] });
    await signInAs(svc, 'user1');
    await shareItem('user1', sharedId, { groups: [group] });
    await signInAs(svc, 'admin');

    const { user } = renderApp(`/members/transfer?from=user1&items=${okId},${sharedId}`);
    expect(await screen.findByTestId('transfer-selection')).toHaveTextContent(/^2 of/);
    await user.click(screen.getByRole('button', { name: 'Next: new owner' }));
    await user.click(screen.getByRole('combobox', { name: 'New owner' }));
    await user.click(await screen.findByRole('option', { name: /publisher1/ }));
    await user.click(screen.getByRole('button', { name: 'Check 2 items' }));

    const table = await screen.findByRole('table', { name: 'Pre-check results' });
    const row = within(table).getByText('Wizard shared').closest('tr')!;
    expect(row).toHaveTextContent("publisher1 is not a member of the group 'Wizard crews' the item is shared to.");
    expect(within(row).getByRole('link', { name: 'Open' })).toHaveAttribute('href', `/groups/${group}`);
    expect(within(table).getByText('Wizard parks').closest('tr')).toHaveTextContent('OK');

    await user.click(screen.getByRole('button', { name: 'Transfer 1 item' }));
    const results = await screen.findByRole('table', { name: 'Transfer results' });
    expect(within(results).getByText('Wizard parks').closest('tr')).toHaveTextContent('Transferred');
    expect(screen.getByTestId('tasks-deactivated')).toHaveTextContent('Scheduled tasks paused: 0');
    expect(screen.queryByRole('button', { name: /Retry failed/ })).toBeNull();
    await waitFor(async () => expect((await getItem(okId)).owner).toBe('publisher1'));
  }, 30_000);

  it('lists the chosen items first, finds items by a search and shows the selection alone; a reason shared by items is said once with their count', async () => {
    await signInAs(svc, 'user1');
    const ids: Record<string, string> = {};
    for (const t of ['Scatter 1 chosen', 'Scatter 2 other', 'Scatter 3 chosen', 'Scatter 4 other', 'Scatter 5 chosen']) ids[t] = await addItemAs(t);
    const chosen = ['Scatter 1 chosen', 'Scatter 3 chosen', 'Scatter 5 chosen'];
    await signInAs(svc, 'admin');
    const group = (await createGroup({ title: 'Scatter crews', access: 'org' })).group.id;
    await addGroupUsers(group, { users: ['user1'] });
    await signInAs(svc, 'user1');
    for (const t of chosen) await shareItem('user1', ids[t], { groups: [group] });
    await signInAs(svc, 'admin');

    const { user } = renderApp(`/members/transfer?from=user1&items=${chosen.map((t) => ids[t]).join(',')}`);
    const list = await screen.findByRole('table', { name: 'Items of user1' });
    const titles = () =>
      within(list)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).queryByRole('link')?.textContent);
    // The chosen ones together at the top, not scattered through the alphabetical list.
    expect(titles().slice(0, 3)).toEqual(chosen);
    expect(titles()).toContain('Scatter 2 other');

    await user.type(screen.getByRole('searchbox', { name: 'Search the items of user1' }), 'scatter 4');
    await waitFor(() => expect(titles()).toEqual(['Scatter 4 other']));
    await user.clear(screen.getByRole('searchbox', { name: 'Search the items of user1' }));
    await user.click(screen.getByRole('switch', { name: 'Show selected only' }));
    expect(titles()).toEqual(chosen);
    expect(screen.getByTestId('transfer-selection')).toHaveTextContent(/^3 of/);
    await user.click(screen.getByRole('switch', { name: 'Show selected only' }));
    expect(titles()).toContain('Scatter 2 other');

    await user.click(screen.getByRole('button', { name: 'Next: new owner' }));
    await user.click(screen.getByRole('combobox', { name: 'New owner' }));
    await user.click(await screen.findByRole('option', { name: /publisher1/ }));
    await user.click(screen.getByRole('button', { name: 'Check 3 items' }));
    const reason = "publisher1 is not a member of the group 'Scatter crews' the item is shared to.";
    const shared = await screen.findByRole('list', { name: 'Reasons shared by several items' });
    expect(within(shared).getByText(`3 items: ${reason}`)).toBeInTheDocument();
    expect(within(shared).getByText(chosen.join(', '))).toBeInTheDocument();
    expect(within(shared).getByRole('link', { name: 'Open' })).toHaveAttribute('href', `/groups/${group}`);
    // Said once, not once per item.
    expect(screen.getAllByText((_, el) => !!el?.textContent?.endsWith(reason) && el.children.length === 0)).toHaveLength(1);
    const table = screen.getByRole('table', { name: 'Pre-check results' });
    expect(within(table).getByText('Scatter 3 chosen').closest('tr')).toHaveTextContent('Blocked');
  }, 60_000);

  it('New owner: a chosen member is cleared or replaced by typing, the text never mixes, and each settled search is one request', async () => {
    await signInAs(svc, 'user1');
    await addItemAs('Picker parks');
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members/transfer?from=user1');
    await screen.findByTestId('transfer-selection');
    await user.click(screen.getByRole('button', { name: 'Next: new owner' }));
    const wire = recordRequests();
    const searches = () => wire.sent.filter((r) => /^portals\/[^/]+\/users$/.test(r.path)).map((r) => r.params.get('q') ?? '');
    const owner = screen.getByRole('combobox', { name: 'New owner' });
    const check = () => screen.getByRole('button', { name: /^Check \d+ items?$/ });

    await user.click(owner);
    // The member whose content it is is not offered.
    expect(await screen.findByRole('option', { name: /publisher1/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /user1/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: /publisher1/ }));
    expect(owner).toHaveValue('Pat Publisher (publisher1)');
    expect(check()).toBeEnabled();

    // Typing after the chosen name replaces the choice with what was typed (not "…(publisher1)vi").
    await user.type(owner, 'vi');
    expect(owner).toHaveValue('vi');
    expect(check()).toBeDisabled();
    // The list follows the search once it settles.
    await waitFor(() => expect(screen.queryByRole('option', { name: /publisher1/ })).toBeNull());
    await user.click(screen.getByRole('option', { name: /viewer1/ }));
    expect(owner).toHaveValue('Vic Viewer (viewer1)');
    expect(screen.getByText('viewer1', { selector: '.mantine-Stepper-stepDescription' })).toBeInTheDocument();

    // Cleared with the button: empty, nothing chosen, the whole list offered again (not only the last choice).
    await user.click(screen.getByRole('button', { name: 'Clear new owner' }));
    expect(owner).toHaveValue('');
    expect(check()).toBeDisabled();
    expect(await screen.findByRole('option', { name: /publisher1/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /viewer1/ })).toBeInTheDocument();

    // Deleting from a chosen name empties the box instead of searching for the rest of the name.
    await user.type(owner, 'pub');
    await waitFor(() => expect(screen.queryByRole('option', { name: /viewer1/ })).toBeNull());
    await user.click(screen.getByRole('option', { name: /publisher1/ }));
    await user.type(owner, '{Backspace}');
    expect(owner).toHaveValue('');
    await user.type(owner, 'pub');
    await waitFor(() => expect(screen.queryByRole('option', { name: /viewer1/ })).toBeNull());
    await user.click(screen.getByRole('option', { name: /publisher1/ }));
    expect(owner).toHaveValue('Pat Publisher (publisher1)');

    // Nothing more goes out once the field is left alone: the list of searches is final.
    await new Promise((r) => setTimeout(r, 1000));
    // One request per settled text ('' when opened, then "vi" and "pub"); asked texts come from the cache.
    expect(searches()).toEqual(['', 'vi', 'pub']);
    wire.stop();

    await user.click(check());
    expect(await screen.findByRole('heading', { level: 2, name: 'Pre-check' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Pre-check results' })).toHaveTextContent('Picker parks');
  }, 30_000);

  it('a member who may not transfer sees why', async () => {
    await signInAs(svc, 'user1');
    renderApp('/members/transfer?from=publisher1');
    expect(await screen.findByRole('alert')).toHaveTextContent('portal:admin:reassignItems');
  });
});
