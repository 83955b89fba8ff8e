/** `portals/self` and `portals/<orgId>` (facts §2.2): the organization as members, others and anonymous callers see it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { LIMITS } from '../../../shared/limits.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function portal(path: string, token?: string, method: 'GET' | 'POST' = 'GET') {
  const res =
    method === 'GET'
      ? await svc.app.inject({ method, url: `/sharing/rest/${path}?f=json${token ? `&token=${token}` : ''}` })
      : await svc.app.inject({ method, url: `/sharing/rest/${path}`, payload: { f: 'json', ...(token ? { token } : {}) } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

function expectOrgCard(body: Record<string, unknown>, orgId: string, name: string, urlKey: string) {
  expect(body.error).toBeUndefined();
  expect(body).toMatchObject({
    id: orgId,
    name,
    urlKey,
    isPortal: expect.any(Boolean),
    currentVersion: expect.any(String),
    access: expect.stringMatching(/^(private|public)$/),
    isVerified: false,
    maxTokenExpirationMinutes: LIMITS.maxTokenExpirationMinutes,
  });
  expect(body.subscriptionInfo).toMatchObject({ id: expect.any(String), type: expect.any(String), state: 'active', maxUsers: expect.any(Number) });
  expect(typeof body.created).toBe('number');
}

describe('portals/self', () => {
  it('answers anonymous callers with the first organization and no user', async () => {
    const body = await portal('portals/self');
    expectOrgCard(body, svc.orgId, 'Demo Organization', 'demo');
    expect(body).not.toHaveProperty('user');
    expect(body).not.toHaveProperty('memberCount');
  });

  it('answers a member with their organization and their own user record', async () => {
    const body = await portal('portals/self', tokens.user1);
    expectOrgCard(body, svc.orgId, 'Demo Organization', 'demo');
    expect(body.user).toMatchObject({ username: 'user1', orgId: svc.orgId, role: 'org_user', email: 'user1@demo.example.com' });
    expect(body.user.privileges).toEqual([...body.user.privileges].sort());
  });

  it('answers partner_admin with the partner organization', async () => {
    const body = await portal('portals/self', tokens.partner_admin);
    expectOrgCard(body, svc.partnerOrgId, 'Partner Organization', 'partner');
    expect(body.user).toMatchObject({ username: 'partner_admin', orgId: svc.partnerOrgId, role: 'org_admin' });
    expect(body.user).not.toHaveProperty('roleId');
    expect(body.memberCount).toBe(1);
  });

  it('tells members who may view members how many there are', async () => {
    expect((await portal('portals/self', tokens.admin)).memberCount).toBe(4);
    expect((await portal('portals/self', tokens.viewer1)).memberCount).toBe(4);
  });

  it("shows viewer1's custom role in the user record", async () => {
    const body = await portal('portals/self', tokens.viewer1);
    expect(body.user).toMatchObject({ username: 'viewer1', role: 'org_user', roleId: 'iAAAAAAAAAAAAAAA' });
  });

  it('answers POST as GET', async () => {
    expect(await portal('portals/self', tokens.admin, 'POST')).toEqual(await portal('portals/self', tokens.admin));
    expect(await portal('portals/self', undefined, 'POST')).toEqual(await portal('portals/self'));
  });
});

describe('portals/<orgId>', () => {
  it('answers a member of the organization as portals/self does', async () => {
    expect(await portal(`portals/${svc.orgId}`, tokens.admin)).toEqual(await portal('portals/self', tokens.admin));
  });

  it("shows another organization's card without user or memberCount", async () => {
    const body = await portal(`portals/${svc.orgId}`, tokens.partner_admin);
    expectOrgCard(body, svc.orgId, 'Demo Organization', 'demo');
    expect(body).not.toHaveProperty('user');
    expect(body).not.toHaveProperty('memberCount');
  });

  it('shows any organization to anonymous callers without user or memberCount', async () => {
    const body = await portal(`portals/${svc.partnerOrgId}`);
    expectOrgCard(body, svc.partnerOrgId, 'Partner Organization', 'partner');
    expect(body).not.toHaveProperty('user');
    expect(body).not.toHaveProperty('memberCount');
  });

  it('answers an unknown organization with "does not exist or is inaccessible"', async () => {
    const body = await portal('portals/0123456789ABCDEF', tokens.admin);
    expect(body.error).toMatchObject({ code: 400 });
    expect(body.error.message).toMatch(/does not exist or is inaccessible/);
  });
});

describe('portals/self: default extent, helper services, subscription info', () => {
  it('names a geometry helper on this portal (the request origin) whose description answers and whose operations fail at once', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/sharing/rest/portals/self?f=json', headers: { host: '127.0.0.1:7123' } });
    const body = res.json();
    expect(body.defaultExtent).toMatchObject({ type: 'extent', spatialReference: { wkid: 102100 } });
    expect(body.defaultExtent.xmin).toBeLessThan(body.defaultExtent.xmax);
    const url = new URL(body.helperServices.geometry.url as string);
    expect(url.origin).toBe('http://127.0.0.1:7123');
    const description = await svc.app.inject({ method: 'GET', url: `${url.pathname}?f=json` });
    expect(description.json()).toMatchObject({ serviceDescription: expect.any(String) });
    const project = await svc.app.inject({
      method: 'POST',
      url: `${url.pathname}/project`,
      payload: { f: 'json', geometries: '{}', inSR: '4326', outSR: '3857' },
    });
    expect(project.json().error).toMatchObject({ code: 400, message: 'Unable to complete operation.' });
  });

  it('answers subscriptionInfo (and subscriptioninfo) for the caller’s own organization only', async () => {
    const self = await portal('portals/self', tokens.user1);
    for (const name of ['subscriptionInfo', 'subscriptioninfo']) {
      expect(await portal(`portals/self/${name}`, tokens.user1)).toEqual(self.subscriptionInfo);
    }
    expect((await portal('portals/self/subscriptionInfo')).error).toMatchObject({ code: 499 });
    expect((await portal(`portals/${self.id as string}/subscriptionInfo`, tokens.partner_admin)).error).toMatchObject({ code: 400 });
  });
});
