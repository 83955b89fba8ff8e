import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  addItem,
  createWebhook,
  getWebhook,
  getWebhookSettings,
  listWebhookAttempts,
  listWebhooks,
  setWebhookActive,
  updateWebhookSettings,
} from '../../api/index.ts';
import { formatDateTime } from '../../lib/format.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

const nav = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('webhooks page', () => {
  it('is in the navigation only for members with the organization-webhooks privilege', async () => {
    await signInAs(svc, 'user1');
    renderApp('/overview');
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav()).queryByRole('link', { name: 'Webhooks' })).toBeNull();
  });

  it('creates a webhook from the form: checks first, then shows the secret once, then the webhook', async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/webhooks');
    expect(await screen.findByText('No webhooks yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create webhook' });
    await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
    expect(await within(dialog).findByText('Enter a name')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a URL')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one event')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Item feed');
    await user.type(within(dialog).getByRole('textbox', { name: /^Payload URL/ }), 'http://127.0.0.1:9/hook');
    await user.click(within(dialog).getByRole('checkbox', { name: 'All items events' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Groups: Added' }));
    await user.type(within(dialog).getByRole('textbox', { name: /^One member/ }), 'user1');
    await user.click(within(dialog).getByRole('button', { name: 'Add one member' }));
    const subscribed = within(dialog).getByRole('group', { name: 'Subscribed events' });
    await waitFor(() => expect(subscribed).toHaveTextContent('/users/user1'));
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));

    const reveal = await screen.findByRole('dialog', { name: 'Webhook created' });
    const secret = within(reveal).getByLabelText('Webhook secret').textContent;
    expect(secret.length).toBeGreaterThanOrEqual(40);
    expect(within(reveal).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    await user.click(within(reveal).getByRole('button', { name: 'Done' }));

    expect(await screen.findByRole('heading', { name: 'Item feed', level: 1 })).toBeInTheDocument();
    const id = location().split('/')[2];
    const stored = await getWebhook(svc.orgId, id);
    expect(stored).toMatchObject({
      name: 'Item feed',
      payloadUrl: 'http://127.0.0.1:9/hook',
      secret: '********',
      isActive: true,
      config: { deactivationPolicy: { numberOfFailures: 5, daysInPast: 5 } },
    });
    expect(stored.events.sort()).toEqual(['/groups/add', '/items', '/users/user1']);
    // The page names the events in words, not as URIs.
    const events = screen.getByRole('list', { name: 'Subscribed events' });
    expect(
      within(events)
        .getAllByRole('listitem')
        .map((e) => e.textContent),
    ).toEqual(expect.arrayContaining(['All items events', 'Groups: Added', 'All events of member user1']));
    expect(events).not.toHaveTextContent('/items');
    // The page never shows the secret again.
    expect(screen.queryByText(secret)).toBeNull();
    expect(screen.getByText('Set (never shown again)')).toBeInTheDocument();
    expect(await screen.findByText('No deliveries yet')).toBeInTheDocument();
  });

  it('a deactivated webhook says why, in the list and on its page', async () => {
    await signInAs(svc, 'admin');
    const { id } = await createWebhook(svc.orgId, { name: 'Paused hook', url: 'http://127.0.0.1:9/paused', events: ['/'] });
    await setWebhookActive(svc.orgId, id, false);
    const { user } = renderApp('/webhooks');
    const table = await screen.findByRole('table', { name: 'Organization webhooks' });
    const row = (await within(table).findByRole('link', { name: 'Paused hook' })).closest('tr')!;
    expect(row).toHaveTextContent('Deactivated');
    expect(row).toHaveTextContent('Deactivated by admin.');
    expect(row).toHaveTextContent('Every event');
    await user.click(within(row).getByRole('link', { name: 'Paused hook' }));
    expect(await screen.findByText('This webhook is off: nothing is delivered')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(async () => expect((await getWebhook(svc.orgId, id)).isActive).toBe(true));
    await waitFor(() => expect(screen.queryByText('This webhook is off: nothing is delivered')).toBeNull());
  });

  it('delivery settings: ranges checked in the form, saved to the portal', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/webhooks?tab=settings');
    const form = await screen.findByRole('form', { name: 'Delivery settings' });
    const retries = within(form).getByRole('textbox', { name: /^Retries/ });
    await waitFor(() => expect(retries).toHaveValue('3'));
    // Nothing to save until a value changes.
    expect(within(form).getByRole('button', { name: 'Save settings' })).toBeDisabled();
    await user.clear(retries);
    await user.type(retries, '9');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    expect(await within(form).findByText('Retries must be a whole number from 0 to 5')).toBeInTheDocument();
    await user.clear(retries);
    await user.type(retries, '2');
    await user.click(within(form).getByRole('button', { name: 'Save settings' }));
    await waitFor(async () => expect((await getWebhookSettings(svc.orgId)).notificationAttempts).toBe(2));
  });

  it('service webhooks: listed from the federated servers, filtered, and read in words (JSON only on request)', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/webhooks?tab=services');
    const table = await screen.findByRole('table', { name: 'Service webhooks' });
    await waitFor(() => expect(within(table).getAllByRole('button', { name: /^Show / })).toHaveLength(3));
    await user.click(screen.getByRole('radio', { name: 'Geoprocessing' }));
    await waitFor(() => expect(within(table).getAllByRole('button', { name: /^Show / })).toHaveLength(1));
    await user.click(within(table).getByRole('button', { name: 'Show Buffer job finished' }));
    const details = await screen.findByRole('table', { name: 'Service webhook details' });
    const row = (label: string) => within(details).getByRole('rowheader', { name: label }).closest('tr')!;
    expect(row('Name')).toHaveTextContent('Buffer job finished');
    expect(row('Watches')).toHaveTextContent('BufferTool');
    expect(row('Watches')).toHaveTextContent('Geoprocessing service');
    expect(row('Sent when')).toHaveTextContent('A job succeeds, is canceled or fails');
    expect(row('State')).toHaveTextContent(/^State(Active: changes are sent|Paused: nothing is sent)$/);
    expect(row('Schedule')).toHaveTextContent('None');
    // Dates in local time, not epoch numbers.
    expect(row('Created').textContent).not.toMatch(/\d{10,}/);
    expect(row('Last changed').textContent).toMatch(/\d{4}/);
    // No raw names or JSON by default; the JSON is one click away.
    for (const raw of ['changeTypes', 'scheduleInfo', 'lastUpdatedTime', 'GPServer']) expect(details).not.toHaveTextContent(raw);
    expect(screen.queryByLabelText('Service webhook as JSON')).toBeNull();
    const show = screen.getByRole('button', { name: 'Show JSON' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    expect(await screen.findByLabelText('Service webhook as JSON')).toHaveTextContent('"changeTypes"');
    expect(screen.getByRole('button', { name: 'Hide JSON' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('a feature-service webhook names its triggers in words', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/webhooks?tab=services');
    const table = await screen.findByRole('table', { name: 'Service webhooks' });
    await user.click(await within(table).findByRole('button', { name: 'Show Parcel edits' }));
    const details = await screen.findByRole('table', { name: 'Service webhook details' });
    expect(within(details).getByRole('rowheader', { name: 'Sent when' }).closest('tr')).toHaveTextContent('Features created');
    expect(details).not.toHaveTextContent('FeaturesCreated');
    expect(within(details).getByRole('rowheader', { name: 'Schedule' }).closest('tr')).toHaveTextContent(/^ScheduleEvery 20 seconds from /);
    expect(within(details).getByRole('rowheader', { name: 'Receiver URL' }).closest('tr')).toHaveTextContent(/^Receiver URLhttps?:\/\//);
  });

  it('the list reads the portal: webhooks made elsewhere appear', async () => {
    await signInAs(svc, 'admin');
    const before = (await listWebhooks(svc.orgId)).total;
    await createWebhook(svc.orgId, { name: 'Made elsewhere', url: 'http://127.0.0.1:9/else', events: ['/roles'] });
    renderApp('/webhooks');
    const table = await screen.findByRole('table', { name: 'Organization webhooks' });
    expect(await within(table).findByRole('link', { name: 'Made elsewhere' })).toBeInTheDocument();
    expect(within(table).getAllByRole('link')).toHaveLength(before + 1);
  });

  it('a failed delivery awaiting its retry shows when the next attempt is due', async () => {
    // A portal of its own whose dispatcher attempts deliveries (the file's portal attempts none).
    const live = await startClientService({ webhookDeliveries: true });
    onTestFinished(() => live.close());
    await signInAs(live, 'admin');
    await updateWebhookSettings(live.orgId, { notificationAttempts: 3, notificationElapsedTimeInSeconds: 100 });
    // Nothing listens on port 9: the first attempt fails and the retry waits 100 s.
    const { id } = await createWebhook(live.orgId, { name: 'Retry feed', url: 'http://127.0.0.1:9/retry', events: ['/items'] });
    const before = Date.now();
    await addItem('admin', '/', { title: 'Retry trigger', type: 'Web Map', text: '{}' });
    let next = 0;
    await waitFor(
      async () => {
        const [latest] = (await listWebhookAttempts(live.orgId, id)).WebhookStatus;
        expect(latest).toMatchObject({ attempt: 1, deliveryState: 'pending', success: false });
        next = latest.nextAttemptAt!;
      },
      { timeout: 20_000, interval: 250 },
    );
    expect(next).toBeGreaterThan(before + 90_000);
    expect(next).toBeLessThan(Date.now() + 110_000);

    renderApp(`/webhooks/${id}`);
    const table = await screen.findByRole('table', { name: 'Delivery attempts' });
    expect(await within(table).findByText(`Retry pending: next attempt ${formatDateTime(next)}`)).toBeInTheDocument();
  }, 80_000);
});
