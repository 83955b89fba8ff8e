/**
 * Demo data: the Demo Organization hosts one collaboration with the Partner Organization, with
 * one workspace through which a group of each exchanges content. Made through the same rules as
 * the REST operations (create, add workspace, invite, accept), as the two administrators.
 */
import type { PortalContext } from '../../context.ts';
import { callerFromUser } from '../../http/auth.ts';
import { createGroup } from '../groups/service.ts';
import { findUser } from '../users/repo.ts';
import { acceptInvitation, addWorkspace, createCollaboration, inviteParticipant } from './service.ts';

export const DEMO_COLLABORATION = { name: 'Demo and Partner field data', workspace: 'Field operations' } as const;

export async function seedDemoCollaboration(ctx: PortalContext, orgIds: string[]): Promise<void> {
  if (!ctx.config.demoData || orgIds.length < 2) return;
  const [hostAdmin, guestAdmin] = await Promise.all([findUser(ctx.db, ctx.config.adminUsername), findUser(ctx.db, 'partner_admin')]);
  if (!hostAdmin || !guestAdmin) return;
  const host = callerFromUser(hostAdmin);
  const guest = callerFromUser(guestAdmin);
  const hostGroup = await createGroup(ctx, host, { title: 'Shared with Partner Organization', access: 'org', description: 'Content exchanged with the Partner Organization through the demo collaboration.' });
  const guestGroup = await createGroup(ctx, guest, { title: 'From Demo Organization', access: 'org', description: 'Content received from the Demo Organization through the demo collaboration.' });
  const collaboration = await createCollaboration(ctx, host, host.orgId, { name: DEMO_COLLABORATION.name, description: 'Field data shared between the two demo organizations.' });
  const { workspaceId } = await addWorkspace(ctx, host, host.orgId, collaboration.id, {
    name: DEMO_COLLABORATION.workspace,
    description: 'Survey layers and maps for the field crews of both organizations.',
    groupId: hostGroup.group.id,
    access: 'sendAndReceive',
  });
  const { invitationId } = await inviteParticipant(ctx, host, host.orgId, collaboration.id, { participantPortalId: guest.orgId, workspaces: { [workspaceId]: 'sendAndReceive' } });
  await acceptInvitation(ctx, guest, guest.orgId, { invitationId, workspaceGroups: { [workspaceId]: guestGroup.group.id } });
}
