/**
 * The Activity page says what changed by name, against the real local portal: a new-member
 * defaults change lists only the fields that changed, a set reads apart from a clear, and roles,
 * user types, groups and related items appear by their names, never by their ids.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addItem,
  addRelationship,
  createGroup,
  createRole,
  deleteUserDefaultSettings,
  request,
  setContentStatus,
  setRolePrivileges,
  setUserDefaultSettings,
} from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
let roleId: string;
let groupId: string;
let itemIds: string[];

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  await deleteUserDefaultSettings(svc.orgId);
  roleId = (await createRole(svc.orgId, { name: 'Field starters' })).id;
  await setRolePrivileges(svc.orgId, roleId, ['portal:user:viewOrgUsers']);
  groupId = (await createGroup({ title: 'Starter crew', access: 'org' })).group.id;
  // Set three defaults, then clear the groups alone, then clear everything.
  await setUserDefaultSettings(svc.orgId, { role: roleId, userLicenseType: 'creatorUT', groups: [groupId] });
  await setUserDefaultSettings(svc.orgId, { groups: [] });
  await deleteUserDefaultSettings(svc.orgId);
  itemIds = [];
  itemIds.push((await addItem('admin', '/', { title: 'Names origin map', type: 'Web Map', text: '{}' })).id);
  itemIds.push((await addItem('admin', '/', { title: 'Names destination app', type: 'Web Mapping Application', url: 'https://example.com/app' })).id);
  await addRelationship('admin', { originItemId: itemIds[0], destinationItemId: itemIds[1], relationshipType: 'Map2AppConfig' });
  // Verifying a public organization turns its authoritative items public-authoritative: one event per item, recorded without the title.
  itemIds.push((await addItem('admin', '/', { title: 'Names verified layer', type: 'Web Map', text: '{}' })).id);
  await setContentStatus(itemIds[2], 'org_authoritative');
  await request(`portals/${svc.orgId}/update`, { isVerified: true, access: 'public' }, { method: 'POST' });
}, 60_000);
afterAll(() => svc?.close());

describe('Activity: what changed, by name', () => {
  it('lists only the defaults that changed, by name, with set and clear told apart', async () => {
    renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    const set = await within(table).findByText(
      "admin changed the new-member defaults: set the role to 'Field starters'; added the group 'Starter crew'; set the user type to 'Creator'",
      undefined,
      { timeout: 10_000 },
    );
    expect(within(table).getByText("admin changed the new-member defaults: removed the group 'Starter crew'")).toBeInTheDocument();
    expect(
      within(table).getByText("admin changed the new-member defaults: cleared the role (was 'Field starters'); cleared the user type (was 'Creator')"),
    ).toBeInTheDocument();
    // No sentence names a field that kept its value, and none shows an id.
    expect(within(table).queryByText(/changed apps|and \d+ more|userType|appBundles/)).toBeNull();
    const text = table.textContent ?? '';
    for (const raw of [roleId, groupId, 'creatorUT', 'org_user']) expect(text).not.toContain(raw);

    // The details of the first change: one row per changed field, values by name.
    const cell = set.closest('td')!;
    const details = within(cell).getByRole('table');
    const rows = within(details)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['role', '—', 'Field starters'],
      ['groups', '—', 'Starter crew'],
      ['user type', '—', 'Creator'],
    ]);
  }, 30_000);

  it('names the related item by its title', async () => {
    await signInAs(svc, 'admin');
    renderApp('/activity');
    const table = await screen.findByRole('table', { name: 'Organization activity' });
    await waitFor(() => expect(within(table).getByText(/^admin related 'Names origin map' to 'Names destination app' \(/)).toBeInTheDocument());
    expect(table.textContent).not.toContain(itemIds[1]);
    // An item event recorded without a title names the item by the title read for its id.
    await waitFor(() => expect(within(table).getByText("admin marked 'Names verified layer' as authoritative (public)")).toBeInTheDocument());
    expect(table.textContent).not.toContain(itemIds[2]);
  }, 30_000);
});
