/**
 * The Copy to… dialog against the real local portal: a refused sign-in to the target is said in the
 * dialog; then the partner organization's admin is the target, the plan lists the map and the CSV
 * it uses, the copy runs and undo deletes what it created.
 */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '../../api/index.ts';
import { renderWithProviders, signInAs } from '../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../test/service.ts';
import { CopyDialog } from './CopyDialog.tsx';
import { addItem, getItem, type PortalConnection } from './portal.ts';

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
});
