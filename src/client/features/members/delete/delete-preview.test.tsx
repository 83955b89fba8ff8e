/**
 * Deleting a member from their page against the real service: before anything is sent the dialog
 * lists what they own — items with how many items use each, groups, folders, scheduled tasks and
 * webhooks — says the items and groups must be transferred first and links to the transfer wizard;
 * the portal's refusal follows if the delete is tried anyway.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addItem, createFolder, createGroup, createTask, createUser, createWebhook } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { DEMO_PASSWORD, startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
const OWNER = 'own.admin';
const weekdays = { minute: '30', hour: '7', dayOfMonth: '?', month: '*', dayOfWeek: '2-6' };

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  await createUser({ username: OWNER, password: DEMO_PASSWORD, email: 'own@example.com', firstname: 'Owen', lastname: 'Owner', role: 'org_admin' });
  await signInAs(svc, OWNER);
  const folder = (await createFolder(OWNER, 'Field work')).folder;
  const layer = await addItem(OWNER, folder.id, {
    title: 'Parks layer',
    type: 'Feature Service',
    url: 'http://127.0.0.1:9/arcgis/rest/services/Parks/FeatureServer',
  });
  await addItem(OWNER, undefined, {
    title: 'Parks map',
    type: 'Web Map',
    text: JSON.stringify({ operationalLayers: [{ id: 'p', layerType: 'ArcGISFeatureLayer', itemId: layer.id }] }),
  });
  await createGroup({ title: 'Owen’s crew', access: 'org' });
  await createTask(OWNER, { type: 'ExecuteReport', title: 'Weekly items report', parameters: { reportType: 'items' }, ...weekdays });
  await createWebhook(svc.orgId, { name: 'Owen’s feed', url: 'http://127.0.0.1:9/owen', events: ['/items'] });
}, 90_000);
afterAll(() => svc?.close());

describe('delete a member: what they own first', () => {
  it('lists items with their dependents, groups, folders, tasks and webhooks, and links to the transfer', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp(`/members/${OWNER}`);
    await user.click(await screen.findByRole('button', { name: /^Delete/ }));
    const dialog = await screen.findByRole('dialog', { name: /^Delete/ });
    const preview = within(dialog).getByTestId('ownership-preview');
    const section = (name: string) => within(preview).getByRole('region', { name });
    await waitFor(() => expect(within(preview).getByTestId('owned-webhooks-count')).toHaveTextContent('1'));
    await waitFor(() => expect(within(section('Items')).getByText(/used by 1 item/)).toBeInTheDocument());
    expect(within(preview).getByTestId('owned-items-count')).toHaveTextContent('2');
    expect(within(section('Items')).getByText('Parks layer').closest('li')).toHaveTextContent('Parks layer — used by 1 item');
    expect(within(section('Items')).getByText('Parks map').closest('li')).toHaveTextContent('nothing uses it');
    expect(within(section('Groups')).getByText('Owen’s crew')).toBeInTheDocument();
    expect(within(section('Folders')).getByText('Field work')).toBeInTheDocument();
    expect(within(section('Scheduled tasks')).getByText('Weekly items report')).toBeInTheDocument();
    expect(within(section('Webhooks')).getByText('Owen’s feed')).toBeInTheDocument();
    expect(within(section('Webhooks')).getByText(/Stay and keep delivering/)).toBeInTheDocument();
    expect(within(preview).getByText(/owns 2 items and 1 group/)).toBeInTheDocument();
    expect(within(preview).getByRole('link', { name: 'Transfer their content' })).toHaveAttribute('href', `/members/transfer?from=${OWNER}`);

    // Tried anyway: the portal refuses, with the counts.
    await user.click(within(dialog).getByRole('button', { name: /^Delete 1 member/ }));
    expect(await within(dialog).findByText(/owns 2 items, 1 group/)).toBeInTheDocument();
  });
});
