/**
 * The host invalidates an invitation and sets how long a new one lasts, against the real portal:
 * the invite form's "Expires after (hours)" (checked by the form, sent as `expiration`), Invalidate
 * beside Refresh on the participant row with a confirmation saying what follows, the guest then
 * without it, the portal's refusal of a second invalidate, and the button disabled with its reason
 * for a member who may not.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHostInvitation, listGuestInvitations, listHostInvitations, request, type HostInvitationRecord } from '../../api/index.ts';
import { renderApp, renderWithProviders, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { InvalidateInvitationButton } from './InvalidateInvitationButton.tsx';

const HOUR = 3_600_000;
let svc: ClientTestService;
let collaborationId: string;

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  const base = `portals/${svc.orgId}/collaborations`;
  collaborationId = (await request<{ id: string }>(`${base}/createCollaboration`, { name: 'Short survey' }, { method: 'POST' })).id;
  await request(`${base}/${collaborationId}/addWorkspace`, { name: 'Wells' }, { method: 'POST' });
}, 60_000);
afterAll(() => svc?.close());

describe('invitation expiry on the form, and invalidating an invitation', () => {
  it('sends the hours chosen, refuses hours out of range, then invalidates after a confirmation', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/collaborations');
    await user.click(await screen.findByRole('button', { name: /^Short survey/ }));
    const table = await screen.findByRole('table', { name: 'Participants of Short survey' });
    await user.click(within(table.closest('[role="region"]') as HTMLElement).getByRole('button', { name: 'Invite participant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a participant to Short survey' });
    await user.type(within(dialog).getByRole('combobox', { name: /^Guest organization/ }), 'Partn');
    await user.click(await screen.findByRole('option', { name: 'Partner Organization' }));
    const hours = within(dialog).getByRole('textbox', { name: /Expires after \(hours\)/ });
    expect(hours).toHaveValue('72');
    await user.clear(hours);
    await user.type(hours, '9000');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    expect(await within(dialog).findByText('Enter from 1 to 8,760 hours (a year)')).toBeInTheDocument();
    await user.clear(hours);
    await user.type(hours, '24');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    const ready = await screen.findByRole('dialog', { name: 'Invitation ready' });
    const invitationId = (await within(ready).findByLabelText('Invitation ID')).textContent;
    const sent = await getHostInvitation(svc.orgId, collaborationId, invitationId);
    expect(sent.expiration! - Date.now()).toBeGreaterThan(23 * HOUR);
    expect(sent.expiration! - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    await user.click(within(ready).getByRole('button', { name: /Done/ }));

    const row = (await within(table).findByText('Partner Organization')).closest('tr')!;
    await user.click(await within(row).findByRole('button', { name: 'Invalidate invitation of Partner Organization' }));
    const confirm = await screen.findByRole('dialog', { name: 'Invalidate the invitation of Partner Organization?' });
    expect(confirm).toHaveTextContent('Partner Organization can no longer accept this invitation');
    expect(confirm).toHaveTextContent('use “Invite again”, which creates a new invitation');
    await user.click(within(confirm).getByRole('button', { name: 'Invalidate invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Invalidate the invitation/ })).toBeNull());
    expect((await getHostInvitation(svc.orgId, collaborationId, invitationId)).state).toBe('invalidated');
    expect(await within(row).findByRole('button', { name: 'Invite again: Partner Organization' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /^Invalidate invitation/ })).toBeNull();

    await signInAs(svc, 'partner_admin');
    expect((await listGuestInvitations(svc.partnerOrgId)).invitations.map((i) => i.id)).not.toContain(invitationId);
  }, 90_000);

  it('shows the portal’s refusal when the invitation was already invalidated', async () => {
    await signInAs(svc, 'admin');
    const invalidated = (await listHostInvitations(svc.orgId, collaborationId)).collaborationInvitations[0];
    // As a page left open shows it: still pending there, already invalidated at the portal.
    const stale: HostInvitationRecord = { ...invalidated, state: 'pending', status: 'host_created' };
    const { user } = renderWithProviders(<InvalidateInvitationButton orgId={svc.orgId} invitation={stale} />);
    await user.click(screen.getByRole('button', { name: 'Invalidate invitation of Partner Organization' }));
    const confirm = await screen.findByRole('dialog', { name: /^Invalidate the invitation/ });
    await user.click(within(confirm).getByRole('button', { name: 'Invalidate invitation' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(/was invalidated: only an invitation the guest has not answered can be invalidated/);
  }, 30_000);

  it('is disabled, with the reason in words, for a member who may not invalidate', async () => {
    await signInAs(svc, 'admin');
    const invitation = (await listHostInvitations(svc.orgId, collaborationId)).collaborationInvitations[0];
    await signInAs(svc, 'user1');
    renderWithProviders(<InvalidateInvitationButton orgId={svc.orgId} invitation={invitation} />);
    const button = screen.getByRole('button', { name: 'Invalidate invitation of Partner Organization' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByTestId('disabled-reason')).toHaveTextContent(/^To invalidate invitations you need .+\.$/);
  }, 30_000);
});
