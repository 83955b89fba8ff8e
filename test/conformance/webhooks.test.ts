/**
 * Organization webhooks and listServiceWebhooks are not wrapped by @esri/arcgis-rest-portal; a
 * console (or ArcGIS API for Python) calls them with rest-js `request()`. These run that way over
 * real HTTP: rest-js flattens arrays to comma lists and objects to JSON text, lists carry
 * `nextStart`, notificationStatus answers `WebhookStatus`, and refusals surface as rest-js errors.
 */
import { ArcGISIdentityManager, ArcGISRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let user1: ArcGISIdentityManager;
let hooks: string;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, user1] = await signInDemo(portal, 'admin', 'user1');
  hooks = `${portal}/portals/${svc.orgId}/webhooks`;
});
afterAll(() => svc.close());

describe('organization webhooks through request()', () => {
  let id: string;

  it('createWebhook with events as an array and config as an object', async () => {
    const res = await request(`${hooks}/createWebhook`, {
      authentication: admin,
      params: {
        name: 'Conformance hook',
        url: 'http://127.0.0.1:9/hook',
        secret: 'conformanceSecret',
        changes: 'manualChanges',
        events: ['/items', '/groups/add'],
        config: { deactivationPolicy: { numberOfFailures: 3, daysInPast: 2 } },
      },
    });
    expect(res).toMatchObject({ success: true, name: 'Conformance hook', secret: 'conformanceSecret' });
    id = res.id;
  });

  it('the list always has nextStart; a webhook reads back with the masked secret', async () => {
    const list = await request(hooks, { authentication: admin, params: { start: 1, num: 25 } });
    expect(list.nextStart).toBe(-1);
    expect(list.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    const one = await request(`${hooks}/${id}`, { authentication: admin, httpMethod: 'GET' });
    expect(one).toMatchObject({
      id,
      payloadUrl: 'http://127.0.0.1:9/hook',
      secret: '********',
      isActive: true,
      events: ['/items', '/groups/add'],
      config: { deactivationPolicy: { numberOfFailures: 3, daysInPast: 2 } },
    });
  });

  it('update re-sends name, url and events (a comma list), with a new policy', async () => {
    const res = await request(`${hooks}/${id}/update`, {
      authentication: admin,
      params: {
        name: 'Renamed',
        url: 'http://127.0.0.1:9/other',
        events: '/items,/users',
        config: { deactivationPolicy: { numberOfFailures: 10, daysInPast: 1 } },
      },
    });
    expect(res).toEqual({ success: true });
    expect(await request(`${hooks}/${id}`, { authentication: admin })).toMatchObject({
      name: 'Renamed',
      events: ['/items', '/users'],
      secret: '********',
      config: { deactivationPolicy: { numberOfFailures: 10, daysInPast: 1 } },
    });
  });

  it('deactivate, activate, notificationStatus and delete', async () => {
    expect(await request(`${hooks}/${id}/deactivate`, { authentication: admin })).toEqual({ success: true });
    expect((await request(`${hooks}/${id}`, { authentication: admin })).isActive).toBe(false);
    expect(await request(`${hooks}/${id}/activate`, { authentication: admin })).toEqual({ success: true });
    const status = await request(`${hooks}/${id}/notificationStatus`, { authentication: admin, params: { start: 1, num: 100 } });
    expect(status).toMatchObject({ WebhookStatus: [], total: 0, nextStart: -1 });
    expect(await request(`${hooks}/${id}/delete`, { authentication: admin })).toEqual({ success: true });
    const gone = await rejection(request(`${hooks}/${id}`, { authentication: admin }));
    expect(gone).toBeInstanceOf(ArcGISRequestError);
    expect(gone.response.error.code).toBe(404);
  });

  it('settings read and update; a value out of range is a 400 naming it', async () => {
    expect(await request(`${hooks}/settings`, { authentication: admin })).toEqual({
      notificationAttempts: 3,
      notificationTimeOutInSeconds: 10,
      notificationElapsedTimeInSeconds: 5,
    });
    expect(
      await request(`${hooks}/settings/update`, {
        authentication: admin,
        params: { notificationAttempts: 2, notificationTimeOutInSeconds: 30, notificationElapsedTimeInSeconds: 60 },
      }),
    ).toEqual({ success: true });
    expect(await request(`${hooks}/settings`, { authentication: admin })).toEqual({
      notificationAttempts: 2,
      notificationTimeOutInSeconds: 30,
      notificationElapsedTimeInSeconds: 60,
    });
    const bad = await rejection(request(`${hooks}/settings/update`, { authentication: admin, params: { notificationTimeOutInSeconds: 61 } }));
    expect(bad.response.error.code).toBe(400);
    expect(bad.response.error.fieldErrors?.notificationTimeOutInSeconds).toBeTruthy();
  });

  it('a member without the privilege gets a 403 as a rest-js error', async () => {
    const err = await rejection(request(hooks, { authentication: user1 }));
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.response.error.code).toBe(403);
  });
});

