/**
 * Roles and new-member defaults are not wrapped by @esri/arcgis-rest-portal; a console calls them
 * with rest-js `request()` (POST, urlencoded, f=json, token). These run that way over real HTTP and
 * check that rest-js's parameter flattening (objects → JSON text, arrays → comma lists) is what
 * the service reads, and that refusals surface as rest-js errors.
 */
import { createGroup } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, ArcGISRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, user1] = await signInDemo(portal, 'admin', 'user1');
});
afterAll(() => svc.close());

describe('custom roles through request()', () => {
  let roleId: string;
  const rolesUrl = () => `${portal}/portals/${svc.orgId}/roles`;

  it('createRole answers {success, id}', async () => {
    const res = await request(`${portal}/portals/${svc.orgId}/createRole`, {
      authentication: admin,
      params: { name: 'Conformance Editors', description: 'Made with request()' },
    });
    expect(res).toEqual({ success: true, id: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    roleId = res.id;
  });

  it('setPrivileges takes the wrapped object, which rest-js sends as JSON text', async () => {
    const res = await request(`${rolesUrl()}/${roleId}/setPrivileges`, {
      authentication: admin,
      params: { privileges: { privileges: ['portal:user:createItem', 'portal:user:joinGroup', 'features:user:fullEdit'] } },
    });
    expect(res).toEqual({ success: true });
    const read = await request(`${rolesUrl()}/${roleId}/privileges`, { authentication: admin, httpMethod: 'GET' });
    expect(read).toEqual({ id: roleId, privileges: ['features:user:edit', 'features:user:fullEdit', 'portal:user:createItem', 'portal:user:joinGroup'] });
  });

  it('a bare array (rest-js sends it comma-joined) is refused as an ArcGISRequestError naming privileges', async () => {
    const err = await rejection(
      request(`${rolesUrl()}/${roleId}/setPrivileges`, { authentication: admin, params: { privileges: ['portal:user:createItem'] } }),
    );
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.code).toBe(400);
    expect(err.response.error.fieldErrors).toHaveProperty('privileges');
  });

  it('unknown privileges are refused, each one named, and nothing changes', async () => {
    const err = await rejection(
      request(`${rolesUrl()}/${roleId}/setPrivileges`, {
        authentication: admin,
        params: { privileges: { privileges: ['portal:user:createItem', 'portal:user:flyToTheMoon'] } },
      }),
    );
    expect(err.code).toBe(400);
    expect(err.message).toBe('400: Invalid or missing input parameters.');
    expect(err.response.error.details).toEqual(["'portal:user:flyToTheMoon' is not a known privilege."]);
    const read = await request(`${rolesUrl()}/${roleId}/privileges`, { authentication: admin, httpMethod: 'GET' });
    expect(read.privileges).toContain('portal:user:joinGroup');
  });

  it('the roles list, paged, with privileges and member counts', async () => {
    const res = await request(rolesUrl(), { authentication: admin, httpMethod: 'GET', params: { returnPrivileges: true, num: 100 } });
    expect(res).toMatchObject({ total: 3, start: 1, num: 3, nextStart: -1 });
    const mine = res.roles.find((r: { id: string }) => r.id === roleId);
    expect(mine).toMatchObject({ name: 'Conformance Editors', description: 'Made with request()', memberCount: 0 });
    expect(mine.privileges).toContain('features:user:edit');
    const page = await request(`${portal}/portals/self/roles`, { authentication: user1, httpMethod: 'GET', params: { num: 1 } });
    expect(page).toMatchObject({ total: 3, start: 1, num: 1, nextStart: 2 });
    expect(page.roles[0]).not.toHaveProperty('privileges');
  });

  it('a member who is not a default administrator gets the 403 as an ArcGISRequestError (GWM_0003)', async () => {
    const err = await rejection(request(`${rolesUrl()}/${roleId}/delete`, { authentication: user1 }));
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.code).toBe('GWM_0003');
    expect(err.response.error.code).toBe(403);
  });

  it('delete answers {success, roleId}', async () => {
    expect(await request(`${rolesUrl()}/${roleId}/delete`, { authentication: admin })).toEqual({ success: true, roleId });
    const err = await rejection(request(`${rolesUrl()}/${roleId}`, { authentication: admin, httpMethod: 'GET' }));
    expect(err.code).toBe(400);
  });

  it('the built-in Viewer role cannot be deleted', async () => {
    const err = await rejection(request(`${rolesUrl()}/iAAAAAAAAAAAAAAA/delete`, { authentication: admin }));
    expect(err.code).toBe(400);
  });
});

describe('new-member defaults through request()', () => {
  const base = () => `${portal}/portals/${svc.orgId}`;

  it('setUserDefaultSettings reads arrays of ids (comma-joined) and arrays of objects (JSON); userDefaultSettings reads them back', async () => {
    const { group } = await createGroup({ group: { title: 'New members', access: 'org' }, authentication: admin });
    const role = await request(`${base()}/createRole`, { authentication: admin, params: { name: 'Starter' } });
    await request(`${base()}/roles/${role.id}/setPrivileges`, {
      authentication: admin,
      params: { privileges: { privileges: ['portal:user:joinGroup', 'portal:user:viewOrgUsers'] } },
    });
    const res = await request(`${base()}/setUserDefaultSettings`, {
      authentication: admin,
      params: {
        role: role.id,
        userLicenseType: 'creatorUT',
        groups: [group.id],
        userType: 'arcgisonly',
        apps: [{ itemId: 'app1', entitlements: ['e1'] }],
        appBundles: [{ itemId: 'bundle1' }],
      },
    });
    expect(res).toEqual({ success: true });
    expect(await request(`${base()}/userDefaultSettings`, { authentication: admin, httpMethod: 'GET' })).toEqual({
      role: role.id,
      userLicenseType: 'creatorUT',
      groups: [group.id],
      userType: 'arcgisonly',
      apps: [{ itemId: 'app1', entitlements: ['e1'] }],
      appBundles: [{ itemId: 'bundle1' }],
    });
  });

  it('the administrator role is refused as an ArcGISRequestError naming role', async () => {
    const err = await rejection(request(`${base()}/setUserDefaultSettings`, { authentication: admin, params: { role: 'org_admin' } }));
    expect(err.code).toBe(400);
    expect(err.response.error.fieldErrors).toHaveProperty('role');
  });

  it('a member who is not an administrator is refused (403)', async () => {
    const err = await rejection(request(`${base()}/userDefaultSettings/delete`, { authentication: user1 }));
    expect(err.response.error.code).toBe(403);
  });

  it('userDefaultSettings/delete clears them', async () => {
    expect(await request(`${base()}/userDefaultSettings/delete`, { authentication: admin })).toEqual({ success: true });
    expect(await request(`${base()}/userDefaultSettings`, { authentication: admin, httpMethod: 'GET' })).toEqual({
      role: null,
      userLicenseType: null,
      groups: [],
      userType: null,
      apps: [],
      appBundles: [],
    });
  });
});
