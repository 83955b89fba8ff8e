import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCollaborations, listParticipants, request } from '../../api/index.ts';
import { renderApp, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';

let svc: ClientTestService;
beforeAll(async () => {
  svc = await startClientService();
});
afterAll(() => svc?.close());

describe('collaborations page', () => {
  it('shows the demo collaboration; removing the partner needs its name typed and stops its workspace', async () => {
    await signInAs(svc, 'admin');
    const { user } = renderApp('/collaborations');
    const table = await screen.findByRole('table', { name: 'Participants of Demo and Partner field data' });
    const partnerRow = (await within(table).findByText('Partner Organization')).closest('tr')!;
    expect(partnerRow).toHaveTextContent('Guest');
    expect(partnerRow).toHaveTextContent('active');
    // The host has no remove button.
    expect(within(within(table).getByText('Demo Organization').closest('tr')!).queryByRole('button')).toBeNull();

    await user.click(within(partnerRow).getByRole('button', { name: 'Remove Partner Organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Partner Organization?' });
    expect(within(dialog).getByTestId('impact-preview')).toHaveTextContent(
      'These workspaces stop exchanging content with Partner Organization:Field operations (sends and receives)',
    );
    const confirm = within(dialog).getByRole('button', { name: 'Remove participant' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Type Partner Organization to confirm' }), 'Partner Organization');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Participants of Demo and Partner field data' }))
          .getByText('Partner Organization')
          .closest('tr'),
      ).toHaveTextContent('removed'),
    );
    const [c] = (await listCollaborations(svc.orgId)).collaborations;
    const partner = (await listParticipants(svc.orgId, c.id)).participants.find((p) => p.portalInfo.id === svc.partnerOrgId)!;
    expect(partner.workspaces.map((w) => w.exchanging)).toEqual([false]);
  }, 30_000);

  it('a guest leaves after its preview and typing the collaboration name', async () => {
    await signInAs(svc, 'admin');
    const base = `portals/${svc.orgId}/collaborations`;
    const { id } = await request<{ id: string }>(`${base}/createCollaboration`, { name: 'Shared surveys' }, { method: 'POST' });
    const { workspaceId } = await request<{ workspaceId: string }>(`${base}/${id}/addWorkspace`, { name: 'Surveys' }, { method: 'POST' });
    const { invitationId } = await request<{ invitationId: string }>(
      `${base}/${id}/inviteParticipant`,
      { participantPortalId: svc.partnerOrgId, workspaces: { [workspaceId]: 'receive' } },
      { method: 'POST' },
    );
    await signInAs(svc, 'partner_admin');
    await request(`portals/${svc.partnerOrgId}/collaborations/acceptInvitation`, { invitationId }, { method: 'POST' });

    const { user } = renderApp('/collaborations');
    await user.click(await screen.findByRole('button', { name: 'Leave collaboration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave Shared surveys?' });
    expect(within(dialog).getByTestId('leave-preview')).toHaveTextContent('Surveys (receives)');
    const confirm = within(dialog).getByRole('button', { name: 'Leave collaboration' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Type Shared surveys to confirm' }), 'Shared surveys');
    await user.click(confirm);
    expect(await screen.findByText('No collaborations')).toBeInTheDocument();
    await signInAs(svc, 'admin');
    const guest = (await listParticipants(svc.orgId, id)).participants.find((p) => p.portalInfo.id === svc.partnerOrgId)!;
    expect(guest.status).toBe('left');
  }, 30_000);

  it('is not offered to members without the privilege to manage collaborations', async () => {
    await signInAs(svc, 'user1');
    renderApp('/overview');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(await within(nav).findByRole('link', { name: 'Groups' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Collaborations' })).toBeNull();
  });
});
