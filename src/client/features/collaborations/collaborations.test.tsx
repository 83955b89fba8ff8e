import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, listCollaborations, listParticipants, listWorkspaces, request } from '../../api/index.ts';
import { renderApp, renderWithProviders, signInAs } from '../../test/render.tsx';
import CollaborationsPage from './CollaborationsPage.tsx';
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
      /(These workspaces stop|This workspace stops) exchanging content with Partner Organization:Field operations \(sends and receives\)/,
    );
    const confirm = within(dialog).getByRole('button', { name: 'Remove participant' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: 'Type Partner Organization to confirm' }), 'Partner Organization');
    expect(confirm).toBeEnabled();
    await user.click(confirm);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Partner Organization no longer takes part; 1 workspace stopped exchanging with it.')).toBeInTheDocument();
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

  it('a removed participant is invited again from its row, to the workspaces it had', async () => {
    // Runs after the first test removed the partner from the demo collaboration.
    await signInAs(svc, 'admin');
    const { user } = renderApp('/collaborations');
    const table = await screen.findByRole('table', { name: 'Participants of Demo and Partner field data' });
    const row = (await within(table).findByText('Partner Organization')).closest('tr')!;
    expect(row).toHaveTextContent('removed');
    await user.click(within(row).getByRole('button', { name: 'Invite again: Partner Organization' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite Partner Organization again' });
    expect(within(dialog).getByRole('textbox', { name: 'Guest organization' })).toHaveValue('Partner Organization');
    expect(within(dialog).getByRole('combobox', { name: 'Guest access to Field operations' })).toHaveValue('Send and receive');
    await user.click(within(dialog).getByRole('button', { name: 'Invite again' }));
    const result = await screen.findByRole('dialog', { name: 'Invitation ready' });
    const text = await within(result).findByLabelText('Invitation');
    expect(text).toHaveTextContent('Invitation to the collaboration “Demo and Partner field data”');
    expect(text).toHaveTextContent('Field operations: send and receive');
    expect(within(result).getByRole('button', { name: 'Copy invitation' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('announcer-polite')).toHaveTextContent('Invitation created for Partner Organization'));
    await user.click(within(result).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Participants of Demo and Partner field data' }))
          .getByText('Partner Organization')
          .closest('tr'),
      ).toHaveTextContent('invited'),
    );
    const [c] = (await listCollaborations(svc.orgId)).collaborations;
    expect((await listParticipants(svc.orgId, c.id)).participants.find((p) => p.portalInfo.id === svc.partnerOrgId)!.status).toBe('invited');
  }, 30_000);

  it('creates a collaboration with its first workspace; the form names each missing field', async () => {
    await signInAs(svc, 'admin');
    const group = (await createGroup({ title: 'Exchange crew', access: 'org' })).group;
    const { user } = renderApp('/collaborations');
    await user.click(await screen.findByRole('button', { name: 'New collaboration' }));
    const dialog = await screen.findByRole('dialog', { name: 'New collaboration' });
    // Contact comes from the profile; clear one to see it named.
    await user.clear(within(dialog).getByRole('textbox', { name: /^Contact e-mail/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create collaboration' }));
    expect(await within(dialog).findByText('Enter a name for the collaboration')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a name for the first workspace')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose the group of yours that exchanges through the workspace')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the contact’s e-mail address')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription('Enter a name for the collaboration');

    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'River monitoring');
    await user.type(within(dialog).getByRole('textbox', { name: /^Description/ }), 'Gauges shared with the partner');
    await user.type(within(dialog).getByRole('textbox', { name: /^Workspace name/ }), 'Gauges');
    await user.click(within(dialog).getByRole('combobox', { name: /^Your group in the workspace/ }));
    await user.click(await screen.findByRole('option', { name: 'Exchange crew' }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Contact e-mail/ }), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Create collaboration' }));
    expect(await within(dialog).findByText('Enter an e-mail address such as name@example.com')).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: /^Contact e-mail/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Contact e-mail/ }), 'gauges@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create collaboration' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New collaboration' })).toBeNull());
    await waitFor(() => expect(screen.getByTestId('announcer-polite')).toHaveTextContent('Collaboration created'));
    expect(await screen.findByRole('table', { name: 'Participants of River monitoring' })).toBeInTheDocument();
    const created = (await listCollaborations(svc.orgId)).collaborations.find((c) => c.name === 'River monitoring')!;
    expect(created.description).toBe('Gauges shared with the partner');
    const [w] = (await listWorkspaces(svc.orgId, created.id)).workspaces;
    expect(w).toMatchObject({ name: 'Gauges', groupId: group.id });
    expect(w.participants[0]).toMatchObject({ portalId: svc.orgId, access: 'sendAndReceive' });

    // A second one with the same name: the portal's refusal lands on the name field.
    await user.click(screen.getByRole('button', { name: 'New collaboration' }));
    const again = await screen.findByRole('dialog', { name: 'New collaboration' });
    await user.type(within(again).getByRole('textbox', { name: /^Name/ }), 'River monitoring');
    await user.type(within(again).getByRole('textbox', { name: /^Workspace name/ }), 'Gauges');
    await user.click(within(again).getByRole('combobox', { name: /^Your group in the workspace/ }));
    await user.click(await screen.findByRole('option', { name: 'Exchange crew' }));
    await user.click(within(again).getByRole('button', { name: 'Create collaboration' }));
    expect(await within(again).findByText(/a collaboration with this name already exists/)).toBeInTheDocument();
  }, 40_000);

  it('invites a participant to a hosted collaboration and hands over the invitation', async () => {
    await signInAs(svc, 'admin');
    const created = (await listCollaborations(svc.orgId)).collaborations.find((c) => c.name === 'River monitoring')!;
    const { user } = renderApp('/collaborations');
    await user.click(await screen.findByRole('button', { name: /^River monitoring/ }));
    const table = await screen.findByRole('table', { name: 'Participants of River monitoring' });
    const panel = table.closest('[role="region"]') as HTMLElement;
    await user.click(within(panel).getByRole('button', { name: 'Invite participant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a participant to River monitoring' });
    // Nothing chosen: both problems named. (The workspaces' fields come with the collaboration's workspaces, read after the dialog opens.)
    await user.click(await within(dialog).findByRole('combobox', { name: 'Guest access to Gauges' }));
    await user.click(await screen.findByRole('option', { name: 'Left out' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    expect(await within(dialog).findByText('Choose the organization to invite')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Guest access to Gauges' })).toHaveValue('Left out');
    expect(within(dialog).getByText('Share at least one workspace with the guest')).toBeInTheDocument();
    // The guest is chosen by name; the host itself is not offered.
    await user.type(within(dialog).getByRole('combobox', { name: /^Guest organization/ }), 'Partn');
    expect(screen.queryByRole('option', { name: 'Demo Organization' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Partner Organization' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Guest access to Gauges' }));
    await user.click(await screen.findByRole('option', { name: 'Receive only' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    const result = await screen.findByRole('dialog', { name: 'Invitation ready' });
    expect(await within(result).findByLabelText('Invitation')).toHaveTextContent('Gauges: receive only');
    const invitationId = within(result).getByLabelText('Invitation ID').textContent;
    expect(invitationId).toMatch(/^[0-9a-f]{32}$/);
    // The guest's administrator sees the same invitation.
    await signInAs(svc, 'partner_admin');
    const { invitations } = await request<{ invitations: { id: string; collaborationId: string }[] }>(`portals/${svc.partnerOrgId}/collaborations/invitations`);
    expect(invitations).toContainEqual(expect.objectContaining({ id: invitationId, collaborationId: created.id }));
  }, 40_000);

  it('a member without the privilege sees why New collaboration is disabled, in visible text', async () => {
    await signInAs(svc, 'user1');
    renderWithProviders(<CollaborationsPage />);
    const button = await screen.findByRole('button', { name: 'New collaboration' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    const reason = screen.getByTestId('disabled-reason');
    expect(reason).toBeVisible();
    expect(reason).toHaveTextContent(/^To create collaborations you need .+\.$/);
    expect(button).toHaveAccessibleDescription(reason.textContent);
  });

  it('is not offered to members without the privilege to manage collaborations', async () => {
    await signInAs(svc, 'user1');
    renderApp('/overview');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(await within(nav).findByRole('link', { name: 'Groups' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Collaborations' })).toBeNull();
  });
});
