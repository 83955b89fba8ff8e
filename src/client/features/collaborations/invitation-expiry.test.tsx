/**
 * Invitations that expire, in the console: the host's participant row and the invitation say when,
 * Refresh invitation pushes it 72 hours on (the real portal), and an expired invitation reads as
 * expired — with Refresh for the host, without Accept or Decline for the guest.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getHostInvitation, listGuestInvitations, request, type HostInvitationRecord, type InvitationRecord } from '../../api/index.ts';
import { renderApp, renderWithProviders, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { GuestInvitationCard } from './GuestInvitationCard.tsx';
import { InvitationDetails } from './InvitationDetails.tsx';
import { expiryInWords, relativeTo } from './invitationExpiry.ts';

const HOUR = 3_600_000;
let svc: ClientTestService;
let invited: { collaborationId: string; invitationId: string };

beforeAll(async () => {
  svc = await startClientService();
  await signInAs(svc, 'admin');
  const base = `portals/${svc.orgId}/collaborations`;
  const { id } = await request<{ id: string }>(`${base}/createCollaboration`, { name: 'Expiring survey' }, { method: 'POST' });
  const { workspaceId } = await request<{ workspaceId: string }>(`${base}/${id}/addWorkspace`, { name: 'Gauges' }, { method: 'POST' });
  const { invitationId } = await request<{ invitationId: string }>(
    `${base}/${id}/inviteParticipant`,
    { participantPortalId: svc.partnerOrgId, workspaces: { [workspaceId]: 'send' }, expiration: 2 },
    { method: 'POST' },
  );
  invited = { collaborationId: id, invitationId };
}, 60_000);
afterAll(() => svc?.close());

describe('an invitation that expires', () => {
  it('the host sees when in the participant row and the invitation, and Refresh gives it 72 hours from now', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/collaborations');
    await user.click(await screen.findByRole('button', { name: /^Expiring survey/ }));
    const table = await screen.findByRole('table', { name: 'Participants of Expiring survey' });
    const row = (await within(table).findByText('Partner Organization')).closest('tr')!;
    expect(row).toHaveTextContent(/Expires in (1|2) hours? \(/);
    // Not expired yet: the row offers no Refresh (the invitation does).
    expect(within(row).queryByRole('button', { name: 'Refresh invitation of Partner Organization' })).toBeNull();

    await user.click(within(row).getByRole('button', { name: 'Show invitation of Partner Organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation of Partner Organization' });
    expect(await within(dialog).findByTestId('invitation-expiry')).toHaveTextContent(/Expires in (1|2) hours? \(/);
    const refresh = within(dialog).getByRole('button', { name: 'Refresh invitation of Partner Organization' });
    refresh.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(dialog).getByTestId('invitation-expiry')).toHaveTextContent(/Expires in 3 days \(/));
    expect(await screen.findByText(/The invitation of Partner Organization now expires/)).toBeInTheDocument();
    const after = await getHostInvitation(svc.orgId, invited.collaborationId, invited.invitationId);
    expect(after.expiration! - Date.now()).toBeGreaterThan(71 * HOUR);
    expect(after.state).toBe('pending');
  }, 60_000);

  it('the guest sees when it expires next to Accept', async () => {
    await signInAs(svc, 'partner_admin');
    renderApp('/collaborations');
    const card = await screen.findByRole('group', { name: 'Invitation to Expiring survey' });
    expect(card).toHaveTextContent(/Expires in 3 days \(/);
    expect(within(card).getByRole('button', { name: 'Accept the invitation to Expiring survey' })).toBeInTheDocument();
  }, 30_000);
});

/*
 * The portal's clock runs in the test service's own process, out of this test's reach, so an
 * expired invitation is the portal's own record read here, with its expiry passed as the portal
 * then reports it (state and status `expired`; invitation-expiry.test.ts on the service proves it does).
 */
describe('an expired invitation', () => {
  it('the host reads it as expired, with Refresh invitation', async () => {
    await signInAs(svc, 'admin');
    const real = await getHostInvitation(svc.orgId, invited.collaborationId, invited.invitationId);
    const expired: HostInvitationRecord = { ...real, state: 'expired', status: 'expired', expiration: Date.now() - 3 * HOUR };
    renderWithProviders(<InvitationDetails invitation={expired} hostName="Demo Organization" orgId={svc.orgId} />);
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.getByTestId('invitation-expiry')).toHaveTextContent(
      /Expired 3 hours ago \(.*\): Partner Organization can no longer answer it until it is refreshed\./,
    );
    expect(screen.getByRole('button', { name: 'Refresh invitation of Partner Organization' })).toBeInTheDocument();
  });

  it('the guest reads it as expired, with no Accept or Decline', async () => {
    await signInAs(svc, 'partner_admin');
    const real = (await listGuestInvitations(svc.partnerOrgId)).invitations.find((i) => i.id === invited.invitationId)!;
    const expired: InvitationRecord = { ...real, expired: true, expires: Date.now() - 26 * HOUR };
    const noop = () => {};
    renderWithProviders(<GuestInvitationCard invitation={expired} mayAnswer={{ allowed: true }} accepting={false} onAccept={noop} onDecline={noop} />);
    const card = screen.getByRole('group', { name: 'Invitation to Expiring survey' });
    expect(card).toHaveTextContent(/Expired yesterday \(.*\) — ask Demo Organization to refresh it to answer\./);
    expect(within(card).getByText('Expired')).toBeInTheDocument();
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('says how far off, either way', () => {
    const now = Date.UTC(2026, 0, 5, 9);
    expect(relativeTo(now + 72 * HOUR, now)).toBe('in 3 days');
    expect(relativeTo(now + 72 * HOUR - 5_000, now)).toBe('in 3 days');
    expect(relativeTo(now + 50 * 60_000, now)).toBe('in 50 minutes');
    expect(relativeTo(now - 30_000, now)).toBe('less than a minute ago');
    expect(expiryInWords(null, now)).toBeNull();
    expect(expiryInWords(now, now)).toMatch(/^Expired just now \(/);
  });
});
