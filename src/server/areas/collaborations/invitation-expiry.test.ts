/**
 * Invitations expire as ArcGIS documents them: inviteParticipant's `expiration` (hours), the
 * host's `invitations/<id>/refresh` (72 hours from now, answered as the invitation file) and
 * `invitations/<id>/invalidate`. The clock is the service's own, moved by the test.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../../test/support/service.ts';
import { insertOrg } from '../portals/repo.ts';
import { insertBuiltInRoles } from '../roles/repo.ts';
import { createUser as createAccount } from '../users/service.ts';

const HOUR = 3_600_000;
const THIRD = 'ThirdExpiryOrgAAA';
const clock = { t: Date.UTC(2026, 0, 5, 9) };
let svc: TestService;

/** Tokens minted at the current clock (moving it days ahead would outlive an older token). */
const tokens = new Map<string, string>();
async function token(username: string) {
  const key = `${username}@${clock.t}`;
  if (!tokens.has(key)) tokens.set(key, await svc.tokenFor(username));
  return tokens.get(key)!;
}

beforeAll(async () => {
  svc = await startService({ clock: { now: () => clock.t } });
  await svc.db.tx(async (q) => {
    await insertOrg(q, { id: THIRD, name: 'Third Expiry Organization', urlKey: 'thirdexpiry', now: clock.t });
    await insertBuiltInRoles(q, THIRD, clock.t);
  });
  await createAccount(svc.app.portal, null, THIRD, {
    username: 'third_expiry_admin',
    password: DEMO_PASSWORD,
    email: 'a@third.example.com',
    role: 'org_admin',
  });
});
afterAll(() => svc.close());

const host = async (path: string, params: Record<string, string> = {}, as = 'admin') =>
  svc.post(`portals/${svc.orgId}/collaborations${path}`, params, await token(as));
const guest = async (path: string, params: Record<string, string> = {}) =>
  svc.post(`portals/${svc.partnerOrgId}/collaborations${path}`, params, await token('partner_admin'));

/** A collaboration of the demo organization with one workspace; the partner invited with `expiration` (hours) if given. */
async function invite(expiration?: string) {
  const created = await host('/createCollaboration', { name: `E${randomUUID().slice(0, 8)}` });
  const { workspaceId } = await host(`/${created.id}/addWorkspace`, { name: 'Gauges' });
  const answer = await host(`/${created.id}/inviteParticipant`, {
    participantPortalId: svc.partnerOrgId,
    workspaces: JSON.stringify({ [workspaceId]: 'send' }),
    ...(expiration === undefined ? {} : { expiration }),
  });
  return { id: created.id as string, answer, invitationId: answer.invitationId as string };
}

const hostInvitation = (c: { id: string; invitationId: string }) => host(`/${c.id}/invitations/${c.invitationId}`);
const guestListed = async (invitationId: string) => (await guest('/invitations')).invitations.find((i: any) => i.id === invitationId);

/** POST refresh as the service receives it, for its headers and body (a file, not JSON). */
async function refresh(c: { id: string; invitationId: string }, as = 'admin', orgId = svc.orgId) {
  return svc.app.inject({
    method: 'POST',
    url: `/sharing/rest/portals/${orgId}/collaborations/${c.id}/invitations/${c.invitationId}/refresh`,
    payload: { f: 'json', token: await token(as) },
  });
}

describe('expiration', () => {
  it('stores the hours asked for: the invitation reads open until then and expired after', async () => {
    const c = await invite('24');
    expect(c.answer).toMatchObject({ success: true, expiration: clock.t + 24 * HOUR });
    expect(await hostInvitation(c)).toMatchObject({ status: 'host_created', state: 'pending', expiration: clock.t + 24 * HOUR });
    expect(JSON.parse((await hostInvitation(c)).invitationString).invitationRequest.expiration).toBe(clock.t + 24 * HOUR);
    expect(await guestListed(c.invitationId)).toMatchObject({ expires: clock.t + 24 * HOUR, expired: false });

    clock.t += 24 * HOUR;
    expect(await hostInvitation(c)).toMatchObject({ status: 'expired', state: 'expired' });
    expect((await host(`/${c.id}/invitations`)).collaborationInvitations[0]).toMatchObject({ id: c.invitationId, status: 'expired' });
    expect(await guestListed(c.invitationId)).toMatchObject({ expired: true });
    for (const op of ['/acceptInvitation', '/declineInvitation']) {
      const { error } = await guest(op, { invitationId: c.invitationId });
      expect(error).toMatchObject({ code: 400, message: 'The invitation has expired.' });
      expect(error.details[0]).toMatch(/expired at .*ask Demo Organization to refresh it/);
    }
    const file = new Blob([JSON.stringify({ invitationRequest: { id: c.invitationId, collaborationId: c.id, guestPortalId: svc.partnerOrgId } })]);
    const byFile = await svc.postForm(
      `portals/${svc.partnerOrgId}/acceptCollaborationInvitation`,
      { invitationFile: [file, 'collaboration.invite'] },
      await token('partner_admin'),
    );
    expect(byFile.error).toMatchObject({ code: 400, details: [expect.stringMatching(/expired at .*Ask the host to refresh it/)] });
    // Still invited: the host refreshes rather than inviting twice.
    const again = await host(`/${c.id}/inviteParticipant`, { participantPortalId: svc.partnerOrgId, workspaces: JSON.stringify({ x: 'send' }) });
    expect(again.error.details[0]).toMatch(/already invited \(refresh its invitation if it expired\)/);
  });

  it('lasts 72 hours without one (what a refresh gives)', async () => {
    const c = await invite();
    expect(c.answer.expiration).toBe(clock.t + 72 * HOUR);
  });

  it.each([
    ['soon', 'must be a number of hours (e.g. 72)'],
    ['', 'must be a number of hours (e.g. 72)'],
    ['0', 'must be from 1 to 8760 hours (a year)'],
    ['-5', 'must be from 1 to 8760 hours (a year)'],
    ['8761', 'must be from 1 to 8760 hours (a year)'],
    ['1e9', 'must be from 1 to 8760 hours (a year)'],
    ['1.5', 'must be a whole number of hours'],
  ])('refuses expiration=%j with a 400 that says what it takes', async (value, problem) => {
    const { answer } = await invite(value);
    expect(answer.error).toMatchObject({ code: 400, details: [`'expiration' ${problem}`] });
  });
});

