/**
 * Collaborations (spec §4.12, §5; facts §3.10): the demo collaboration, paged reads, who may do
 * what, the create / workspace / invite / accept path, removing a participant (host only; not the
 * host; not an unknown portal) with its effect on workspaces and its event, and a guest leaving.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { DEMO_COLLABORATION } from './seed.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const word = () => `C${randomUUID().slice(0, 8)}`;
const host = (path: string, params: Record<string, string> = {}, as = 'admin') => svc.post(`portals/${svc.orgId}/collaborations${path}`, params, tokens[as]);
const guest = (path: string, params: Record<string, string> = {}, as = 'partner_admin') =>
  svc.post(`portals/${svc.partnerOrgId}/collaborations${path}`, params, tokens[as]);

async function groupOf(as: string) {
  return (await svc.post('community/createGroup', { title: word(), access: 'org' }, tokens[as])).group.id as string;
}

/** A collaboration hosted by the demo organization with one workspace, the partner invited and joined. */
async function collaborationWithPartner() {
  const created = await host('/createCollaboration', { name: word(), description: 'test' });
  const hostGroup = await groupOf('admin');
  const { workspaceId } = await host(`/${created.id}/addWorkspace`, { name: 'Main', groupId: hostGroup, config: JSON.stringify({ maxItemSizeInMB: 50 }) });
  const { invitationId } = await host(`/${created.id}/inviteParticipant`, {
    participantPortalId: svc.partnerOrgId,
    workspaces: JSON.stringify({ [workspaceId]: 'receive' }),
  });
  const guestGroup = await groupOf('partner_admin');
  expect(await guest('/acceptInvitation', { invitationId, workspaceGroups: JSON.stringify({ [workspaceId]: guestGroup }) })).toEqual({
    success: true,
    collaborationId: created.id,
  });
  return { id: created.id as string, workspaceId: workspaceId as string, hostGroup, guestGroup };
}

describe('the demo collaboration', () => {
  it('the demo organization hosts it; the partner sees it as a guest; both exchange through one workspace', async () => {
    const mine = await host('');
    expect(mine).toMatchObject({ total: 1, start: 1, num: 1, nextStart: -1 });
    const [c] = mine.collaborations;
    expect(c).toMatchObject({
      name: DEMO_COLLABORATION.name,
      collaborationHostPortalId: svc.orgId,
      config: { ownerUsername: 'admin' },
      collaborationRole: 'Host',
      activeParticipants: 2,
      workspaceCount: 1,
    });
    expect((await guest('')).collaborations).toEqual([expect.objectContaining({ id: c.id, collaborationRole: 'Guest' })]);
    const participants = await host(`/${c.id}/participants`);
    expect(participants.participants.map((p: any) => [p.portalInfo.id, p.collaborationRole, p.status])).toEqual([
      [svc.orgId, 'Host', 'active'],
      [svc.partnerOrgId, 'Guest', 'active'],
    ]);
    expect(participants.participants[1].config).toMatchObject({ contactFirstname: 'Parker', contactEmailAddress: 'partner_admin@partner.example.com' });
    const workspaces = await guest(`/${c.id}/workspaces`);
    expect(workspaces.workspaces).toEqual([
      expect.objectContaining({
        name: DEMO_COLLABORATION.workspace,
        collaborationId: c.id,
        config: { maxItemSizeInMB: 1024, maxReplicationPackageSizeInMB: 10240, copyByRefIfCopyFail: false },
      }),
    ]);
    expect(workspaces.workspaces[0].participants.map((p: any) => [p.portalId, p.exchanging])).toEqual([
      [svc.orgId, true],
      [svc.partnerOrgId, true],
    ]);
    expect(await host(`/${c.id}`)).toMatchObject({ id: c.id, name: DEMO_COLLABORATION.name });
    expect((await svc.post(`portals/self/collaborations/${c.id}`, {}, tokens.admin)).id).toBe(c.id);
  });
});

