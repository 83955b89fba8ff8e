/**
 * Esri's own client (@esri/arcgis-rest-request / -portal 4.10.2) against the running local portal
 * over real HTTP: sign-in, the org and self, members, role changes, and how errors surface.
 */
import { getPortal, getSelf, getUser, isOrgAdmin, searchUsers } from '@esri/arcgis-rest-portal';
import { ArcGISAuthError, ArcGISIdentityManager, ArcGISRequestError, ArcGISTokenRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../support/service.ts';
import { rejection } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  admin = await ArcGISIdentityManager.signIn({ username: 'admin', password: DEMO_PASSWORD, portal });
});
afterAll(() => svc.close());

/** The rejection of a promise that must reject. */
describe('sign-in', () => {
  it('signs in with ArcGISIdentityManager and holds a token for 20160 minutes', async () => {
    expect(admin.username).toBe('admin');
    expect(admin.portal).toBe(portal);
    expect(typeof admin.token).toBe('string');
    const lifetime = admin.tokenExpires.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(20159 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(20160 * 60_000);
  });

  it('sent the referer rest-js uses in Node, which the service kept with the token', async () => {
    const rows = await svc.db.query<{ client: string | null; referer: string | null }>(
      `SELECT t.client, t.referer FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.username = 'admin'`,
    );
    expect(rows).toContainEqual({ client: 'referer', referer: '@esri/arcgis-rest-js' });
  });

  it('rejects a wrong password with "Unable to generate token."', async () => {
    const err = await rejection(ArcGISIdentityManager.signIn({ username: 'user1', password: 'not-the-password-1', portal }));
    expect(err instanceof ArcGISTokenRequestError || err instanceof ArcGISRequestError).toBe(true);
    // What rest-js 4.10.2 actually does: the identity manager wraps the generateToken error
    // envelope (an ArcGISRequestError "400: …") in an ArcGISTokenRequestError TOKEN_REFRESH_FAILED.
    expect(err).toBeInstanceOf(ArcGISTokenRequestError);
    expect(err.name).toBe('ArcGISTokenRequestError');
    expect(err.code).toBe('TOKEN_REFRESH_FAILED');
    expect(err.message).toContain('Unable to generate token');
    expect(err.message).toBe('TOKEN_REFRESH_FAILED: 400: Unable to generate token.');
    expect(err.response?.error).toEqual({ code: 400, message: 'Unable to generate token.', details: ['Invalid username or password.'] });
  });

  it('rejects an unknown user the same way', async () => {
    const err = await rejection(ArcGISIdentityManager.signIn({ username: 'nobody_here', password: 'not-the-password-1', portal }));
    expect(err).toBeInstanceOf(ArcGISTokenRequestError);
    expect(err.message).toBe('TOKEN_REFRESH_FAILED: 400: Unable to generate token.');
    expect(err.response?.error?.details).toEqual(['Invalid username or password.']);
  });

  it('a direct generateToken request with a wrong password is an ArcGISRequestError', async () => {
    const err = await rejection(
      request(`${portal}/generateToken`, { params: { username: 'user1', password: 'not-the-password-1', client: 'referer', referer: 'x', expiration: 60 } }),
    );
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err).not.toBeInstanceOf(ArcGISAuthError);
    expect(err.code).toBe(400);
    expect(err.message).toBe('400: Unable to generate token.');
  });
});

describe('the organization and self', () => {
  it('getSelf answers portals/self with the signed-in user', async () => {
    const self = await getSelf({ authentication: admin });
    expect(self).toMatchObject({ id: svc.orgId, name: 'Demo Organization', urlKey: 'demo', maxTokenExpirationMinutes: 20160 });
    expect(self.user).toMatchObject({ username: 'admin', role: 'org_admin' });
  });

  it('getPortal answers portals/<id>, also without authentication', async () => {
    expect(await getPortal(svc.orgId, { authentication: admin })).toMatchObject({ id: svc.orgId, name: 'Demo Organization' });
    const anonymous = await getPortal(svc.partnerOrgId, { portal });
    expect(anonymous).toMatchObject({ id: svc.partnerOrgId, name: 'Partner Organization' });
    expect(anonymous).not.toHaveProperty('user');
  });

  it('identity-manager getPortal and getUser read portals/self and community/self', async () => {
    expect((await admin.getPortal()).id).toBe(svc.orgId);
    expect((await admin.getUser()).username).toBe('admin');
    expect(await admin.getUsername()).toBe('admin');
  });

  it('sees the default administrator as a full org admin: role org_admin and no roleId', async () => {
    const me = await request(`${portal}/community/self`, { authentication: admin, httpMethod: 'GET' });
    expect(me.role).toBe('org_admin');
    expect(Object.keys(me)).not.toContain('roleId');
    expect(me.privileges).toEqual([...me.privileges].sort());
    expect(await isOrgAdmin({ authentication: admin })).toBe(true);
  });

  it('sees viewer1 as no admin: org_user with the Viewer roleId', async () => {
    const viewer = await ArcGISIdentityManager.signIn({ username: 'viewer1', password: DEMO_PASSWORD, portal });
    const me = await request(`${portal}/community/self`, { authentication: viewer });
    expect(me).toMatchObject({ role: 'org_user', roleId: 'iAAAAAAAAAAAAAAA' });
    expect(await isOrgAdmin({ authentication: viewer })).toBe(false);
  });

  it('getUser reads community/users/<u>, hiding the email from other members', async () => {
    const user1 = await ArcGISIdentityManager.signIn({ username: 'user1', password: DEMO_PASSWORD, portal });
    const other = await getUser({ username: 'publisher1', authentication: user1 });
    expect(other).toMatchObject({ username: 'publisher1', role: 'org_publisher', orgId: svc.orgId });
    expect(other).not.toHaveProperty('email');
    expect((await getUser({ username: 'publisher1', authentication: admin })).email).toBe('publisher1@demo.example.com');
  });
});