describe('refresh', () => {
  it('extends an expired invitation 72 hours from now and answers the invitation file; the guest may then accept', async () => {
    const c = await invite('1');
    clock.t += 5 * HOUR;
    expect((await hostInvitation(c)).status).toBe('expired');
    const res = await refresh(c);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="collaboration-${svc.partnerOrgId}.invite"`);
    expect(JSON.parse(res.body).invitationRequest).toMatchObject({ id: c.invitationId, guestPortalId: svc.partnerOrgId, expiration: clock.t + 72 * HOUR });
    expect(await hostInvitation(c)).toMatchObject({ status: 'host_created', expiration: clock.t + 72 * HOUR });
    expect(await guestListed(c.invitationId)).toMatchObject({ expired: false });
    expect((await host(`/${c.id}/events`)).events[0]).toMatchObject({ operation: 'refreshInvitation', username: 'admin' });
    expect(await guest('/acceptInvitation', { invitationId: c.invitationId })).toMatchObject({ success: true });
    // Answered: nothing left to refresh or invalidate.
    expect(JSON.parse((await refresh(c)).body).error).toMatchObject({ code: 400, details: [expect.stringMatching(/was accepted: only an invitation/)] });
    expect((await host(`/${c.id}/invitations/${c.invitationId}/invalidate`)).error).toMatchObject({ code: 400 });
  });

  it('is the host administrators’ alone: a member without the privilege, the guest and another organization are refused', async () => {
    const c = await invite('1');
    expect(JSON.parse((await refresh(c, 'user1')).body).error).toMatchObject({ code: 403 });
    expect(JSON.parse((await refresh(c, 'third_expiry_admin')).body).error).toMatchObject({ code: 403 });
    expect(JSON.parse((await refresh(c, 'partner_admin', svc.partnerOrgId)).body).error).toMatchObject({ code: 400 });
    expect(JSON.parse((await refresh({ id: c.id, invitationId: 'f'.repeat(32) })).body).error).toMatchObject({ code: 400 });
    const byGet = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/portals/${svc.orgId}/collaborations/${c.id}/invitations/${c.invitationId}/refresh`,
    });
    expect(byGet.json().error).toMatchObject({ code: 405 });
    expect((await hostInvitation(c)).expiration).toBe(c.answer.expiration);
  });
});

describe('invalidate', () => {
  it('makes the invitation unacceptable, through either way of accepting, and lets the host invite again', async () => {
    const c = await invite();
    expect(await host(`/${c.id}/invitations/${c.invitationId}/invalidate`)).toEqual({ success: true });
    expect(await hostInvitation(c)).toMatchObject({ status: 'invalidated', state: 'invalidated' });
    expect(await guestListed(c.invitationId)).toBeUndefined();
    const { error } = await guest('/acceptInvitation', { invitationId: c.invitationId });
    expect(error).toMatchObject({
      code: 400,
      message: 'The invitation is no longer valid.',
      details: [expect.stringMatching(/Demo Organization invalidated/)],
    });
    const file = new Blob([JSON.stringify({ invitationRequest: { id: c.invitationId, collaborationId: c.id, guestPortalId: svc.partnerOrgId } })]);
    const byFile = await svc.postForm(
      `portals/${svc.partnerOrgId}/acceptCollaborationInvitation`,
      { invitationFile: [file, 'collaboration.invite'] },
      await token('partner_admin'),
    );
    expect(byFile.error).toMatchObject({ code: 400, details: [expect.stringMatching(/host invalidated/)] });
    expect((await host(`/${c.id}/events`)).events[0]).toMatchObject({ operation: 'invalidateInvitation' });
    // Refresh cannot revive it; a new invitation can be sent.
    expect(JSON.parse((await refresh(c)).body).error).toMatchObject({ code: 400 });
    const participants = (await host(`/${c.id}/participants`)).participants;
    expect(participants.find((p: any) => p.portalInfo.id === svc.partnerOrgId).status).toBe('removed');
  });

  it('is the host administrators’ alone', async () => {
    const c = await invite();
    const path = `/${c.id}/invitations/${c.invitationId}/invalidate`;
    expect((await host(path, {}, 'user1')).error).toMatchObject({ code: 403 });
    expect((await svc.post(`portals/${svc.orgId}/collaborations${path}`, {}, await token('third_expiry_admin'))).error).toMatchObject({ code: 403 });
    expect((await guest(path)).error).toMatchObject({ code: 400 });
    expect((await hostInvitation(c)).state).toBe('pending');
  });
});
