/**
 * Demo data: the Demo Organization hosts one collaboration with the Partner Organization, with
 * one workspace both exchange through. Made through the same rules as the REST operations
 * (create, add workspace, invite, accept), as the two administrators. The workspace is not linked
 * to groups, so the demo members' group lists stay as they were; link groups with addWorkspace's
 * `groupId` and acceptInvitation's `workspaceGroups` in a collaboration of your own.
 */
import { COLLABORATION_LIMITS } from '../../../shared/contract/collaborations.ts';
import type { PortalContext } from '../../context.ts';
import { callerFromUser } from '../../http/auth.ts';
import { findUser } from '../users/service.ts';
import { acceptInvitation, addWorkspace, createCollaboration, inviteParticipant } from './service.ts';

export const DEMO_COLLABORATION = { name: 'Demo and Partner field data', workspace: 'Field operations' } as const;

export async function seedDemoCollaboration(ctx: PortalContext, orgIds: string[]): Promise<void> {
  if (!ctx.config.demoData || orgIds.length < 2) return;
  const [hostAdmin, guestAdmin] = await Promise.all([findUser(ctx.db, ctx.config.adminUsername), findUser(ctx.db, 'partner_admin')]);
  if (!hostAdmin || !guestAdmin) return;
  const host = callerFromUser(hostAdmin);
  const guest = callerFromUser(guestAdmin);
  const collaboration = await createCollaboration(ctx, host, host.orgId, {
    name: DEMO_COLLABORATION.name,
    description: 'Field data shared between the two demo organizations.',
  });
  const { workspaceId } = await addWorkspace(ctx, host, host.orgId, collaboration.id, {
    name: DEMO_COLLABORATION.workspace,
    description: 'Survey layers and maps for the field crews of both organizations.',
    access: 'sendAndReceive',
  });
  const { invitationId } = await inviteParticipant(ctx, host, host.orgId, collaboration.id, {
    participantPortalId: guest.orgId,
    workspaces: { [workspaceId]: 'sendAndReceive' },
    expiration: COLLABORATION_LIMITS.invitationExpirationHours.default,
  });
  await acceptInvitation(ctx, guest, guest.orgId, { invitationId, workspaceGroups: {} });
}
