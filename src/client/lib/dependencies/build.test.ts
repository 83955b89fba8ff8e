/**
 * The browser graph built against the real service with LOCAL_EXTRAS=off (a portal without the
 * dependency operations), IndexedDB from fake-indexeddb: a layer's dependents through a map and an
 * app, a second build that reads only the changed item's data, a deleted item that disappears,
 * one item's unreadable data that is counted and skipped, and an abort.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addItem, configureApi, deleteItem, updateItem, type AddItemInput } from '../../api/index.ts';
import { recordRequests } from '../../test/requests.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { dependencyAnswerOf, indexGraph } from './answers.ts';
import { apiGraphSource, buildGraph, type BuildProgress, type GraphSource } from './build.ts';
import { graphDatabaseName, openGraphStore } from './store.ts';

const SERVICE = 'http://127.0.0.1:9/arcgis/rest/services/Parcels/FeatureServer';
const OWNER = 'publisher1';

let svc: ClientTestService;
let token: string;
beforeAll(async () => {
  svc = await startClientService({ localExtras: false });
  token = (await svc.tokenFor(OWNER)).token;
}, 60_000);
// Each test starts signed out (test/setup.ts): point the API module at the service again.
beforeEach(() => configureApi({ portalUrl: svc.restUrl, token }));
afterAll(() => svc?.close());

const add = async (input: AddItemInput) => (await addItem(OWNER, undefined, input)).id;
const dataRequests = (sent: { path: string }[]) => sent.filter((r) => /^content\/items\/[0-9a-f]{32}\/data$/.test(r.path)).map((r) => r.path.split('/')[2]);

async function build(options: { source?: GraphSource; signal?: AbortSignal; onProgress?: (p: BuildProgress) => void } = {}) {
  const store = await openGraphStore(svc.restUrl, OWNER);
  try {
    return await buildGraph({ orgId: svc.orgId, store, ...options });
  } finally {
    store.close();
  }
}

describe('the browser graph against a portal without the dependency operations', () => {
  let layer: string;
  let map: string;
  let app: string;

  it('finds a layer’s dependents through a map (depth 1) and an app using the map (depth 2)', async () => {
    layer = await add({ title: 'Parcels', type: 'Feature Service', url: SERVICE });
    map = await add({
      title: 'Parcel map',
      type: 'Web Map',
      text: JSON.stringify({ operationalLayers: [{ id: 'p', url: `${SERVICE}/0` }], baseMap: { baseMapLayers: [] } }),
    });
    app = await add({
      title: 'Parcel viewer',
      type: 'Web Mapping Application',
      url: 'http://127.0.0.1:9/apps/viewer',
      text: JSON.stringify({ values: { webmap: map } }),
    });

    const progress: BuildProgress[] = [];
    const requests = recordRequests();
    const graph = await build({ onProgress: (p) => progress.push(p) }).finally(requests.stop);

    // Only items of types the extractor reads had their data requested: the map and the app, never the service.
    const read = dataRequests(requests.sent);
    expect(read).toEqual(expect.arrayContaining([map, app]));
    expect(read).not.toContain(layer);
    expect(requests.sent.filter((r) => r.path === 'search').every((r) => r.params.get('q') === `orgid:${svc.orgId}` && r.params.get('num') === '100')).toBe(
      true,
    );
    expect(graph.records.get(layer)).toMatchObject({ title: 'Parcels', type: 'Feature Service', owner: OWNER, access: 'private', references: [] });
    expect(graph.meta).toMatchObject({ orgId: svc.orgId, itemsTotal: graph.records.size, itemsRead: graph.records.size, itemsFailed: 0 });
    expect(progress.at(-1)).toEqual({ read: graph.records.size, total: graph.records.size });

    const usedBy = dependencyAnswerOf(indexGraph(graph), layer, 'usedBy', { transitive: true });
    expect(usedBy.items.map((i) => [i.id, i.depth])).toEqual([
      [map, 1],
      [app, 2],
    ]);
    expect(usedBy.edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: map, to: layer, kind: 'layer', value: `${SERVICE}/0` }),
        expect.objectContaining({ from: app, to: map, kind: 'webmap' }),
      ]),
    );
    expect(usedBy).toMatchObject({ hidden: 0, truncated: false, graph: { source: 'browser', builtAt: graph.meta.builtAt } });
  });

  it('a second build reads only the item whose data changed', async () => {
    await updateItem(OWNER, map, { text: JSON.stringify({ operationalLayers: [], baseMap: { baseMapLayers: [] } }) });
    const requests = recordRequests();
    const graph = await build().finally(requests.stop);
    expect(dataRequests(requests.sent)).toEqual([map]);
    expect(dependencyAnswerOf(indexGraph(graph), layer, 'usedBy', { transitive: true }).items).toEqual([]);
    expect(dependencyAnswerOf(indexGraph(graph), app, 'uses').items.map((i) => i.id)).toEqual([map]);
  });

  it('a deleted item disappears from the graph and from IndexedDB', async () => {
    await deleteItem(OWNER, app);
    const graph = await build();
    expect(graph.records.has(app)).toBe(false);
    expect(dependencyAnswerOf(indexGraph(graph), map, 'usedBy').items).toEqual([]);
    expect(() => dependencyAnswerOf(indexGraph(graph), app, 'uses')).toThrow(/does not exist or is inaccessible/);
    const store = await openGraphStore(svc.restUrl, OWNER);
    const stored = await store.read();
    store.close();
    expect(stored?.records.has(app)).toBe(false);
    expect(stored?.records.has(map)).toBe(true);
    expect(stored?.meta.builtAt).toBe(graph.meta.builtAt);
  });

  it('one item’s unreadable data is counted and skipped, and read again next time', async () => {
    const broken = await add({ title: 'Broken map', type: 'Web Map', text: JSON.stringify({ operationalLayers: [{ url: `${SERVICE}/0` }] }) });
    const failing: GraphSource = {
      search: apiGraphSource.search,
      itemData: (id, signal) => (id === broken ? Promise.reject(new Error('no answer')) : apiGraphSource.itemData(id, signal)),
    };
    const graph = await build({ source: failing });
    expect(graph.meta.itemsFailed).toBe(1);
    expect(graph.meta.itemsRead).toBe(graph.meta.itemsTotal - 1);
    expect(graph.records.get(broken)).toMatchObject({ title: 'Broken map', dataFailed: true });

    const requests = recordRequests();
    const again = await build().finally(requests.stop);
    expect(dataRequests(requests.sent)).toEqual([broken]);
    expect(again.meta.itemsFailed).toBe(0);
    expect(dependencyAnswerOf(indexGraph(again), layer, 'usedBy').items.map((i) => i.id)).toEqual([broken]);
  });

  it('an aborted build rejects and writes no new freshness', async () => {
    const store = await openGraphStore(svc.restUrl, OWNER);
    const before = (await store.read())?.meta.builtAt;
    store.close();
    const controller = new AbortController();
    controller.abort();
    await expect(build({ signal: controller.signal })).rejects.toThrow();
    const after = await openGraphStore(svc.restUrl, OWNER);
    expect((await after.read())?.meta.builtAt).toBe(before);
    after.close();
  });

  it('keeps one database per portal and member', () => {
    expect(graphDatabaseName(svc.restUrl, 'publisher1')).not.toBe(graphDatabaseName(svc.restUrl, 'user1'));
    expect(graphDatabaseName('http://127.0.0.1:1/sharing/rest', 'a')).not.toBe(graphDatabaseName('http://127.0.0.1:2/sharing/rest', 'a'));
  });
});