describe('listServiceWebhooks through request()', () => {
  it('answers {webhooks} with the spec fields, filtered by userName or username', async () => {
    const all = await request(`${hooks}/listServiceWebhooks`, { authentication: admin });
    expect(all.webhooks.length).toBe(3);
    for (const w of all.webhooks) {
      expect(Object.keys(w)).toEqual(
        expect.arrayContaining([
          'id',
          'folderName',
          'serviceName',
          'serviceType',
          'name',
          'changeTypes',
          'signatureKey',
          'hookUrl',
          'active',
          'contentType',
          'scheduleInfo',
          'payloadFormat',
          'createdTime',
          'lastUpdatedTime',
          'owner',
          'modifiedId',
          'itemId',
        ]),
      );
    }
    const byUserName = await request(`${hooks}/listServiceWebhooks`, { authentication: admin, params: { userName: 'publisher1' } });
    const byUsername = await request(`${hooks}/listServiceWebhooks`, { authentication: admin, params: { username: 'publisher1' } });
    expect(byUserName.webhooks.length).toBe(2);
    expect(byUsername).toEqual(byUserName);
  });

  it('a webhook made on the server-administration path with request() is listed, lastUpdatedTime = createdTime', async () => {
    const { servers } = await request(`${portal}/portals/${svc.orgId}/servers`, { authentication: admin });
    const origin = portal.replace(/\/sharing\/rest$/, '');
    // The local server-administration path takes the portal token itself (no server-token exchange),
    // so it is passed as a parameter rather than through the identity manager.
    const created = await request(`${origin}/server/${servers[0].id}/admin/services/Hosted/Parcels.FeatureServer/webhooks/create`, {
      params: {
        token: admin.token,
        name: 'From rest-js',
        hookUrl: 'http://127.0.0.1:9/parcels',
        changeTypes: ['FeaturesCreated', 'FeaturesUpdated'],
        scheduleInfo: { name: 'Every minute', state: 'enabled', startAt: 0, recurrenceInfo: { frequency: 'minute', interval: 1 } },
      },
    });
    expect(created).toMatchObject({ success: true, changeTypes: ['FeaturesCreated', 'FeaturesUpdated'], scheduleInfo: { name: 'Every minute' } });
    const listed = (await request(`${hooks}/listServiceWebhooks`, { authentication: admin, params: { username: 'admin' } })).webhooks.find(
      (w: { id: string }) => w.id === created.id,
    );
    expect(listed.lastUpdatedTime).toBe(listed.createdTime);
    expect(listed).toMatchObject({ serviceName: 'Parcels', serviceType: 'FeatureServer', owner: 'admin' });
  });

  it('a member without manageWebhooks gets a 403', async () => {
    expect((await rejection(request(`${hooks}/listServiceWebhooks`, { authentication: user1 }))).response.error.code).toBe(403);
  });
});
