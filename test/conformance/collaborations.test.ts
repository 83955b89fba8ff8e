/**
 * Collaborations with Esri's `request()` over real HTTP (rest-js has no wrappers for them):
 * reading the demo collaboration, setting one up, removing a participant and a guest leaving.
 */
import { ArcGISIdentityManager, ArcGISRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service.ts';
import { signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let partner: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, partner] = await signInDemo(portal, 'admin', 'partner_admin');
});
afterAll(() => svc.close());

const host = (path: string, params: Record<string, unknown> = {}, httpMethod: 'GET' | 'POST' = 'POST') =>
  request(`${portal}/portals/${svc.orgId}/collaborations${path}`, { authentication: admin, params, httpMethod });
const guest = (path: string, params: Record<string, unknown> = {}) =>
  request(`${portal}/portals/${svc.partnerOrgId}/collaborations${path}`, { authentication: partner, params });

describe('collaborations with request()', () => {
  it('reads the demo collaboration, its participants and workspaces (GET)', async () => {
    const list = await host('', {}, 'GET');
    expect(list).toMatchObject({ total: 1, start: 1, nextStart: -1, collaborations: [expect.objectContaining({ collaborationHostPortalId: svc.orgId })] });
    const id = list.collaborations[0].id;
    const participants = await host(`/${id}/participants`, {}, 'GET');
    expect(participants.participants.map((p: any) => p.portalInfo.id)).toEqual([svc.orgId, svc.partnerOrgId]);
    const workspaces = await host(`/${id}/workspaces`, {}, 'GET');
    expect(workspaces.workspaces).toHaveLength(1);
  });

  it('sets one up, removes the guest, and refuses removing the host', async () => {
    const { id } = await host('/createCollaboration', { name: 'Conformance collaboration' });
    const { workspaceId } = await host(`/${id}/addWorkspace`, { name: 'Conformance workspace', config: { maxItemSizeInMB: 10 } });
    const { invitationId } = await host(`/${id}/inviteParticipant`, { participantPortalId: svc.partnerOrgId, workspaces: { [workspaceId]: 'receive' } });
    expect(await guest('/acceptInvitation', { invitationId })).toEqual({ success: true, collaborationId: id });
    expect(await host(`/${id}/participants/${svc.partnerOrgId}/remove`)).toMatchObject({
      success: true,
      workspacesStopped: [{ id: workspaceId, name: 'Conformance workspace' }],
    });
    const err = await host(`/${id}/participants/${svc.orgId}/remove`).catch((e) => e);
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.response.error.code).toBe(400);
  });

  it('a guest leaves with removeParticipation', async () => {
    const { id } = await host('/createCollaboration', { name: 'Conformance leaving' });
    const { workspaceId } = await host(`/${id}/addWorkspace`, { name: 'W' });
    const { invitationId } = await host(`/${id}/inviteParticipant`, { participantPortalId: svc.partnerOrgId, workspaces: { [workspaceId]: 'send' } });
    await guest('/acceptInvitation', { invitationId });
    expect(await guest(`/${id}/removeParticipation`)).toMatchObject({ success: true });
    expect((await host(`/${id}/participants/${svc.partnerOrgId}`, {}, 'GET')).status).toBe('left');
  });
});
