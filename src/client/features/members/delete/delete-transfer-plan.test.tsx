/**
 * Deleting a member after giving away what they own, per folder or item, against the real service:
 * one new owner for everything, one item to another member, the transfer wizard's pre-check over
 * that plan (the item a Viewer cannot receive is blocked with its reason), the transfer of what
 * passed (folder kept by name), then a second plan for the rest and the delete the portal now allows.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, createFolder, createUser, getItem, getUser, getUserContent } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
const LEAVER = 'leaving.pub';
const ids: Record<string, string> = {};

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  await createUser({ username: LEAVER, password: DEMO_PASSWORD, email: 'leaving@example.com', firstname: 'Lee', lastname: 'Leaving', role: 'org_publisher' });
  await signInAs(svc, LEAVER);
  const folder = (await createFolder(LEAVER, 'Field work')).folder;
  ids.layer = (
    await addItem(LEAVER, folder.id, { title: 'Parks layer', type: 'Feature Service', url: 'http://127.0.0.1:9/arcgis/rest/services/P/FeatureServer' })
  ).id;
  ids.map = (await addItem(LEAVER, undefined, { title: 'Parks map', type: 'Web Map', text: '{}' })).id;
  ids.notes = (await addItem(LEAVER, undefined, { title: 'Crew notes', type: 'Web Map', text: '{}' })).id;
}, 90_000);
afterAll(() => svc?.close());

describe('delete a member: transfer per folder or item, then delete', () => {
  it('checks the plan, transfers what passed, names what is blocked, and deletes once nothing is owned', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/members/${LEAVER}`);
    await user.click(await screen.findByRole('button', { name: /^Delete/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Delete/ });
    const plan = await within(dialog).findByTestId('transfer-plan');
    const choose = async (field: string, who: RegExp) => {
      await user.click(within(plan).getByRole('combobox', { name: field }));
      await user.click(await screen.findByRole('option', { name: who }));
    };
    await within(plan).findByRole('combobox', { name: 'New owner of “Crew notes”' });
    expect(within(plan).getByTestId('plan-unassigned')).toHaveTextContent('3 items without a new owner');
    expect(within(plan).getByRole('button', { name: /Check the plan/ })).toBeDisabled();

    await choose('New owner of everything', /publisher1/);
    await choose('New owner of “Crew notes”', /viewer1/);
    expect(within(plan).getByRole('region', { name: 'Folder Field work' })).toHaveTextContent('goes to publisher1, as everything');
    await user.click(within(plan).getByRole('button', { name: 'Check the plan (3 items)' }));
    const viewerCheck = await within(plan).findByRole('region', { name: 'Pre-check for viewer1' });
    expect(within(viewerCheck).getByText('Blocked')).toBeInTheDocument();
    expect(
      within(viewerCheck)
        .getByText(/Crew notes/)
        .closest('tr'),
    ).toHaveAttribute('data-status', 'blocked');
    const publisherCheck = within(plan).getByRole('region', { name: 'Pre-check for publisher1' });
    expect(within(publisherCheck).getByText('2 transferable')).toBeInTheDocument();

    await user.click(within(plan).getByRole('button', { name: 'Transfer 2 items' }));
    const results = await within(plan).findByRole('table', { name: 'Transfer results' });
    expect(within(results).getByText('Parks layer').closest('tr')).toHaveTextContent('to publisher1');
    const layer = await getItem(ids.layer);
    expect(layer.owner).toBe('publisher1');
    const publisherFolders = (await getUserContent('publisher1')).folders;
    expect(publisherFolders.find((f) => f.id === layer.ownerFolder)?.title).toBe('Field work');
    expect((await getItem(ids.notes)).owner).toBe(LEAVER);
    expect(
      await within(plan).findByText(`1 item still belongs to ${LEAVER}: choose a new owner for it and check again.`, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();

    // Still owning an item, the delete is refused; the second plan sends it to publisher1.
    await waitFor(() => expect(within(dialog).getByTestId('owned-items-count')).toHaveTextContent('1'));
    await choose('New owner of “Crew notes”', /publisher1/);
    await user.click(within(plan).getByRole('button', { name: 'Check the plan (1 item)' }));
    await user.click(await within(plan).findByRole('button', { name: 'Transfer 1 item' }));
    expect(
      await within(plan).findByText(`${LEAVER} owns no items any more: the delete can go ahead once nothing else blocks it.`, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByTestId('owned-items-count')).toHaveTextContent('0'));

    await user.click(within(dialog).getByRole('button', { name: /^Delete 1 member/ }));
    await waitFor(() => expect(getUser(LEAVER)).rejects.toMatchObject({ code: 400 }), { timeout: 15_000 });
  }, 90_000);
});
