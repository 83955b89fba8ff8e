/**
 * The Copy to… dialog against the real local portal: a refused sign-in to the target is said in the
 * dialog; then the partner organization's admin is the target, the plan lists the map and the CSV
 * it uses, the copy runs and undo deletes what it created.
 */
import { screen, within } from '@testing-library/react';
import { request } from '../../api/index.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../api/index.ts';
import { renderWithProviders, signInAs } from '../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../test/service.ts';
import { applyPlan, undoCopy } from './apply.ts';
import { ApplyView } from './ApplyView.tsx';
import { connectAs } from './copy.test-support.ts';
import { CopyDialog } from './CopyDialog.tsx';
import { GroupsPlan } from './GroupsPlan.tsx';
import { planCopy } from './plan.ts';
import { PlanView } from './PlanView.tsx';
import { addItem, getItem, type PortalConnection } from './portal.ts';
import { shareIn, sourceGroupTag } from './sharing.ts';

let svc: ClientTestService;
let map: Item;
let csvTitle: string;

beforeAll(async () => {
  svc = await startClientService();
  const admin: PortalConnection = { portalUrl: svc.restUrl, token: (await svc.tokenFor('admin')).token, username: 'admin', orgId: svc.orgId, label: 'admin' };
  csvTitle = `Depots ${Date.now().toString(36)}`;
  const csv = await addItem(admin, { title: csvTitle, type: 'CSV', file: { bytes: new TextEncoder().encode('a,b\n1,2\n'), filename: 'depots.csv' } });
  const text = JSON.stringify({
    operationalLayers: [{ id: 'd', layerType: 'CSV', itemId: csv, url: `${svc.restUrl}/content/items/${csv}/data` }],
    version: '2.31',
  });
  map = await getItem(admin, await addItem(admin, { title: `Depots map`, type: 'Web Map', text }));
});
afterAll(() => svc?.close());

describe('Copy to… dialog', () => {
  it('says a refused sign-in, then plans, copies and undoes the copy to the partner organization', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderWithProviders(<CopyDialog items={[map]} opened onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Copy 1 item to…' });
    expect(await within(dialog).findByRole('checkbox', { name: `${csvTitle} (CSV)` })).toBeChecked();

    await user.type(within(dialog).getByRole('textbox', { name: 'Username' }), 'partner_admin');
    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), 'wrong password');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in for this copy' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Sign-in refused');
    expect(within(dialog).getByRole('button', { name: 'Review the plan' })).toBeDisabled();

    await user.clear(within(dialog).getByLabelText(/^Password/, { selector: 'input' }));
    await user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input' }), `${DEMO_PASSWORD}{Enter}`);
    expect(await within(dialog).findByRole('radio', { name: /partner_admin/ })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Review the plan' }));

    expect(await within(dialog).findByText(/2 items to .*: 2 to create, 0 to update\./)).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'Ids rewritten in Depots map' })).toHaveTextContent('→ the new copy');
    await user.click(within(dialog).getByRole('button', { name: 'Copy 2 items' }));
    expect(await within(dialog).findByText('Copied 2 items: 2 created, 0 updated.')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('link', { name: /Open the new item/ })).toHaveLength(2);

    await user.click(within(dialog).getByRole('button', { name: 'Undo: delete the 2 created items' }));
    expect(await within(dialog).findByText('Undone: 2 items this copy created deleted from the target.')).toBeInTheDocument();
  });

  it('shows a group the target member is not in as not shared, with the reason, in the plan and in the results', async () => {
    const partner = await connectAs(svc, 'partner_admin', svc.partnerOrgId);
    const publisher = await connectAs(svc, 'publisher1', svc.orgId);
    const admin = await connectAs(svc, 'admin', svc.orgId);
    const post = (c: PortalConnection, path: string, params: Record<string, string>) =>
      request<{ group: { id: string } }>(path, params, { portalUrl: c.portalUrl, token: c.token, method: 'POST' });
    const crew = (await post(partner, 'community/createGroup', { title: 'Depot crew', access: 'org' })).group.id;
    await post(admin, 'community/createGroup', { title: 'Depot crew (copy)', access: 'org', tags: sourceGroupTag(crew) });
    const id = await addItem(partner, { title: 'Depot list', type: 'Feature Collection', text: JSON.stringify({ layers: [] }) });
    await shareIn(partner, 'partner_admin', id, { everyone: false, org: true, groups: [crew] });
    const reason = 'You are not a member of group Depot crew (copy) in the target — the copies will not be shared to it.';

    const plan = await planCopy(partner, publisher, [await getItem(partner, id)]);
    const shown = renderWithProviders(<GroupsPlan groups={plan.groups} skipped={new Set()} onToggle={() => {}} />);
    const groups = await screen.findByRole('list', { name: 'Groups in the target' });
    expect(groups).toHaveTextContent(`Depot crew: ${reason}`);
    expect(within(groups).getByText('Not shared')).toBeInTheDocument();
    expect(within(groups).queryByRole('checkbox')).toBeNull();
    shown.unmount();
    // Nor does the item's own line name it among the groups it is shared with.
    const planned = renderWithProviders(
      <PlanView plan={plan} targetLabel="Demo Organization (publisher1)" skippedGroups={new Set()} onToggleGroup={() => {}} />,
    );
    expect(await screen.findByTestId('copy-plan-group')).toHaveTextContent(reason);
    expect(screen.getByText(/^Shared with/)).not.toHaveTextContent('Depot crew');
    planned.unmount();

    const result = await applyPlan(plan, partner, publisher);
    renderWithProviders(<ApplyView plan={plan} states={new Map()} result={result} hrefOf={(t) => `#${t}`} targetUser="publisher1" />);
    expect(await screen.findByText('Copied 1 item: 1 created, 0 updated.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Groups not shared to' })).toHaveTextContent(reason);
    expect(await undoCopy(result, publisher)).toEqual([]);
  });
});
