/**
 * The reference index and content/items/<id>/dependencies | dependents (docs/dependencies.md "On
 * the local portal"): a Feature Service, a Web Map using its layer by id and by URL, a Web Mapping
 * Application showing the map. Kept in step with add, update and delete; relationships are edges;
 * access hides what the caller may not see; bad parameters, other organizations and
 * LOCAL_EXTRAS=off get the API's refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyAnswer } from '../../../shared/contract/dependencies.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

const SERVICE = 'https://127.0.0.1/arcgis/rest/services/Parcels/FeatureServer';
const mapData = (layerId: string) =>
  JSON.stringify({
    operationalLayers: [
      { id: 'parcels', layerType: 'ArcGISFeatureLayer', itemId: layerId, url: `${SERVICE}/0` },
      { id: 'elsewhere', layerType: 'ArcGISFeatureLayer', url: 'https://localhost/arcgis/rest/services/Roads/MapServer/2' },
    ],
    baseMap: { baseMapLayers: [], title: 'None' },
    version: '2.31',
  });
const appData = (mapId: string) => JSON.stringify({ source: 'abc', values: { webmap: mapId, title: 'Parcels viewer' } });

async function add(owner: string, fields: Record<string, string>): Promise<string> {
  const body = await svc.post(`content/users/${owner}/addItem`, fields, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.id as string;
}

const ask = (id: string, direction: 'dependencies' | 'dependents', who = 'admin', params: Record<string, string> = {}) =>
  svc.post(`content/items/${id}/${direction}`, params, tokens[who]) as Promise<DependencyAnswer & { error?: { code: number; message: string } }>;

let layer: string;
let map: string;
let app: string;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  layer = await add('admin', { title: 'Parcels', type: 'Feature Service', url: SERVICE });
  map = await add('admin', { title: 'Parcels map', type: 'Web Map', text: mapData(layer) });
  app = await add('admin', { title: 'Parcels app', type: 'Web Mapping Application', text: appData(map), url: 'https://localhost/apps/parcels' });
});
afterAll(() => svc.close());

describe('dependents and dependencies', () => {
  it('direct dependents of the layer: the map, by id and by its service URL', async () => {
    const a = await ask(layer, 'dependents');
    expect(a).toMatchObject({ itemId: layer, direction: 'usedBy', transitive: false, hidden: 0, truncated: false, urls: [], graph: { source: 'portal' } });
    expect(a.items).toEqual([
      {
        id: map,
        title: 'Parcels map',
        type: 'Web Map',
        owner: 'admin',
        access: 'private',
        contentStatus: null,
        url: null,
        modified: expect.any(Number),
        depth: 1,
      },
    ]);
    // One edge per (from, to, kind): both references counted, the first by path as the example.
    expect(a.edges).toEqual([{ from: map, to: layer, kind: 'layer', count: 2, path: '/operationalLayers/0/itemId', value: layer }]);
  });

  it('transitive dependents: the map at depth 1, the app at depth 2', async () => {
    const a = await ask(layer, 'dependents', 'admin', { transitive: 'true' });
    expect(a.items.map((n) => [n.id, n.depth])).toEqual([
      [map, 1],
      [app, 2],
    ]);
    expect(a.edges).toContainEqual({ from: app, to: map, kind: 'webmap', count: 1, path: '/values/webmap', value: map });
    // maxDepth 1 is the direct answer, and says the depth bound stopped the walk.
    const one = await ask(layer, 'dependents', 'admin', { transitive: 'true', maxDepth: '1' });
    expect(one.items.map((n) => n.id)).toEqual([map]);
    expect(one.truncated).toBe(true);
  });

  it('dependencies of the app: the map, then the layer; a URL that is no item is listed as a URL', async () => {
    const direct = await ask(app, 'dependencies');
    expect(direct.items.map((n) => n.id)).toEqual([map]);
    expect(direct.urls).toEqual([]);
    const all = await ask(app, 'dependencies', 'admin', { transitive: 'true' });
    expect(all.items.map((n) => [n.id, n.depth])).toEqual([
      [map, 1],
      [layer, 2],
    ]);
    expect(all.urls).toEqual([
      {
        from: map,
        url: 'https://localhost/arcgis/rest/services/roads/mapserver',
        kind: 'layer',
        value: 'https://localhost/arcgis/rest/services/Roads/MapServer/2',
      },
    ]);
    // The layer's own URL names itself: no dependency, no URL.
    const own = await ask(layer, 'dependencies');
    expect(own).toMatchObject({ items: [], edges: [], urls: [] });
  });

  it('an update that removes the reference removes the edge; putting it back restores it', async () => {
    const other = await add('admin', { title: 'Other map', type: 'Web Map', text: mapData(layer) });
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).toContain(other);
    await svc.post(`content/users/admin/items/${other}/update`, { text: JSON.stringify({ operationalLayers: [] }) }, tokens.admin);
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).not.toContain(other);
    // A type it does not read: no references either.
    await svc.post(`content/users/admin/items/${other}/update`, { text: mapData(layer), type: 'CSV' }, tokens.admin);
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).not.toContain(other);
    await svc.post(`content/users/admin/items/${other}/update`, { type: 'Web Map' }, tokens.admin);
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).toContain(other);
    await svc.post(`content/users/admin/items/${other}/delete`, {}, tokens.admin);
  });

  it('a URL change moves the service key: references by URL follow it', async () => {
    const svcItem = await add('admin', { title: 'Roads', type: 'Map Service', url: 'https://localhost/arcgis/rest/services/Other/MapServer' });
    expect((await ask(svcItem, 'dependents')).items).toEqual([]);
    await svc.post(`content/users/admin/items/${svcItem}/update`, { url: 'https://LOCALHOST/arcgis/rest/services/Roads/MapServer' }, tokens.admin);
    expect((await ask(svcItem, 'dependents')).items.map((n) => n.id)).toEqual([map]);
    expect((await ask(map, 'dependencies')).urls).toEqual([]);
    await svc.post(`content/users/admin/items/${svcItem}/delete`, {}, tokens.admin);
  });

  it('a relationship is an edge of kind relationship', async () => {
    const form = await add('admin', { title: 'Survey', type: 'Form', text: '{}' });
    expect(
      await svc.post('content/users/admin/addRelationship', { originItemId: form, destinationItemId: layer, relationshipType: 'Survey2Service' }, tokens.admin),
    ).toEqual({
      success: true,
    });
    const a = await ask(layer, 'dependents');
    expect(a.edges).toContainEqual({ from: form, to: layer, kind: 'relationship', count: 1, path: '', value: '', relationshipType: 'Survey2Service' });
    expect((await ask(form, 'dependencies')).items.map((n) => n.id)).toEqual([layer]);
    await svc.post(`content/users/admin/items/${form}/delete`, {}, tokens.admin);
  });

  it('a delete of the map removes its edges', async () => {
    const map2 = await add('admin', { title: 'Doomed map', type: 'Web Map', text: mapData(layer) });
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).toContain(map2);
    await svc.post(`content/users/admin/items/${map2}/delete`, {}, tokens.admin);
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).not.toContain(map2);
    expect(await svc.db.query('SELECT 1 FROM item_references WHERE item_id = $1', [map2])).toEqual([]);
    // The folded rows the walk reads (migration 039) go with it.
    expect(await svc.db.query('SELECT 1 FROM item_reference_edges WHERE item_id = $1', [map2])).toEqual([]);
  });

  it("an edge's count follows the data: the walk reads the references folded per target, kept with each change", async () => {
    const naming = (times: number) => JSON.stringify({ operationalLayers: Array.from({ length: times }, (_, k) => ({ id: `l${k}`, itemId: layer })) });
    const m = await add('admin', { title: 'Names the layer often', type: 'Web Map', text: naming(3) });
    const edgeOf = async (direction: 'dependents' | 'dependencies', id: string) => (await ask(id, direction)).edges.filter((e) => e.from === m);
    expect(await edgeOf('dependents', layer)).toEqual([{ from: m, to: layer, kind: 'layer', count: 3, path: '/operationalLayers/0/itemId', value: layer }]);
    await svc.post(`content/users/admin/items/${m}/update`, { text: naming(5) }, tokens.admin);
    expect((await edgeOf('dependencies', m)).map((e) => e.count)).toEqual([5]);
    await svc.post(`content/users/admin/items/${m}/update`, { text: JSON.stringify({ operationalLayers: [] }) }, tokens.admin);
    expect(await edgeOf('dependents', layer)).toEqual([]);
    await svc.post(`content/users/admin/items/${m}/delete`, {}, tokens.admin);
  });

  it('a web map sent as a file is read too', async () => {
    const body = await svc.postForm(
      'content/users/admin/addItem',
      { title: 'Map from a file', type: 'Web Map', file: [new Blob([mapData(layer)], { type: 'application/json' }), 'map.json'] },
      tokens.admin,
    );
    expect((await ask(layer, 'dependents')).items.map((n) => n.id)).toContain(body.id);
    await svc.post(`content/users/admin/items/${body.id}/delete`, {}, tokens.admin);
  });
});

describe('access', () => {
  it('a member who sees the layer but not the map or the app: neither named nor counted', async () => {
    await svc.post(`content/users/admin/items/${layer}/share`, { org: 'true' }, tokens.admin);
    const a = await ask(layer, 'dependents', 'user1');
    expect(a).toMatchObject({ items: [], edges: [], hidden: 0 });
    const all = await ask(layer, 'dependents', 'user1', { transitive: 'true' });
    expect(all).toMatchObject({ items: [], edges: [], hidden: 0, truncated: false });
    for (const answer of [a, all]) {
      expect(JSON.stringify(answer)).not.toContain(map);
      expect(JSON.stringify(answer)).not.toContain(app);
    }
  });

  it('an item the caller may not see: the same refusal as reading it', async () => {
    const read = await svc.post(`content/items/${map}`, {}, tokens.user1);
    for (const direction of ['dependencies', 'dependents'] as const) {
      const a = await ask(map, direction, 'user1');
      expect(a.error).toEqual(read.error);
      expect(a.error?.code).toBe(400);
    }
    // Another organization's caller.
    const other = await ask(layer, 'dependents', 'partner_admin');
    expect(other.error).toMatchObject({ code: 400, message: 'Item does not exist or is inaccessible.' });
  });

  it('bad parameters get the 400 envelope', async () => {
    for (const maxDepth of ['0', '99', 'x']) {
      const a = await ask(layer, 'dependents', 'admin', { transitive: 'true', maxDepth });
      expect(a.error?.code, maxDepth).toBe(400);
    }
    expect((await ask(layer, 'dependents', 'admin', { transitive: 'maybe' })).error?.code).toBe(400);
  });
});

describe('replacedReferences in history', () => {
  it('an update that only swaps the layer records the swaps; any other edit does not', async () => {
    const next = await add('admin', { title: 'Parcels 2', type: 'Feature Service', url: 'https://127.0.0.1/arcgis/rest/services/Parcels2/FeatureServer' });
    const m = await add('admin', { title: 'Swap map', type: 'Web Map', text: mapData(layer) });
    const swapped = mapData(layer).replaceAll(layer, next).replaceAll('/Parcels/FeatureServer', '/Parcels2/FeatureServer');
    await svc.post(`content/users/admin/items/${m}/update`, { text: swapped }, tokens.admin);
    expect((await ask(next, 'dependents')).items.map((n) => n.id)).toEqual([m]);
    await svc.post(`content/users/admin/items/${m}/update`, { text: JSON.stringify({ operationalLayers: [] }) }, tokens.admin);
    await svc.post(`content/users/admin/items/${m}/update`, { text: 'not json' }, tokens.admin);
    const rows = await svc.db.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM events WHERE subject_id = $1 AND op = 'updateItem' ORDER BY created, seq`,
      [m],
    );
    expect(rows.map((r) => r.data.replacedReferences)).toEqual([
      [
        { from: layer, to: next },
        { from: 'https://127.0.0.1/arcgis/rest/services/Parcels/FeatureServer', to: 'https://127.0.0.1/arcgis/rest/services/Parcels2/FeatureServer' },
      ],
      undefined,
      undefined,
    ]);
    expect(rows.every((r) => r.data.dataChanged === true)).toBe(true);
    expect((await ask(next, 'dependents')).items).toEqual([]);
  });
});

describe('LOCAL_EXTRAS=off', () => {
  it('the operations answer as unknown paths', async () => {
    const off = await startService({ config: { localExtras: false } });
    try {
      const token = await off.tokenFor('admin');
      const id = (await off.post('content/users/admin/addItem', { title: 'L', type: 'Feature Service', url: SERVICE }, token)).id;
      for (const path of [`content/items/${id}/dependencies`, `content/items/${id}/dependents`, `portals/self/dependencies`]) {
        expect((await off.post(path, {}, token)).error, path).toMatchObject({ code: 400, message: 'Invalid URL' });
      }
    } finally {
      await off.close();
    }
  });
});
