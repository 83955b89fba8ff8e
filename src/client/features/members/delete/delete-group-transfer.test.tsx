/**
 * Deleting a member who owns groups, against the real service: each group gets its own new owner in
 * the delete dialog and is given with Reassign Group; a group refused (a Viewer cannot own groups)
 * says why on its own row while the other goes; once nothing is owned the delete goes through.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createUser, getGroup, getUser } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
const LEAVER = 'leaving.groups';
const ids: Record<string, string> = {};

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  await createUser({ username: LEAVER, password: DEMO_PASSWORD, email: 'leaving.groups@example.com', firstname: 'Gil', lastname: 'Going', role: 'org_user' });
  await signInAs(svc, LEAVER);
  ids.crews = (await createGroup({ title: 'Field crews', access: 'org' })).group.id;
  ids.survey = (await createGroup({ title: 'Survey team', access: 'private' })).group.id;
}, 90_000);
afterAll(() => svc?.close());

describe('delete a member: give their groups away, then delete', () => {
  it('gives each group to its own new owner, says why one is refused, and deletes once nothing is owned', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/members/${LEAVER}`);
    await user.click(await screen.findByRole('button', { name: /^Delete/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Delete/ });
    const plan = await within(dialog).findByTestId('group-transfer-plan');
    const choose = async (field: string, who: RegExp) => {
      await user.click(within(plan).getByRole('combobox', { name: field }));
      await user.click(await screen.findByRole('option', { name: who }));
    };
    await within(plan).findByRole('combobox', { name: 'New owner of the group “Survey team”' });
    expect(within(plan).getByRole('button', { name: 'Give 0 groups away' })).toBeDisabled();
    await waitFor(() => expect(within(dialog).getByTestId('owned-groups-count')).toHaveTextContent('2'));

    await choose('New owner of the group “Field crews”', /publisher1/);
    await choose('New owner of the group “Survey team”', /viewer1/);
    await user.click(within(plan).getByRole('button', { name: 'Give 2 groups away' }));
    const crews = within(plan).getByRole('region', { name: 'Group Field crews' });
    expect(await within(crews).findByRole('status')).toHaveTextContent('Given to publisher1.');
    const survey = within(plan).getByRole('region', { name: 'Group Survey team' });
    expect(within(survey).getByRole('alert')).toHaveTextContent(/Not given to viewer1: .*portal:user:createGroup/);
    expect((await getGroup(ids.crews)).owner).toBe('publisher1');
    expect((await getGroup(ids.survey)).owner).toBe(LEAVER);
    await waitFor(() => expect(within(dialog).getByTestId('owned-groups-count')).toHaveTextContent('1'));

    await choose('New owner of the group “Survey team”', /publisher1/);
    await user.click(within(plan).getByRole('button', { name: 'Give 1 group away' }));
    expect(await within(survey).findByRole('status')).toHaveTextContent('Given to publisher1.');
    await waitFor(() => expect(within(dialog).getByTestId('owned-groups-count')).toHaveTextContent('0'));

    await user.click(within(dialog).getByRole('button', { name: /^Delete 1 member/ }));
    await waitFor(() => expect(getUser(LEAVER)).rejects.toMatchObject({ code: 400 }), { timeout: 15_000 });
    expect((await getGroup(ids.survey)).owner).toBe('publisher1');
  }, 90_000);
});