describe('who may read and change collaborations', () => {
  it('members without portal:admin:manageCollaborations, and administrators of another organization, are refused', async () => {
    expect((await host('', {}, 'user1')).error).toMatchObject({ code: 403 });
    expect((await host('', {}, 'partner_admin')).error).toMatchObject({ code: 403 });
    expect((await host('/createCollaboration', { name: word() }, 'user1')).error).toMatchObject({ code: 403 });
  });

  it('an organization not taking part does not see a collaboration', async () => {
    const created = await host('/createCollaboration', { name: word() });
    expect((await guest(`/${created.id}`)).error).toMatchObject({ code: 400, message: expect.stringContaining('does not exist') });
    expect((await guest(`/${created.id}/participants`)).error.code).toBe(400);
  });

  it('only the host adds workspaces and invites', async () => {
    const { id } = await collaborationWithPartner();
    expect((await guest(`/${id}/addWorkspace`, { name: 'Mine' })).error).toMatchObject({ code: 403 });
    expect((await guest(`/${id}/inviteParticipant`, { participantPortalId: svc.orgId, workspaces: '{}' })).error.code).toBe(400);
  });
});

describe('setting one up', () => {
  it('lists are paged', async () => {
    for (let i = 0; i < 3; i++) await host('/createCollaboration', { name: word() });
    const all = await host('', { num: '100' });
    const first = await host('', { num: '2' });
    expect(first).toMatchObject({ total: all.total, start: 1, num: 2, nextStart: 3 });
    const last = await host('', { start: String(all.total), num: '2' });
    expect(last).toMatchObject({ num: 1, nextStart: -1 });
  });

  it('checks names, configs, groups, portals and workspaces', async () => {
    expect((await host('/createCollaboration', {})).error).toMatchObject({ code: 400, fieldErrors: { name: 'is required' } });
    expect((await host('/createCollaboration', { name: 'x'.repeat(129) })).error).toMatchObject({
      code: 400,
      fieldErrors: { name: expect.stringContaining('128') },
    });
    const name = word();
    await host('/createCollaboration', { name });
    expect((await host('/createCollaboration', { name: name.toLowerCase() })).error).toMatchObject({
      code: 400,
      fieldErrors: { name: expect.stringContaining('already exists') },
    });
    const { id } = await host('/createCollaboration', { name: word() });
    expect((await host(`/${id}/addWorkspace`, { name: 'W', config: '{bad' })).error).toMatchObject({
      code: 400,
      fieldErrors: { config: 'must be valid JSON' },
    });
    expect((await host(`/${id}/addWorkspace`, { name: 'W', config: JSON.stringify({ maxItemSizeInMB: 0 }) })).error.code).toBe(400);
    expect((await host(`/${id}/addWorkspace`, { name: 'W', groupId: await groupOf('partner_admin') })).error).toMatchObject({
      code: 400,
      fieldErrors: { groupId: expect.stringContaining('not a group of your organization') },
    });
    const { workspaceId } = await host(`/${id}/addWorkspace`, { name: 'W' });
    const invite = (params: Record<string, string>) => host(`/${id}/inviteParticipant`, params);
    expect((await invite({ participantPortalId: 'nosuchportal', workspaces: JSON.stringify({ [workspaceId]: 'send' }) })).error.fieldErrors).toMatchObject({
      participantPortalId: expect.any(String),
    });
    expect((await invite({ participantPortalId: svc.orgId, workspaces: JSON.stringify({ [workspaceId]: 'send' }) })).error.fieldErrors).toMatchObject({
      participantPortalId: 'must be another portal than the host',
    });
    expect((await invite({ participantPortalId: svc.partnerOrgId, workspaces: JSON.stringify({ other: 'send' }) })).error.fieldErrors).toMatchObject({
      workspaces: expect.stringContaining('not a workspace'),
    });
    expect((await invite({ participantPortalId: svc.partnerOrgId, workspaces: JSON.stringify({ [workspaceId]: 'everything' }) })).error.code).toBe(400);
    expect((await invite({ participantPortalId: svc.partnerOrgId, workspaces: '{}' })).error.code).toBe(400);
  });

  it('the guest sees the invitation, accepts it with its own groups only, and becomes an active participant', async () => {
    const { id } = await host('/createCollaboration', { name: word() });
    const { workspaceId } = await host(`/${id}/addWorkspace`, { name: 'Shared' });
    const { invitationId } = await host(`/${id}/inviteParticipant`, {
      participantPortalId: svc.partnerOrgId,
      workspaces: JSON.stringify({ [workspaceId]: 'send' }),
    });
    expect(
      (await host(`/${id}/inviteParticipant`, { participantPortalId: svc.partnerOrgId, workspaces: JSON.stringify({ [workspaceId]: 'send' }) })).error
        .fieldErrors,
    ).toMatchObject({ participantPortalId: expect.stringContaining('already invited') });
    const { invitations } = await guest('/invitations');
    expect(invitations).toContainEqual(
      expect.objectContaining({
        id: invitationId,
        collaborationId: id,
        hostPortalId: svc.orgId,
        workspaces: [{ id: workspaceId, name: 'Shared', access: 'send' }],
      }),
    );
    expect((await guest(`/${id}`)).error.code).toBe(400);
    expect((await guest('/acceptInvitation', { invitationId, workspaceGroups: JSON.stringify({ [workspaceId]: await groupOf('admin') }) })).error.code).toBe(
      400,
    );
    expect((await guest('/acceptInvitation', { invitationId: 'nosuchinvitation' })).error.code).toBe(400);
    expect(await guest('/acceptInvitation', { invitationId })).toEqual({ success: true, collaborationId: id });
    expect((await guest('/acceptInvitation', { invitationId })).error.code).toBe(400);
    const p = await host(`/${id}/participants/${svc.partnerOrgId}`);
    expect(p).toMatchObject({
      status: 'active',
      collaborationRole: 'Guest',
      workspaces: [{ workspaceId, access: 'send', groupId: null, exchanging: true, stopped: null }],
    });
  });
});

