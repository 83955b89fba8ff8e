/**
 * The lifecycle's warnings in the webhook event picker, through the console against the real
 * service: "Users: Expiry warning" and "Users: Inactivity warning" are offered, and a webhook
 * created with them stores the catalogue's URIs.
 */
import { screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWebhook } from '../../../api/index.ts';
import { renderApp, signInAs } from '../../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

describe('lifecycle warning events in the webhook picker', () => {
  it('subscribes a webhook to the expiry and inactivity warnings of all members', async () => {
    await signInAs(svc, 'admin');
    const { user, location } = renderApp('/webhooks');
    await user.click(await screen.findByRole('button', { name: 'Create webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create webhook' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Member warnings');
    await user.type(within(dialog).getByRole('textbox', { name: /^Payload URL/ }), 'http://127.0.0.1:9/warnings');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users: Expiry warning' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users: Inactivity warning' }));
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create webhook' }));
    const reveal = await screen.findByRole('dialog', { name: 'Webhook created' });
    await user.click(within(reveal).getByRole('button', { name: 'Done' }));

    expect(await screen.findByRole('heading', { name: 'Member warnings', level: 1 })).toBeInTheDocument();
    const stored = await getWebhook(svc.orgId, location().split('/')[2]);
    expect(stored.events.sort()).toEqual(['/users/expirationWarning', '/users/inactivityWarning']);
    expect(within(screen.getByRole('list', { name: 'Subscribed events' })).getByText('Users: Inactivity warning')).toBeInTheDocument();
  });
});
