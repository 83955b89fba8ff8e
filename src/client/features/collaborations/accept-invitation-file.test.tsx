/**
 * Accepting with the host's invitation file (the documented acceptCollaborationInvitation): on a
 * portal without the local extras the Collaborations page offers it in place of the invitation
 * list, and says why a file is refused; with a file the host exported, the guest joins.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getHostInvitation, listHostInvitations, listParticipants, request } from '../../api/index.ts';
import { renderApp, renderWithProviders, signInAs } from '../../test/render.tsx';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { AcceptInvitationFile } from './AcceptInvitationFile.tsx';

const inviteFile = (text: string, name: string) => new File([text], name, { type: 'application/octet-stream' });

describe('on a portal without the local extras', () => {
  let svc: ClientTestService;
  beforeAll(async () => {
    svc = await startClientService({ localExtras: false });
  });
  afterAll(() => svc?.close());

  it('offers the invitation file in place of the list, and says why a file is refused', async () => {
    // The demo collaboration's invitation, as its host exported it (already accepted by the partner).
    await signInAs(svc, 'admin');
    const demo = (await request<{ collaborations: { id: string }[] }>(`portals/${svc.orgId}/collaborations`, {}, { method: 'GET' })).collaborations[0];
    const [invitation] = (await listHostInvitations(svc.orgId, demo.id)).collaborationInvitations;

    await signInAs(svc, 'partner_admin');
    const { user } = renderApp('/collaborations');
    const section = await screen.findByRole('region', { name: 'Accept an invitation' });
    const chooser = within(section).getByRole('button', { name: 'Invitation file' });
    const accept = within(section).getByRole('button', { name: 'Accept invitation' });
    expect(accept).toBeDisabled();
    // The chooser is reached by keyboard.
    chooser.focus();
    expect(chooser).toHaveFocus();

    const input = section.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, inviteFile('not an invitation', 'notes.txt'));
    await user.click(accept);
    expect(await within(section).findByRole('alert')).toHaveTextContent(/is not a collaboration invitation file/);

    await user.upload(input, inviteFile(invitation.invitationString, invitation.config.invitationRequestFilename));
    expect(within(section).queryByRole('alert')).toBeNull();
    await user.click(accept);
    expect(await within(section).findByRole('alert')).toHaveTextContent(/was already accepted/);
  }, 30_000);
});

describe('accepting with the file the host exported', () => {
  let svc: ClientTestService;
  beforeAll(async () => {
    svc = await startClientService();
  });
  afterAll(() => svc?.close());

  it('makes the guest a participant; the page with the local extras lists invitations instead', async () => {
    await signInAs(svc, 'admin');
    const base = `portals/${svc.orgId}/collaborations`;
    const { id } = await request<{ id: string }>(`${base}/createCollaboration`, { name: 'Shared gauges' }, { method: 'POST' });
    const { workspaceId } = await request<{ workspaceId: string }>(`${base}/${id}/addWorkspace`, { name: 'Gauges' }, { method: 'POST' });
    const { invitationId } = await request<{ invitationId: string }>(
      `${base}/${id}/inviteParticipant`,
      { participantPortalId: svc.partnerOrgId, workspaces: { [workspaceId]: 'send' } },
      { method: 'POST' },
    );
    const invitation = await getHostInvitation(svc.orgId, id, invitationId);

    await signInAs(svc, 'partner_admin');
    const page = renderApp('/collaborations');
    expect(await screen.findByRole('region', { name: 'Invitations' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Accept an invitation' })).toBeNull();
    page.unmount();

    const onAccepted = vi.fn();
    const { user } = renderWithProviders(<AcceptInvitationFile orgId={svc.partnerOrgId} mayAnswer={{ allowed: true }} onAccepted={onAccepted} />);
    const section = screen.getByRole('region', { name: 'Accept an invitation' });
    await user.upload(section.querySelector('input[type="file"]') as HTMLInputElement, inviteFile(invitation.invitationString, 'collaboration.invite'));
    await user.click(within(section).getByRole('button', { name: 'Accept invitation' }));
    await waitFor(() => expect(onAccepted).toHaveBeenCalledWith(id));
    await signInAs(svc, 'admin');
    const partner = (await listParticipants(svc.orgId, id)).participants.find((p) => p.portalInfo.id === svc.partnerOrgId);
    expect(partner?.status).toBe('active');
  }, 30_000);
});
