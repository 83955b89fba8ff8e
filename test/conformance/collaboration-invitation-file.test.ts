/**
 * The documented acceptance, `portals/<portalId>/acceptCollaborationInvitation`: a multipart POST
 * whose `invitationFile` is the file the host exported (its invitation's `invitationString`, named
 * by `config.invitationRequestFilename`), sent with Esri's `request()` over real HTTP. A file that
 * is not an invitation, names another organization, was changed on the way, or is no longer open is
 * refused in the error envelope with the reason, and accepts nothing.
 */
import { ArcGISIdentityManager, ArcGISRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service.ts';
import { signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let partner: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, partner, user1] = await signInDemo(portal, 'admin', 'partner_admin', 'user1');
});
afterAll(() => svc.close());

const host = (path: string, params: Record<string, unknown> = {}, httpMethod: 'GET' | 'POST' = 'POST') =>
  request(`${portal}/portals/${svc.orgId}/collaborations${path}`, { authentication: admin, params, httpMethod });
const accept = (orgId: string, file: File | undefined, authentication = partner) =>
  request(`${portal}/portals/${orgId}/acceptCollaborationInvitation`, {
    authentication,
    params: {
      ...(file ? { invitationFile: file } : {}),
      guestContactFirstname: 'Pat',
      guestContactLastname: 'Partner',
      guestContactEmailAddress: 'pat@example.com',
    },
  });
/** The refusal's envelope ({error:{code, message, details}}), or a failure when the call succeeded. */
const refusal = async (call: Promise<unknown>) => {
  const err = await call.then(
    (answer) => expect.fail(`expected a refusal, got ${JSON.stringify(answer)}`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ArcGISRequestError);
  return (err as ArcGISRequestError).response.error as { code: number; message: string; details: string[] };
};

/** A collaboration with one workspace, the partner invited; the host's exported invitation file. */
async function invitation(name: string) {
  const { id } = await host('/createCollaboration', { name });
  const { workspaceId } = await host(`/${id}/addWorkspace`, { name: `${name} workspace` });
  const { invitationId } = await host(`/${id}/inviteParticipant`, { participantPortalId: svc.partnerOrgId, workspaces: { [workspaceId]: 'send' } });
  const record = await host(`/${id}/invitations/${invitationId}`, {}, 'GET');
  const file = new File([record.invitationString], record.config.invitationRequestFilename, { type: 'application/octet-stream' });
  return { id: id as string, invitationId: invitationId as string, text: record.invitationString as string, file };
}
const statusOf = async (collaborationId: string) => (await host(`/${collaborationId}/participants/${svc.partnerOrgId}`, {}, 'GET')).status;

describe('acceptCollaborationInvitation with the invitation file', () => {
  it('accepts the invitation the host exported, once', async () => {
    const inv = await invitation('File accepted');
    expect(inv.file.name).toBe(`collaboration-${svc.partnerOrgId}.invite`);
    expect(await accept(svc.partnerOrgId, inv.file)).toEqual({ success: true, collaborationId: inv.id });
    expect(await statusOf(inv.id)).toBe('active');
    expect((await host(`/${inv.id}/invitations/${inv.invitationId}`, {}, 'GET')).state).toBe('accepted');
    // The same file again: the invitation is answered.
    const again = await refusal(accept(svc.partnerOrgId, inv.file));
    expect(again).toMatchObject({ code: 400, message: 'Unable to accept the collaboration invitation.' });
    expect(again.details[0]).toMatch(/was already accepted/);
  });

  it('refuses a file that is not an invitation, or none at all', async () => {
    const notJson = await refusal(accept(svc.partnerOrgId, new File(['hello'], 'notes.txt')));
    expect(notJson.details[0]).toMatch(/^'invitationFile' is not a collaboration invitation file/);
    const otherJson = await refusal(accept(svc.partnerOrgId, new File([JSON.stringify({ invitation: {} })], 'x.invite')));
    expect(otherJson.details[0]).toMatch(/has no invitationRequest/);
    const missing = await refusal(accept(svc.partnerOrgId, undefined));
    expect(missing.code).toBe(400);
    expect(missing.details.join(' ')).toMatch(/invitationFile/);
  });

  it('refuses a file for another organization or changed on the way, and accepts nothing', async () => {
    const inv = await invitation('File foreign');
    // The host's own administrator uploads the partner's invitation to the host organization.
    const foreign = await refusal(accept(svc.orgId, inv.file, admin));
    expect(foreign.details[0]).toMatch(/invites another organization/);
    const changed = JSON.parse(inv.text);
    changed.invitationRequest.id = 'f'.repeat(32);
    const tampered = await refusal(accept(svc.partnerOrgId, new File([JSON.stringify(changed)], 'x.invite')));
    expect(tampered.details[0]).toMatch(/did not issue to your organization/);
    expect(await statusOf(inv.id)).toBe('invited');
  });

  it('refuses an invitation that expired when the host removed the guest', async () => {
    const inv = await invitation('File expired');
    await host(`/${inv.id}/participants/${svc.partnerOrgId}/remove`);
    const expired = await refusal(accept(svc.partnerOrgId, inv.file));
    expect(expired.details[0]).toMatch(/has expired/);
    expect(await statusOf(inv.id)).toBe('removed');
  });

  it('is for the organization’s administrators only (portal:admin:manageCollaborations)', async () => {
    const inv = await invitation('File member');
    const member = await refusal(accept(svc.orgId, inv.file, user1));
    expect(member.code).toBe(403);
    // A GET changes nothing.
    const get = await refusal(request(`${portal}/portals/${svc.partnerOrgId}/acceptCollaborationInvitation`, { authentication: partner, httpMethod: 'GET' }));
    expect(get.code).toBeGreaterThanOrEqual(400);
    expect(await statusOf(inv.id)).toBe('invited');
  });
});
