/**
 * Federated servers and service webhooks: listServiceWebhooks with every field of the spec's
 * table and its owner filter, the server-administration path (create, read, edit, delete) with
 * its validation and authorization, the per-service limit, and registering servers and services.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { MAX_WEBHOOKS_PER_SERVICE, SECRET_MASK } from '../../../shared/contract/webhooks.ts';

const clock = { t: Date.UTC(2026, 3, 1, 8), now: () => clock.t };
let svc: TestService;
const tokens: Record<string, string> = {};
let serverId: string;

beforeAll(async () => {
  svc = await startService({ clock });
  for (const u of ['admin', 'publisher1', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  serverId = (await svc.post(`portals/${svc.orgId}/servers`, {}, tokens.admin)).servers[0].id;
});
afterAll(() => svc.close());

const list = (params: Record<string, string> = {}, token = tokens.admin, orgId = svc.orgId) =>
  svc.post(`portals/${orgId}/webhooks/listServiceWebhooks`, params, token);
/** POST to the server-administration path (outside /sharing/rest). */
async function admin(path: string, params: Record<string, string> = {}, token = tokens.admin, server = serverId): Promise<any> {
  const res = await svc.app.inject({
    method: 'POST',
    url: `/server/${server}/admin/services${path}`,
    payload: { f: 'json', ...params, ...(token ? { token } : {}) },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}
// Loopback receivers: the test service allows private outbound addresses, and there is no DNS here.
const RECEIVER = 'http://127.0.0.1:9';
const hook = (params: Record<string, string> = {}) => ({ name: 'Edits', hookUrl: `${RECEIVER}/parcels`, ...params });

describe('listServiceWebhooks', () => {
  it('returns the demo webhooks with every field of the spec table', async () => {
    const { webhooks } = await list();
    expect(webhooks).toHaveLength(3);
    const fields = [
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
    ];
    for (const w of webhooks) for (const f of fields) expect(w, f).toHaveProperty(f);
    const parcels = webhooks.find((w: any) => w.serviceName === 'Parcels');
    expect(parcels).toMatchObject({
      folderName: 'Hosted',
      serviceType: 'FeatureServer',
      name: 'Parcel edits',
      changeTypes: ['FeaturesCreated', 'FeaturesUpdated', 'FeaturesDeleted'],
      signatureKey: SECRET_MASK,
      active: true,
      contentType: 'application/json',
      payloadFormat: 'json',
      owner: 'publisher1',
      modifiedId: 'publisher1',
      scheduleInfo: { name: 'Every-20seconds', state: 'enabled', startAt: expect.any(Number), recurrenceInfo: { frequency: 'second', interval: 20 } },
    });
    expect(parcels.lastUpdatedTime).toBe(parcels.createdTime);
    const gp = webhooks.find((w: any) => w.serviceType === 'GPServer');
    expect(gp).toMatchObject({ serviceName: 'BufferTool', folderName: '', changeTypes: ['*'], scheduleInfo: {}, owner: 'admin' });
    expect(webhooks.find((w: any) => w.serviceName === 'Inspections')).toMatchObject({ active: false, signatureKey: '' });
  });

  it('filters by owner with username or userName, case-insensitively; an unknown owner gets none', async () => {
    expect((await list({ username: 'publisher1' })).webhooks.map((w: any) => w.owner)).toEqual(['publisher1', 'publisher1']);
    expect((await list({ userName: 'ADMIN' })).webhooks.map((w: any) => w.serviceName)).toEqual(['BufferTool']);
    expect((await list({ username: 'nobody' })).webhooks).toEqual([]);
    expect((await list({ username: '' })).webhooks).toHaveLength(3);
  });

  it('administrators with manageWebhooks only; another organization sees only its own servers', async () => {
    for (const u of ['publisher1', 'user1', 'partner_admin']) expect((await list({}, tokens[u])).error.code).toBe(403);
    expect((await list({}, '')).error.code).toBe(499);
    expect(await list({}, tokens.partner_admin, svc.partnerOrgId)).toEqual({ webhooks: [] });
  });
});

describe('server administration: service webhooks', () => {
  it('create on a feature service in a folder: the key shown once, lastUpdatedTime = createdTime, listed everywhere', async () => {
    const created = await admin(
      '/Hosted/Parcels.FeatureServer/webhooks/create',
      hook({ changeTypes: 'FeaturesCreated,FeaturesDeleted', signatureKey: 'abc123', active: 'false' }),
    );
    expect(created).toMatchObject({
      success: true,
      name: 'Edits',
      signatureKey: 'abc123',
      changeTypes: ['FeaturesCreated', 'FeaturesDeleted'],
      active: false,
      owner: 'admin',
      modifiedId: 'admin',
      serverId,
    });
    expect(created.createdTime).toBe(clock.t);
    expect(created.lastUpdatedTime).toBe(created.createdTime);
    const one = await admin(`/Hosted/Parcels.FeatureServer/webhooks/${created.id}`);
    expect(one).toMatchObject({ id: created.id, signatureKey: SECRET_MASK, hookUrl: `${RECEIVER}/parcels`, scheduleInfo: { state: 'enabled' } });
    expect((await admin('/Hosted/Parcels.FeatureServer/webhooks')).webhooks.map((w: any) => w.id)).toContain(created.id);
    expect((await list({ username: 'admin' })).webhooks.map((w: any) => w.id)).toContain(created.id);

    clock.t += 5000;
    const edited = await admin(`/Hosted/Parcels.FeatureServer/webhooks/${created.id}/edit`, {
      name: 'Edits v2',
      hookUrl: `${RECEIVER}/v2`,
      changeTypes: JSON.stringify(['*', 'FeaturesUpdated']),
      signatureKey: SECRET_MASK,
      scheduleInfo: JSON.stringify({ name: 'Hourly', state: 'disabled', startAt: 0, recurrenceInfo: { frequency: 'hour', interval: 1 } }),
    });
    expect(edited).toMatchObject({
      success: true,
      name: 'Edits v2',
      changeTypes: ['*'],
      active: false,
      signatureKey: SECRET_MASK,
      lastUpdatedTime: clock.t,
      createdTime: clock.t - 5000,
    });
    expect(edited.scheduleInfo).toEqual({ name: 'Hourly', state: 'disabled', startAt: 0, recurrenceInfo: { frequency: 'hour', interval: 1 } });
    // The key was kept (masked): an edit by publisher1 (the service's owner) records them as modifier.
    const byOwner = await admin(
      `/Hosted/Parcels.FeatureServer/webhooks/${created.id}/edit`,
      { name: 'Edits v3', hookUrl: `${RECEIVER}/v3`, signatureKey: '' },
      tokens.publisher1,
    );
    expect(byOwner).toMatchObject({ modifiedId: 'publisher1', owner: 'admin', signatureKey: '' });

    expect(await admin(`/Hosted/Parcels.FeatureServer/webhooks/${created.id}/delete`)).toEqual({ success: true });
    expect((await admin(`/Hosted/Parcels.FeatureServer/webhooks/${created.id}`)).error.code).toBe(404);
    expect((await list()).webhooks.map((w: any) => w.id)).not.toContain(created.id);
  });

  it('a geoprocessing webhook has changeTypes ["*"] and an empty scheduleInfo; other values are a 400', async () => {
    const gp = await admin('/BufferTool.GPServer/webhooks/create', hook({ name: 'Job done' }));
    expect(gp).toMatchObject({ changeTypes: ['*'], scheduleInfo: {}, serviceType: 'GPServer', folderName: '' });
    const bad = await admin('/BufferTool.GPServer/webhooks/create', hook({ changeTypes: 'FeaturesCreated' }));
    expect(bad.error.code).toBe(400);
    expect(bad.error.fieldErrors.changeTypes).toBeTruthy();
    const badSchedule = await admin(
      '/BufferTool.GPServer/webhooks/create',
      hook({ scheduleInfo: JSON.stringify({ name: 'x', state: 'enabled', startAt: 0, recurrenceInfo: { frequency: 'hour', interval: 1 } }) }),
    );
    expect(badSchedule.error.fieldErrors.scheduleInfo).toBeTruthy();
    expect((await admin('/BufferTool.GPServer/webhooks/create', hook({ changeTypes: '*', scheduleInfo: '{}' }))).success).toBe(true);
  });

  it('bad input is a 400 naming the parameter, and nothing is stored', async () => {
    const before = (await list()).webhooks.length;
    const cases: [Record<string, string>, string][] = [
      [{ name: '' }, 'name'],
      [{ hookUrl: '' }, 'hookUrl'],
      [{ hookUrl: 'ftp://example.com/x' }, 'hookUrl'],
      [{ changeTypes: 'FeaturesCreated,Bogus' }, 'changeTypes'],
      [{ signatureKey: 'not alnum!' }, 'signatureKey'],
      [{ active: 'maybe' }, 'active'],
      [{ contentType: 'text/plain' }, 'contentType'],
      [{ payloadFormat: 'xml' }, 'payloadFormat'],
      [{ scheduleInfo: '{bad json' }, 'scheduleInfo'],
      [{ scheduleInfo: JSON.stringify({ name: 'x', state: 'sometimes', startAt: 0, recurrenceInfo: { frequency: 'hour', interval: 1 } }) }, 'scheduleInfo'],
      [{ name: 'x'.repeat(257) }, 'name'],
    ];
    for (const [params, field] of cases) {
      const res = await admin('/Hosted/Parcels.FeatureServer/webhooks/create', hook(params));
      expect(res.error?.code, JSON.stringify(params)).toBe(400);
      expect(
        Object.keys(res.error.fieldErrors ?? {}).some((k) => k.startsWith(field)),
        `${field}: ${JSON.stringify(res.error)}`,
      ).toBe(true);
    }
    expect((await list()).webhooks.length).toBe(before);
  });

  it('paths: an unknown server or service is 404, a type other than FeatureServer/GPServer is 400, GET on a write is refused', async () => {
    expect((await admin('/Hosted/Parcels.FeatureServer/webhooks', {}, tokens.admin, 'nosuchserver')).error.code).toBe(404);
    expect((await admin('/Hosted/Nothing.FeatureServer/webhooks')).error.code).toBe(404);
    expect((await admin('/Parcels.FeatureServer/webhooks')).error.code).toBe(404); // wrong folder
    expect((await admin('/Hosted/Parcels.MapServer/webhooks')).error.code).toBe(400);
    const res = await svc.app.inject({
      method: 'GET',
      url: `/server/${serverId}/admin/services/Hosted/Parcels.FeatureServer/webhooks/create?f=json&token=${tokens.admin}`,
    });
    expect(res.json().error.code).toBe(405);
    expect((await admin('/Hosted/Parcels.FeatureServer/webhooks/nope/edit', hook())).error.code).toBe(404);
  });

  it('authorization: the owner with the type privilege, administrators with manageWebhooks; nobody from another organization', async () => {
    // publisher1 owns Parcels and holds createFeatureWebhook.
    const own = await admin('/Hosted/Parcels.FeatureServer/webhooks/create', hook({ name: 'Mine' }), tokens.publisher1);
    expect(own).toMatchObject({ success: true, owner: 'publisher1' });
    // …but not the administrator's geoprocessing service.
    expect((await admin('/BufferTool.GPServer/webhooks/create', hook(), tokens.publisher1)).error.code).toBe(403);
    expect((await admin('/BufferTool.GPServer/webhooks', {}, tokens.publisher1)).error.code).toBe(403);
    expect((await admin('/Hosted/Parcels.FeatureServer/webhooks/create', hook(), tokens.user1)).error.code).toBe(403);
    expect((await admin(`/Hosted/Parcels.FeatureServer/webhooks/${own.id}/delete`, {}, tokens.user1)).error.code).toBe(403);
    expect((await admin('/Hosted/Parcels.FeatureServer/webhooks/create', hook(), tokens.partner_admin)).error.code).toBe(403);
    expect((await admin(`/Hosted/Parcels.FeatureServer/webhooks/${own.id}`, {}, tokens.partner_admin)).error.code).toBe(403);
    expect((await admin('/Hosted/Parcels.FeatureServer/webhooks/create', hook(), '')).error.code).toBe(499);
    // Still there.
    expect((await admin(`/Hosted/Parcels.FeatureServer/webhooks/${own.id}`)).name).toBe('Mine');
  });

  it('refusals name what is missing: the type privilege, the ownership, the organization (before the service is looked up)', async () => {
    const detail = async (path: string, token: string) => (await admin(path, {}, token)).error?.details?.[0];
    expect(await detail('/BufferTool.GPServer/webhooks', tokens.publisher1)).toBe('Requires the privilege portal:admin:createGPWebhook.');
    expect(await detail('/Hosted/Parcels.FeatureServer/webhooks', tokens.user1)).toBe('Requires the privilege portal:publisher:createFeatureWebhook.');
    expect(await detail('/Hosted/Parcels.FeatureServer/webhooks', tokens.partner_admin)).toBe('The server is federated with another organization.');
    expect(await detail('/Hosted/Nothing.FeatureServer/webhooks', tokens.partner_admin)).toBe('The server is federated with another organization.');
    expect(await detail('/Hosted/Nothing.FeatureServer/webhooks', tokens.user1)).toBe("Service 'Hosted/Nothing.FeatureServer' does not exist.");
  });

  it(`a service has at most ${MAX_WEBHOOKS_PER_SERVICE} webhooks`, async () => {
    const existing = (await admin('/Hosted/Inspections.FeatureServer/webhooks')).webhooks.length;
    for (let i = existing; i < MAX_WEBHOOKS_PER_SERVICE; i++)
      expect((await admin('/Hosted/Inspections.FeatureServer/webhooks/create', hook({ name: `n${i}` }))).success).toBe(true);
    const over = await admin('/Hosted/Inspections.FeatureServer/webhooks/create', hook({ name: 'one too many' }));
    expect(over.error.code).toBe(400);
    expect(over.error.message).toContain(String(MAX_WEBHOOKS_PER_SERVICE));
  });
});

describe('the registry: servers and services', () => {
  it('register a server, add services, list them; only administrators with manageServers', async () => {
    const reg = await svc.post(`portals/${svc.orgId}/servers/register`, { name: 'Analysis', url: 'https://analysis.example.com/server' }, tokens.admin);
    expect(reg).toMatchObject({
      success: true,
      name: 'Analysis',
      url: 'https://analysis.example.com/server',
      adminUrl: 'https://analysis.example.com/server/admin',
    });
    expect((await svc.post(`portals/${svc.orgId}/servers`, {}, tokens.admin)).servers.map((s: any) => s.id)).toContain(reg.id);
    expect((await svc.post(`portals/${svc.orgId}/servers/register`, { name: 'x', url: 'https://x.example.com' }, tokens.publisher1)).error.code).toBe(403);
    expect((await svc.post(`portals/${svc.orgId}/servers/register`, { name: 'x', url: 'not a url' }, tokens.admin)).error.fieldErrors.url).toBeTruthy();
    expect((await svc.post(`portals/${svc.orgId}/servers`, {}, tokens.partner_admin)).error.code).toBe(403);

    expect(
      await admin('/createService', { serviceName: 'Roads', type: 'FeatureServer', folderName: 'Transport', owner: 'publisher1' }, tokens.admin, reg.id),
    ).toEqual({ success: true });
    expect(
      (await admin('/createService', { serviceName: 'Roads', type: 'FeatureServer', folderName: 'Transport' }, tokens.admin, reg.id)).error.fieldErrors
        .serviceName,
    ).toBeTruthy();
    expect(
      (await admin('/createService', { serviceName: 'Bad name', type: 'FeatureServer' }, tokens.admin, reg.id)).error.fieldErrors.serviceName,
    ).toBeTruthy();
    expect((await admin('/createService', { serviceName: 'X', type: 'MapServer' }, tokens.admin, reg.id)).error.fieldErrors.type).toBeTruthy();
    expect(
      (await admin('/createService', { serviceName: 'X', type: 'GPServer', owner: 'partner_admin' }, tokens.admin, reg.id)).error.fieldErrors.owner,
    ).toBeTruthy();
    expect((await admin('/createService', { serviceName: 'X', type: 'GPServer' }, tokens.partner_admin, reg.id)).error.code).toBe(403);
    expect(await admin('', {}, tokens.admin, reg.id)).toEqual({
      folders: ['Transport'],
      services: [{ folderName: 'Transport', serviceName: 'Roads', type: 'FeatureServer', itemId: null, owner: 'publisher1', webhookCount: 0 }],
    });

    await admin('/Transport/Roads.FeatureServer/webhooks/create', hook({ name: 'Roads edits' }), tokens.publisher1, reg.id);
    const listed = (await list({ username: 'publisher1' })).webhooks.find((w: any) => w.name === 'Roads edits');
    expect(listed).toMatchObject({ serverId: reg.id, folderName: 'Transport', serviceName: 'Roads' });
  });
});