describe('members', () => {
  it('pages portals/<id>/users through request() (POST, urlencoded)', async () => {
    const seen: string[] = [];
    let start = 1;
    let pages = 0;
    while (start !== -1) {
      const page = await request(`${portal}/portals/${svc.orgId}/users`, { authentication: admin, params: { start, num: 3, sortField: 'username' } });
      expect(page).toMatchObject({ total: 4, start });
      seen.push(...page.users.map((u: { username: string }) => u.username));
      start = page.nextStart;
      pages++;
    }
    expect(pages).toBe(2);
    expect(seen).toEqual(['admin', 'publisher1', 'user1', 'viewer1']);
  });

  it('searchUsers finds members by q, with the paging envelope', async () => {
    const res = await searchUsers({ q: 'role:org_admin', authentication: admin });
    expect(res.total).toBe(1);
    expect(res.results.map((u) => u.username)).toEqual(['admin']);
    expect(res.nextStart).toBe(-1);
    const paged = await searchUsers({ q: '*', num: 2, start: 1, sortField: 'username', authentication: admin });
    expect(paged).toMatchObject({ total: 4, num: 2, nextStart: 3 });
    // rest-js offers nextPage() while nextStart > 0.
    expect(typeof paged.nextPage).toBe('function');
    const next = await paged.nextPage!();
    expect(next.results.map((u) => u.username)).toEqual(['user1', 'viewer1']);
  });

  it('updateUserRole changes a role through request()', async () => {
    const res = await request(`${portal}/portals/${svc.orgId}/updateUserRole`, { authentication: admin, params: { username: 'user1', role: 'org_publisher' } });
    expect(res).toEqual({ success: true, username: 'user1' });
    expect((await getUser({ username: 'user1', authentication: admin })).role).toBe('org_publisher');
    await request(`${portal}/portals/${svc.orgId}/updateUserRole`, { authentication: admin, params: { username: 'user1', role: 'org_user' } });
  });
});

describe('errors as rest-js surfaces them', () => {
  it('499 (no token) is an ArcGISAuthError', async () => {
    const err = await rejection(request(`${portal}/community/self`));
    expect(err).toBeInstanceOf(ArcGISAuthError);
    expect(err.response?.error?.code).toBe(499);
    // rest-js prefers messageCode as the error code.
    expect(err.code).toBe('GWM_0003');
    expect(err.message).toBe('GWM_0003: Token Required');
  });

  it('498 (unknown token) is an ArcGISAuthError with code 498', async () => {
    const stale = new ArcGISIdentityManager({ username: 'admin', token: 'not-a-real-token', tokenExpires: new Date(Date.now() + 3_600_000), portal });
    const err = await rejection(request(`${portal}/community/self`, { authentication: stale }));
    expect(err).toBeInstanceOf(ArcGISAuthError);
    expect(err.code).toBe(498);
    expect(err.message).toBe('498: Invalid token.');
  });

  it('a revoked token is replaced transparently by a session that holds the password', async () => {
    const session = await ArcGISIdentityManager.signIn({ username: 'publisher1', password: DEMO_PASSWORD, portal });
    const first = session.token;
    await request(`${portal}/oauth2/revokeToken`, { params: { auth_token: first } });
    // rest-js gets the 498, generates a new token and replays the request.
    const me = await request(`${portal}/community/self`, { authentication: session });
    expect(me.username).toBe('publisher1');
    expect(session.token).not.toBe(first);
  });

  it('403 is an ArcGISRequestError with code GWM_0003', async () => {
    const user1 = await ArcGISIdentityManager.signIn({ username: 'user1', password: DEMO_PASSWORD, portal });
    const err = await rejection(
      request(`${portal}/portals/${svc.orgId}/updateUserRole`, { authentication: user1, params: { username: 'viewer1', role: 'org_admin' } }),
    );
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err).not.toBeInstanceOf(ArcGISAuthError);
    expect(err.code).toBe('GWM_0003');
    expect(err.response?.error?.code).toBe(403);
    expect(err.message).toMatch(/^GWM_0003: You do not have permissions/);
  });

  it("another organization's member is an ArcGISRequestError from getUser", async () => {
    const partner = await ArcGISIdentityManager.signIn({ username: 'partner_admin', password: DEMO_PASSWORD, portal });
    const err = await rejection(getUser({ username: 'user1', authentication: partner }));
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.message).toBe("400: User 'user1' does not exist or is inaccessible.");
  });

  it('a bad parameter is an ArcGISRequestError with code 400 naming it', async () => {
    const err = await rejection(
      request(`${portal}/portals/${svc.orgId}/updateUserRole`, { authentication: admin, params: { username: 'user1', role: 'org_nonsense' } }),
    );
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.code).toBe(400);
    expect(JSON.stringify(err.response?.error?.details)).toContain("'role'");
  });
});