describe('removing a participant', () => {
  async function snapshot() {
    const count = async (sql: string) => (await svc.db.query<{ n: number }>(sql))[0].n;
    return {
      groups: await count('SELECT count(*)::int AS n FROM groups'),
      members: await count('SELECT count(*)::int AS n FROM group_members'),
      users: await count('SELECT count(*)::int AS n FROM users WHERE NOT disabled'),
      items: await count('SELECT count(*)::int AS n FROM items'),
      events: await count('SELECT count(*)::int AS n FROM events'),
      orgs: await count(`SELECT count(*)::int AS n FROM organizations`),
    };
  }

  it('the host removes a guest: its workspace exchange stops, the removal is recorded, nothing else changes', async () => {
    const { id, workspaceId, hostGroup, guestGroup } = await collaborationWithPartner();
    const before = await snapshot();
    expect(await host(`/${id}/participants/${svc.partnerOrgId}/remove`)).toEqual({ success: true, workspacesStopped: [{ id: workspaceId, name: 'Main' }] });
    // The one outbox row is the removal in the organization's history (docs/history.md).
    expect(await snapshot()).toEqual({ ...before, events: before.events + 1 });
    const p = await host(`/${id}/participants/${svc.partnerOrgId}`);
    expect(p.status).toBe('removed');
    expect(p.workspaces).toEqual([expect.objectContaining({ workspaceId, exchanging: false, stopped: expect.any(Number) })]);
    const ws = (await host(`/${id}/workspaces`)).workspaces[0];
    expect(ws.participants.map((x: any) => [x.portalId, x.exchanging, x.groupId])).toEqual([
      [svc.orgId, true, hostGroup],
      [svc.partnerOrgId, false, guestGroup],
    ]);
    expect((await host(`/${id}/events`)).events[0]).toMatchObject({
      operation: 'removeParticipant',
      portalId: svc.orgId,
      username: 'admin',
      properties: { participantPortalId: svc.partnerOrgId, workspacesStopped: [{ id: workspaceId, name: 'Main' }] },
    });
    // The guest no longer sees the collaboration; both groups still exist.
    expect((await guest(`/${id}`)).error.code).toBe(400);
    expect((await svc.post(`community/groups/${guestGroup}`, {}, tokens.partner_admin)).id).toBe(guestGroup);
    // Removing it again: it is no longer a participant.
    expect((await host(`/${id}/participants/${svc.partnerOrgId}/remove`)).error).toMatchObject({ code: 404 });
  });

  it('refuses removing the host (400) and an unknown participant (404); a guest cannot remove (403); GET is refused', async () => {
    const { id } = await collaborationWithPartner();
    expect((await host(`/${id}/participants/${svc.orgId}/remove`)).error).toMatchObject({
      code: 400,
      message: 'The host cannot be removed from its own collaboration.',
    });
    expect((await host(`/${id}/participants/nosuchportal/remove`)).error).toMatchObject({
      code: 404,
      message: 'Participant does not exist or is inaccessible.',
    });
    expect((await guest(`/${id}/participants/${svc.orgId}/remove`)).error).toMatchObject({ code: 403 });
    expect((await host(`/${id}/participants/${svc.partnerOrgId}/remove`, {}, 'user1')).error).toMatchObject({ code: 403 });
    const get = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/portals/${svc.orgId}/collaborations/${id}/participants/${svc.partnerOrgId}/remove?f=json&token=${tokens.admin}`,
    });
    expect(get.json().error.code).toBe(405);
    expect((await host(`/${id}/participants/${svc.partnerOrgId}`)).status).toBe('active');
  });

  it('a removed guest can be invited again and exchanges again once it accepts', async () => {
    const { id, workspaceId } = await collaborationWithPartner();
    await host(`/${id}/participants/${svc.partnerOrgId}/remove`);
    const { invitationId } = await host(`/${id}/inviteParticipant`, {
      participantPortalId: svc.partnerOrgId,
      workspaces: JSON.stringify({ [workspaceId]: 'sendAndReceive' }),
    });
    await guest('/acceptInvitation', { invitationId });
    expect(await host(`/${id}/participants/${svc.partnerOrgId}`)).toMatchObject({
      status: 'active',
      workspaces: [expect.objectContaining({ exchanging: true, access: 'sendAndReceive', stopped: null })],
    });
  });

  it('removing an invited guest cancels its invitation', async () => {
    const { id } = await host('/createCollaboration', { name: word() });
    const { workspaceId } = await host(`/${id}/addWorkspace`, { name: 'W' });
    const { invitationId } = await host(`/${id}/inviteParticipant`, {
      participantPortalId: svc.partnerOrgId,
      workspaces: JSON.stringify({ [workspaceId]: 'send' }),
    });
    expect(await host(`/${id}/participants/${svc.partnerOrgId}/remove`)).toEqual({ success: true, workspacesStopped: [] });
    expect((await guest('/invitations')).invitations.map((i: any) => i.id)).not.toContain(invitationId);
    expect((await guest('/acceptInvitation', { invitationId })).error.code).toBe(400);
  });
});

describe('removeParticipation', () => {
  it('a guest leaves: its exchange stops and it is recorded; the host cannot leave', async () => {
    const { id, workspaceId } = await collaborationWithPartner();
    expect((await host(`/${id}/removeParticipation`)).error).toMatchObject({ code: 400 });
    expect((await guest(`/${id}/removeParticipation`, {}, 'partner_admin')).success).toBe(true);
    const p = await host(`/${id}/participants/${svc.partnerOrgId}`);
    expect(p).toMatchObject({ status: 'left', workspaces: [expect.objectContaining({ workspaceId, exchanging: false })] });
    expect((await host(`/${id}/events`)).events[0]).toMatchObject({ operation: 'removeParticipation', portalId: svc.partnerOrgId, username: 'partner_admin' });
    expect((await guest(`/${id}/removeParticipation`)).error.code).toBe(400);
  });
});
