/**
 * Collaboration invitations from both sides: the guest lists, accepts and declines its
 * invitations; the host reads them as documented (`<id>/invitations`, `<id>/invitations/<id>`),
 * shows a declined one again and invites again; the host finds organizations by name
 * (`participantCandidates`). A third organization sees and answers none of it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { insertOrg } from '../portals/repo.ts';
import { insertBuiltInRoles } from '../roles/repo.ts';
import { createUser as createAccount } from '../users/service.ts';

const THIRD = 'ThirdCollabOrgAA';
let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  await svc.db.tx(async (q) => {
    await insertOrg(q, { id: THIRD, name: 'Third Collaborating Organization', urlKey: 'thirdcollab', now: Date.now() });
    await insertBuiltInRoles(q, THIRD, Date.now());
  });
  await createAccount(svc.app.portal, null, THIRD, {
    username: 'third_collab_admin',
    password: DEMO_PASSWORD,
    email: 'a@third.example.com',
    role: 'org_admin',
  });
  for (const u of ['admin', 'user1', 'partner_admin', 'third_collab_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const word = () => `C${randomUUID().slice(0, 8)}`;
const host = (path: string, params: Record<string, string> = {}, as = 'admin') => svc.post(`portals/${svc.orgId}/collaborations${path}`, params, tokens[as]);
const guest = (path: string, params: Record<string, string> = {}, as = 'partner_admin') =>
  svc.post(`portals/${svc.partnerOrgId}/collaborations${path}`, params, tokens[as]);
const third = (path: string, params: Record<string, string> = {}) => svc.post(`portals/${THIRD}/collaborations${path}`, params, tokens.third_collab_admin);

/** A collaboration of the demo organization with one workspace, the partner invited (not yet answered). */
async function invitedPartner() {
  const created = await host('/createCollaboration', { name: word() });
  const { workspaceId } = await host(`/${created.id}/addWorkspace`, { name: 'Gauges' });
  const invite = () =>
    host(`/${created.id}/inviteParticipant`, { participantPortalId: svc.partnerOrgId, workspaces: JSON.stringify({ [workspaceId]: 'send' }) });
  const { invitationId } = await invite();
  return { id: created.id as string, name: created.name as string, workspaceId: workspaceId as string, invitationId: invitationId as string, invite };
}

const statusOf = async (collaborationId: string, orgId: string) =>
  (await host(`/${collaborationId}/participants`)).participants.find((p: any) => p.portalInfo.id === orgId)?.status;

describe('the guest side', () => {
  it('lists its pending invitations by name, with the workspaces and their access', async () => {
    const c = await invitedPartner();
    const { invitations } = await guest('/invitations');
    expect(invitations).toContainEqual({
      id: c.invitationId,
      collaborationId: c.id,
      collaborationName: c.name,
      hostPortalId: svc.orgId,
      hostPortalName: 'Demo Organization',
      workspaces: [{ id: c.workspaceId, name: 'Gauges', access: 'send' }],
      created: expect.any(Number),
      expires: expect.any(Number),
      expired: false,
    });
    expect((await host('/invitations')).invitations.map((i: any) => i.id)).not.toContain(c.invitationId);
  });

  it('declines: the invitation and the participant say so, the decline is recorded, and it cannot be answered again', async () => {
    const c = await invitedPartner();
    expect(await guest('/declineInvitation', { invitationId: c.invitationId })).toEqual({ success: true, collaborationId: c.id });
    expect((await guest('/invitations')).invitations.map((i: any) => i.id)).not.toContain(c.invitationId);
    expect(await statusOf(c.id, svc.partnerOrgId)).toBe('declined');
    expect((await host(`/${c.id}/invitations/${c.invitationId}`)).status).toBe('declined');
    const [latest] = (await host(`/${c.id}/events`)).events;
    expect(latest).toMatchObject({
      operation: 'declineInvitation',
      portalId: svc.partnerOrgId,
      username: 'partner_admin',
      properties: { invitationId: c.invitationId, participantName: 'Partner Organization' },
    });
    // The partner's own history has the entry (the outbox of the acting organization).
    const [entry] = await svc.db.query<{ operation: string }>(`SELECT operation FROM events WHERE org_id = $1 AND subject_id = $2 ORDER BY seq DESC LIMIT 1`, [
      svc.partnerOrgId,
      c.id,
    ]);
    expect(entry?.operation).toBe('declineInvitation');
    for (const op of ['/declineInvitation', '/acceptInvitation']) {
      expect((await guest(op, { invitationId: c.invitationId })).error).toMatchObject({
        code: 400,
        message: `Invitation '${c.invitationId}' does not exist or is inaccessible.`,
      });
    }
    // The collaboration stays out of the partner's list: it never joined.
    expect((await guest('')).collaborations.map((x: any) => x.id)).not.toContain(c.id);
  });

  it('accepts after the host invited again: one new invitation, the participant active', async () => {
    const c = await invitedPartner();
    await guest('/declineInvitation', { invitationId: c.invitationId });
    const again = await c.invite();
    expect(again).toMatchObject({ success: true });
    expect(again.invitationId).not.toBe(c.invitationId);
    expect(await statusOf(c.id, svc.partnerOrgId)).toBe('invited');
    expect((await guest('/acceptInvitation', { invitationId: again.invitationId })).success).toBe(true);
    expect(await statusOf(c.id, svc.partnerOrgId)).toBe('active');
    const { collaborationInvitations } = await host(`/${c.id}/invitations`);
    expect(collaborationInvitations.map((i: any) => [i.id, i.status])).toEqual([
      [again.invitationId, 'accepted'],
      [c.invitationId, 'declined'],
    ]);
  });
});

