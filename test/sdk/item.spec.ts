/**
 * PortalItem (load, fetchData, update, updateThumbnail, fetchRelatedItems) and a WebMap loaded
 * from a portal item whose data names no external layer or basemap URL.
 */
import { expect, test } from './fixtures.ts';
import { addItem, uniqueTag } from './support/data.ts';

/** A minimal web map: no layers, no basemap service, so loading it fetches nothing but the item. */
const WEB_MAP = {
  operationalLayers: [],
  baseMap: { baseMapLayers: [], title: 'No basemap' },
  spatialReference: { wkid: 102100, latestWkid: 3857 },
  version: '2.31',
  authoringApp: 'SDK conformance',
  authoringAppVersion: '1',
};

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

test('PortalItem load, fetchData and update', async ({ app, env }) => {
  const tag = uniqueTag('item');
  const id = await addItem(env.portal.svc, 'publisher1', { title: `${tag} map`, type: 'Web Map', tags: tag, text: JSON.stringify(WEB_MAP) });
  await app.registerToken('publisher1');
  const result = await app.run(
    async ({ id, tag }) => {
      const { Portal, PortalItem } = window.sdk;
      const portal = new Portal({ authMode: 'immediate' });
      await portal.load();
      const item = new PortalItem({ id, portal });
      await item.load();
      const before = { title: item.title, type: item.type, owner: item.owner, tags: item.tags };
      const data = await item.fetchData<{ authoringApp: string }>();
      item.title = `${tag} renamed`;
      item.snippet = 'Updated by the SDK';
      await item.update();
      const reread = new PortalItem({ id, portal });
      await reread.load();
      return { before, authoringApp: data.authoringApp, after: { title: reread.title, snippet: reread.snippet } };
    },
    { id, tag },
  );
  expect(result).toEqual({
    before: { title: `${tag} map`, type: 'Web Map', owner: 'publisher1', tags: [tag] },
    authoringApp: 'SDK conformance',
    after: { title: `${tag} renamed`, snippet: 'Updated by the SDK' },
  });
});

test('PortalItem updateThumbnail with a Blob', async ({ app, env }) => {
  const tag = uniqueTag('thumb');
  const id = await addItem(env.portal.svc, 'publisher1', { title: `${tag} map`, type: 'Web Map', tags: tag, text: '{}' });
  await app.registerToken('publisher1');
  const result = await app.run(
    async ({ id, png }) => {
      const { Portal, PortalItem } = window.sdk;
      const portal = new Portal({ authMode: 'immediate' });
      await portal.load();
      const item = new PortalItem({ id, portal });
      await item.load();
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      await item.updateThumbnail({ thumbnail: new Blob([bytes], { type: 'image/png' }), filename: 'thumb.png' });
      const reread = new PortalItem({ id, portal });
      await reread.load();
      const url = reread.thumbnailUrl;
      const image = url ? await fetch(url) : null;
      return { url, status: image?.status, type: image?.headers.get('content-type') };
    },
    { id, png: PNG_BASE64 },
  );
  expect(result.url).toMatch(new RegExp(`^${env.portal.url}/sharing/rest/content/items/${id}/info/thumbnail/thumb\\.png`));
  expect(result).toMatchObject({ status: 200, type: 'image/png' });
});

test('PortalItem fetchRelatedItems, forward and reverse', async ({ app, env }) => {
  const { svc } = env.portal;
  const tag = uniqueTag('related');
  const mapId = await addItem(svc, 'publisher1', { title: `${tag} map`, type: 'Web Map', tags: tag, text: '{}' });
  const appId = await addItem(svc, 'publisher1', { title: `${tag} app`, type: 'Web Mapping Application', tags: tag, url: 'https://127.0.0.1/app' });
  const related = await svc.post(
    'content/users/publisher1/addRelationship',
    { originItemId: mapId, destinationItemId: appId, relationshipType: 'Map2AppConfig' },
    await svc.tokenFor('publisher1'),
  );
  expect(related.success).toBe(true);
  await app.registerToken('publisher1');
  const result = await app.run(
    async ({ mapId, appId }) => {
      const { Portal, PortalItem } = window.sdk;
      const portal = new Portal({ authMode: 'immediate' });
      await portal.load();
      const map = new PortalItem({ id: mapId, portal });
      const webApp = new PortalItem({ id: appId, portal });
      await Promise.all([map.load(), webApp.load()]);
      const forward = await map.fetchRelatedItems({ relationshipType: 'Map2AppConfig', direction: 'forward' });
      const reverse = await webApp.fetchRelatedItems({ relationshipType: 'Map2AppConfig', direction: 'reverse' });
      return { forward: forward.map((i) => i.id), reverse: reverse.map((i) => i.id) };
    },
    { mapId, appId },
  );
  expect(result).toEqual({ forward: [appId], reverse: [mapId] });
});

test('WebMap from a portal item loads (no external layers)', async ({ app, env }) => {
  const tag = uniqueTag('webmap');
  const id = await addItem(env.portal.svc, 'publisher1', { title: `${tag} web map`, type: 'Web Map', tags: tag, text: JSON.stringify(WEB_MAP) });
  await app.registerToken('publisher1');
  const result = await app.run(async (id) => {
    const { Portal, PortalItem, WebMap } = window.sdk;
    const portal = new Portal({ authMode: 'immediate' });
    await portal.load();
    const webmap = new WebMap({ portalItem: new PortalItem({ id, portal }) });
    await webmap.load();
    return {
      loaded: webmap.loaded,
      title: webmap.portalItem?.title,
      layers: webmap.layers.length,
      wkid: webmap.initialViewProperties?.spatialReference?.wkid,
      authoringApp: webmap.authoringApp,
    };
  }, id);
  expect(result).toEqual({ loaded: true, title: `${tag} web map`, layers: 0, wkid: 102100, authoringApp: 'SDK conformance' });
});
