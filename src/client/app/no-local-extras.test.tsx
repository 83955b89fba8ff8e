/**
 * The console on a portal without this portal's extras: the real local portal started with
 * LOCAL_EXTRAS=off answers only the public fields and treats local-only operations as unknown
 * paths, as another ArcGIS portal would (docs/local-extras.md). Each main page renders its data
 * without an error, local-only actions are disabled or replaced with the reason, and answers that
 * lack an extra are shown from the public fields.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderApp, signInAs } from '../test/render.tsx';
import { recordRequests } from '../test/requests.ts';
import { startClientService, type ClientTestService } from '../test/service.ts';

let svc: ClientTestService;
let token: string;
const ids: Record<string, string> = {};

/** A REST call to the portal as the administrator (set-up only; the pages make their own). */
async function call(path: string, params: Record<string, string> = {}) {
  const res = await fetch(`${svc.restUrl}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ f: 'json', token, ...params }).toString(),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body;
}

const reason = (what: string) => `Not available on this portal: Demo Organization does not offer ${what}.`;

beforeAll(async () => {
  svc = await startClientService({ localExtras: false });
  ({ token } = await signInAs(svc, 'admin'));
  ids.group = (await call('community/createGroup', { title: 'Field crews', access: 'org' })).group.id;
  ids.map = (await call('content/users/admin/addItem', { title: 'Crew map', type: 'Web Map', text: '{}' })).id;
  ids.layer = (
    await call('content/users/admin/addItem', { title: 'Crew layer', type: 'Feature Service', url: 'https://services.example.com/FeatureServer' })
  ).id;
  await call('content/users/admin/addRelationship', { originItemId: ids.map, destinationItemId: ids.layer, relationshipType: 'Map2Service' });
  ids.webhook = (await call(`portals/${svc.orgId}/webhooks/createWebhook`, { name: 'Crew feed', url: 'http://127.0.0.1:9/hook', events: '/items' })).id;
  await call(`portals/${svc.orgId}/webhooks/${ids.webhook}/deactivate`);
  await call('community/users/admin/tasks/createTask', {
    type: 'ExecuteReport',
    title: 'Crew report',
    parameters: JSON.stringify({ reportType: 'members' }),
    minute: '30',
    hour: '7',
    dayOfMonth: '?',
    month: '*',
    dayOfWeek: '2-6',
  });
}, 60_000);
afterAll(() => svc?.close());

describe('the console against a portal without local extras', () => {
  it('the portal really lacks them: no marker, no memberCount, local-only operations unknown', async () => {
    const self = await call('portals/self');
    expect(self).not.toHaveProperty('localExtras');
    expect(self).not.toHaveProperty('memberCount');
    await expect(call(`portals/${svc.orgId}/webhooks/${ids.webhook}/test`)).rejects.toThrow(/GWM_0002/);
  });

  it('overview: the organization and the member, with the member count "Not available"', async () => {
    await signInAs(svc, 'admin');
    renderApp('/overview');
    expect(await screen.findByTestId('org-name')).toHaveTextContent('Demo Organization');
    expect(await screen.findByText('Not available')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('members list their data', async () => {
    await signInAs(svc, 'admin');
    renderApp('/members?status=disabled&sortField=userlicensetype');
    expect(await screen.findByText('publisher1')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    // The member filters and sorts of the local extras are not sent (the list is unfiltered) and say why.
    expect(screen.getByLabelText('Status', { selector: 'input' })).toBeDisabled();
    expect(screen.getByText(reason('filters by status, user type or dates'))).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Members by user type' })).toBeNull();
  });

  it('roles list their data', async () => {
    await signInAs(svc, 'admin');
    renderApp('/roles');
    expect((await screen.findAllByText('Viewer')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('groups and a group: no member count shown; adding users the portal refuses names them with "gave no reason"', async () => {
    await signInAs(svc, 'admin');
    const list = renderApp('/groups');
    expect(await screen.findByRole('link', { name: 'Field crews' })).toBeInTheDocument();
    list.unmount();
    const { user } = renderApp(`/groups/${ids.group}`);
    expect(await screen.findByRole('heading', { name: 'Field crews', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Owned by/).textContent).not.toMatch(/member/);
    await user.click(await screen.findByRole('button', { name: 'Add users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add users to Field crews' });
    await user.click(within(dialog).getByRole('textbox', { name: /^Or paste a list/ }));
    await user.paste('nobody_here user1');
    await waitFor(() =>
      expect(within(dialog).getByTestId('names-summary')).toHaveTextContent('2 users to add in 1 batch of at most 25, 1 not in your organization.'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add 2 users' }));
    // nobody_here is not in the organization: confirmed first.
    await user.click(await within(dialog).findByRole('button', { name: 'Add all 2, with 1 of other organizations' }));
    const results = await within(dialog).findByRole('table', { name: 'Add users results' });
    expect(within(results).getByText('nobody_here').closest('tr')).toHaveTextContent('The portal did not add this user and gave no reason.');
    expect(within(results).getByText('user1').closest('tr')).toHaveTextContent('Added');
  });

  it('a refused form without fieldErrors still shows what the portal said (message details) in the form', async () => {
    await signInAs(svc, 'admin');
    await call('community/createGroup', { title: 'Taken title', access: 'org' });
    const { user } = renderApp(`/groups/${ids.group}`);
    await user.click(await screen.findByRole('button', { name: 'Edit group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Field crews' });
    const title = within(dialog).getByRole('textbox', { name: /^Title/ });
    await user.clear(title);
    await user.type(title, 'Taken title');
    await user.click(within(dialog).getByRole('button', { name: 'Save group' }));
    expect(await within(dialog).findByText(/already own a group with this title/)).toBeInTheDocument();
    // Not placed beside the field: the portal did not name it in fieldErrors.
    expect(title).not.toHaveAccessibleDescription(expect.stringContaining('already own'));
  });

  it('content and an item: related items still name their relationship (asked type by type)', async () => {
    await signInAs(svc, 'admin');
    const list = renderApp('/content');
    expect(await screen.findByRole('link', { name: 'Crew map' })).toBeInTheDocument();
    list.unmount();
    const requests = recordRequests();
    try {
      const { user } = renderApp(`/content/items/${ids.map}`);
      expect(await screen.findByRole('heading', { name: 'Crew map', level: 1 })).toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: 'Related items' }));
      const table = await screen.findByRole('table', { name: 'Related items: this item is the origin' });
      expect(within(table).getByRole('link', { name: 'Crew layer' }).closest('tr')).toHaveTextContent('Map2Service');
      expect(within(table).getByRole('button', { name: 'Remove Map2Service relationship with Crew layer' })).toBeInTheDocument();
    } finally {
      requests.stop();
    }
    const asked = requests.sent.filter((r) => r.path.endsWith('/relatedItems') && r.params.get('direction') === 'forward');
    expect(asked.some((r) => (r.params.get('relationshipTypes') ?? r.params.get('relationshipType')) === 'Map2Service')).toBe(true);
  });

  it('webhooks and a webhook: no delivery summary; "Send test event" disabled with the reason', async () => {
    await signInAs(svc, 'admin');
    const list = renderApp('/webhooks');
    const table = await screen.findByRole('table', { name: 'Organization webhooks' });
    const row = (await within(table).findByRole('link', { name: 'Crew feed' })).closest('tr')!;
    expect(row).toHaveTextContent('Deactivated');
    expect(row).toHaveTextContent('Not reported');
    list.unmount();
    const requests = recordRequests();
    try {
      const { user } = renderApp(`/webhooks/${ids.webhook}`);
      expect(await screen.findByRole('heading', { name: 'Crew feed', level: 1 })).toBeInTheDocument();
      expect(screen.getByText(/the portal does not say why/)).toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('button', { name: 'Send test event' })).toHaveAttribute('aria-disabled', 'true'));
      const send = screen.getByRole('button', { name: 'Send test event' });
      expect(send).toHaveAccessibleDescription(reason('a test delivery'));
      await user.click(send);
      expect(await screen.findByText('No deliveries yet')).toBeInTheDocument();
    } finally {
      requests.stop();
    }
    expect(requests.sent.some((r) => r.path.endsWith('/test'))).toBe(false);
  });

  it('tasks: the next run worked out from the schedule; "Run now" disabled with the reason', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/tasks');
    const cell = await screen.findByText('Crew report');
    const row = cell.closest('tr')!;
    expect(row).toHaveTextContent('UTC');
    await user.click(within(row).getByRole('button', { name: /^Actions for/ }));
    const runNow = await screen.findByRole('menuitem', { name: /Run now/ });
    expect(runNow).toBeDisabled();
    expect(runNow).toHaveTextContent(reason('running a task on demand'));
  });

  it('collaborations: the demo collaboration with the caller’s part worked out; the history is said to be unavailable', async () => {
    await signInAs(svc, 'admin');
    const requests = recordRequests();
    try {
      renderApp('/collaborations');
      expect(await screen.findByText('You host')).toBeInTheDocument();
      expect(await screen.findByRole('table', { name: /^Participants of/ })).toBeInTheDocument();
      expect(screen.getByText('Hosted by your organization', { exact: false })).toBeInTheDocument();
      expect(await screen.findByText(reason('a collaboration history'))).toBeInTheDocument();
      expect(screen.getByRole('button', { name: /^Remove / })).toBeInTheDocument();
    } finally {
      requests.stop();
    }
    expect(requests.sent.some((r) => r.path.endsWith('/events'))).toBe(false);
  });

  it('members: a member\'s menu has no "Unlock sign-in" (a local-only operation)', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/members');
    const table = await screen.findByRole('table', { name: 'Members' });
    await user.click(await within(table).findByRole('button', { name: 'More actions for user1' }));
    expect(await screen.findByRole('menuitem', { name: 'Transfer content' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Unlock sign-in/ })).toBeNull();
  });

  it('settings: the local external-members limit is replaced by the reason', async () => {
    await signInAs(svc, 'admin');
    renderApp('/settings');
    expect(await screen.findByText(reason('a limit on members from other organizations per group'))).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /other organizations/ })).toBeNull();
  });
});