describe('the host side', () => {
  it('reads an invitation again as documented, with the guest and workspaces named and its text to hand over', async () => {
    const c = await invitedPartner();
    const inv = await host(`/${c.id}/invitations/${c.invitationId}`);
    expect(inv).toMatchObject({
      id: c.invitationId,
      collaborationId: c.id,
      hostPortalId: svc.orgId,
      guestPortalId: svc.partnerOrgId,
      status: 'host_created',
      config: { invitationRequestFilename: `collaboration-${svc.partnerOrgId}.invite` },
      guestPortalName: 'Partner Organization',
      collaborationName: c.name,
      state: 'pending',
      workspaces: [{ id: c.workspaceId, name: 'Gauges', access: 'send' }],
    });
    expect(JSON.parse(inv.invitationString).invitationRequest).toMatchObject({
      id: c.invitationId,
      collaborationName: c.name,
      hostPortalName: 'Demo Organization',
      guestPortalName: 'Partner Organization',
    });
    expect((await host(`/${c.id}/invitations/${'f'.repeat(32)}`)).error).toMatchObject({ code: 400 });
  });

  it('finds organizations to invite by name, never itself', async () => {
    const all = (await host('/participantCandidates')).portals;
    expect(all.map((p: any) => p.id)).not.toContain(svc.orgId);
    expect(all.map((p: any) => p.name)).toEqual(expect.arrayContaining(['Partner Organization', 'Third Collaborating Organization']));
    expect((await host('/participantCandidates', { q: 'partner' })).portals).toEqual([
      { id: svc.partnerOrgId, name: 'Partner Organization', description: expect.any(String) },
    ]);
    expect((await host('/participantCandidates', { q: '%' })).portals).toEqual([]);
    expect((await host('/participantCandidates', { q: 'x'.repeat(129) })).error).toMatchObject({ code: 400 });
  });
});

describe('refusals', () => {
  it('a third organization neither sees nor answers the invitation, nor reads the host’s invitations', async () => {
    const c = await invitedPartner();
    expect((await third('/invitations')).invitations).toEqual([]);
    for (const op of ['/declineInvitation', '/acceptInvitation']) {
      expect((await third(op, { invitationId: c.invitationId })).error).toMatchObject({ code: 400 });
    }
    expect((await third(`/${c.id}/invitations`)).error).toMatchObject({ code: 400 });
    // Through the partner's path, another organization's administrator is refused outright.
    expect(
      (await svc.post(`portals/${svc.partnerOrgId}/collaborations/declineInvitation`, { invitationId: c.invitationId }, tokens.third_collab_admin)).error,
    ).toMatchObject({ code: 403 });
    expect(await statusOf(c.id, svc.partnerOrgId)).toBe('invited');
  });

  it('the host cannot decline its own invitation; a guest cannot read the host’s invitations; members without the privilege are refused', async () => {
    const c = await invitedPartner();
    expect((await host('/declineInvitation', { invitationId: c.invitationId })).error).toMatchObject({ code: 400 });
    await guest('/acceptInvitation', { invitationId: c.invitationId });
    expect((await guest(`/${c.id}/invitations`)).error).toMatchObject({ code: 403 });
    expect((await guest(`/${c.id}/invitations/${c.invitationId}`)).error).toMatchObject({ code: 403 });
    expect((await host('/participantCandidates', {}, 'user1')).error).toMatchObject({ code: 403 });
    expect((await host(`/${c.id}/invitations`, {}, 'user1')).error).toMatchObject({ code: 403 });
    expect((await host('/declineInvitation', { invitationId: c.invitationId }, 'user1')).error).toMatchObject({ code: 403 });
    expect((await guest('/declineInvitation', {})).error).toMatchObject({ code: 400 });
  });
});
