import { describe, expect, it } from 'vitest';
import dashboard from './fixtures/dashboard.json';
import featureLayerItem from './fixtures/feature-layer-item.json';
import groupLayer from './fixtures/group-layer.json';
import instantApp from './fixtures/instant-app.json';
import storymap from './fixtures/storymap.json';
import webAppBuilder from './fixtures/web-appbuilder.json';
import webExperience from './fixtures/web-experience.json';
import webMap from './fixtures/web-map.json';
import webMappingApplication from './fixtures/web-mapping-application.json';
import webScene from './fixtures/web-scene.json';
import {
  extractReferences,
  MAX_REFERENCE_DEPTH,
  normalizeItemId,
  normalizeUrl,
  relationshipReferences,
  replaceReference,
  scanReferences,
  serviceKeyOf,
  type Reference,
} from './references.ts';

/** `kind target path` per reference: one line each, easy to read in a failure. */
const lines = (refs: Reference[]) => refs.map((r) => `${r.kind} ${r.target.type === 'item' ? r.target.id : r.target.url} ${r.path}`);

/** The value at a JSON Pointer. */
const get = (root: any, pointer: string): any =>
  pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => node?.[key], root);

const fixture = (f: { item: any; data: any }) => extractReferences(f.item, f.data);

const PARCELS = 'https://127.0.0.1:7101/org123/arcgis/rest/services/parcels/featureserver';

describe('web maps', () => {
  it('reads operational layers, nested group layers, tables and basemap layers', () => {
    expect(lines(fixture(webMap))).toEqual([
      'layer a1000000000000000000000000000001 /operationalLayers/0/itemId',
      `layer ${PARCELS} /operationalLayers/0/url`,
      'layer a1000000000000000000000000000002 /operationalLayers/1/layers/0/itemId',
      'layer https://127.0.0.1:7106/server/rest/services/water/hydrants/featureserver /operationalLayers/1/layers/0/url',
      'layer https://127.0.0.1:7106/server/rest/services/census/mapserver /operationalLayers/1/layers/1/layers/0/url',
      'table a1000000000000000000000000000003 /tables/0/itemId',
      'table https://127.0.0.1:7101/org123/arcgis/rest/services/inspections/featureserver /tables/0/url',
      'basemapLayer https://127.0.0.1:7111/arcgis/rest/services/world_imagery/mapserver /baseMap/baseMapLayers/0/url',
      'basemapLayer c1000000000000000000000000000001 /baseMap/baseMapLayers/1/styleUrl',
    ]);
  });

  it('keeps the value as found, the layer type and the source', () => {
    const [first] = fixture(webMap);
    expect(first).toMatchObject({ value: 'A1000000000000000000000000000001', detail: 'ArcGISFeatureLayer', source: 'data' });
    expect(get(webMap.data, first.path)).toBe(first.value);
  });

  it('every path points at the string it was read from', () => {
    for (const f of [webMap, webScene, webMappingApplication, instantApp, webAppBuilder, dashboard, webExperience, storymap, groupLayer]) {
      for (const ref of fixture(f)) expect(get(f.data, ref.path)).toBe(ref.value);
    }
  });

  it('ignores ids in text (pop-ups, descriptions)', () => {
    expect(lines(fixture(webMap)).join('\n')).not.toContain('a1000000000000000000000000000099');
  });
});

describe('web scenes', () => {
  it('reads operational layers, ground layers, the basemap and slide basemaps', () => {
    expect(lines(fixture(webScene))).toEqual([
      'layer a2000000000000000000000000000001 /operationalLayers/0/itemId',
      'layer https://127.0.0.1:7102/tiles/org123/arcgis/rest/services/buildings/sceneserver /operationalLayers/0/url',
      'basemapLayer https://127.0.0.1:7111/arcgis/rest/services/world_imagery/mapserver /baseMap/baseMapLayers/0/url',
      'groundLayer https://127.0.0.1:7103/arcgis/rest/services/worldelevation3d/terrain3d/imageserver /ground/layers/0/url',
      'basemapLayer c2000000000000000000000000000001 /presentation/slides/0/baseMap/baseMapLayers/0/itemId',
      'basemapLayer https://127.0.0.1:7104/arcgis/rest/services/world_basemap_v2/vectortileserver /presentation/slides/0/baseMap/baseMapLayers/0/styleUrl',
    ]);
  });

  it('reads the deprecated baseMap.elevationLayers and baseMap.groundLayers', () => {
    const data = {
      baseMap: {
        elevationLayers: [{ itemId: 'c2000000000000000000000000000002' }],
        groundLayers: [{ url: 'https://127.0.0.1/arcgis/rest/services/Mesh/SceneServer/layers/0' }],
      },
    };
    expect(lines(extractReferences({ type: 'Web Scene' }, data))).toEqual([
      'groundLayer c2000000000000000000000000000002 /baseMap/elevationLayers/0/itemId',
      'groundLayer https://127.0.0.1/arcgis/rest/services/mesh/sceneserver /baseMap/groundLayers/0/url',
    ]);
  });
});

describe('apps', () => {
  it('configurable app: the template, values.webmap and values.group', () => {
    expect(lines(fixture(webMappingApplication))).toEqual([
      'template e1000000000000000000000000000001 /source',
      'webmap b0000000000000000000000000000001 /values/webmap',
      'group d1000000000000000000000000000001 /values/group',
    ]);
  });

  it('Instant App: values.webmap as a list and values.webscene; a draft copy is not read', () => {
    expect(lines(fixture(instantApp))).toEqual([
      'template e1000000000000000000000000000002 /source',
      'webmap b0000000000000000000000000000001 /values/webmap/0',
      'webmap b0000000000000000000000000000005 /values/webmap/1',
      'webscene b0000000000000000000000000000002 /values/webscene',
    ]);
  });

  it('values.webmaps as objects with id or itemId', () => {
    const data = { values: { webmaps: [{ id: 'b0000000000000000000000000000001' }, { itemId: 'b0000000000000000000000000000005' }, 'x'] } };
    expect(lines(extractReferences({ type: 'Web Mapping Application' }, data))).toEqual([
      'webmap b0000000000000000000000000000001 /values/webmaps/0/id',
      'webmap b0000000000000000000000000000005 /values/webmaps/1/itemId',
    ]);
  });

  it('Web AppBuilder: map.itemId with its portal, and data sources', () => {
    const refs = fixture(webAppBuilder);
    expect(lines(refs)).toEqual([
      'webmap b0000000000000000000000000000001 /map/itemId',
      'dataSource a1000000000000000000000000000004 /dataSource/dataSources/external_0/itemId',
      'dataSource https://127.0.0.1:7101/org123/arcgis/rest/services/permits/featureserver /dataSource/dataSources/external_0/url',
    ]);
    expect(refs[0].portalUrl).toBe('https://127.0.0.1:7105');
  });

  it('Experience Builder: data sources, child data sources and their portal', () => {
    const refs = fixture(webExperience);
    expect(lines(refs)).toEqual([
      'dataSource b0000000000000000000000000000001 /dataSources/dataSource_1/itemId',
      `dataSource ${PARCELS} /dataSources/dataSource_1/childDataSourceJsons/Parcels_4563/url`,
      'dataSource a1000000000000000000000000000004 /dataSources/dataSource_2/itemId',
      'dataSource https://127.0.0.1:7107/server/rest/services/permits/featureserver /dataSources/dataSource_2/url',
    ]);
    expect(refs.map((r) => r.portalUrl)).toEqual(['https://127.0.0.1:7105', undefined, 'https://127.0.0.1:7107/portal', 'https://127.0.0.1:7107/portal']);
    expect(refs[0].detail).toBe('WEB_MAP');
  });

  it('dashboards: the map widget, dataset sources (widgets and panels), other widgets with an item', () => {
    expect(lines(fixture(dashboard))).toEqual([
      'webmap b0000000000000000000000000000001 /widgets/0/itemId',
      'dataSource a1000000000000000000000000000004 /widgets/1/datasets/0/dataSource/itemId',
      'widget b0000000000000000000000000000006 /widgets/3/itemId',
      'dataSource a1000000000000000000000000000003 /headerPanel/selectors/0/datasets/0/dataSource/itemId',
    ]);
  });

  it('dashboards: a newer layout (desktopView) is read the same way', () => {
    const data = { desktopView: { widgets: [{ type: 'mapWidget', itemId: 'b0000000000000000000000000000001' }] } };
    expect(lines(extractReferences({ type: 'Dashboard' }, data))).toEqual(['webmap b0000000000000000000000000000001 /desktopView/widgets/0/itemId']);
  });

  it('StoryMaps: resources with data.itemId, with the resource type', () => {
    const refs = fixture(storymap);
    expect(lines(refs)).toEqual([
      'storyResource b0000000000000000000000000000001 /resources/r-map/data/itemId',
      'storyResource b0000000000000000000000000000002 /resources/r-scene/data/itemId',
    ]);
    expect(refs[0].detail).toBe('webmap');
  });

  it('Group Layer items: their layers', () => {
    expect(lines(fixture(groupLayer))).toEqual(['layer a1000000000000000000000000000001 /layers/0/itemId', `layer ${PARCELS} /layers/0/url`]);
  });
});

describe('service items and relationships', () => {
  it('an item whose url is a layer of a service references the service root', () => {
    expect(fixture(featureLayerItem)).toEqual([
      { target: { type: 'url', url: PARCELS }, kind: 'serviceUrl', source: 'item', path: '/url', value: featureLayerItem.item.url },
    ]);
  });

  it('an item whose url is the service root itself references nothing; its key matches its layers', () => {
    const root = { type: 'Feature Service', url: 'https://127.0.0.1:7101/Org123/arcgis/rest/services/Parcels/FeatureServer' };
    expect(extractReferences(root, null)).toEqual([]);
    expect(serviceKeyOf(root)).toBe(PARCELS);
    expect(serviceKeyOf(featureLayerItem.item)).toBe(PARCELS);
    expect(serviceKeyOf({ type: 'Web Mapping Application', url: 'https://127.0.0.1:7110/apps/viewer/index.html?appid=1' })).toBeUndefined();
  });

  it('relationships become references of kind relationship', () => {
    const related = [{ id: 'A1000000000000000000000000000001', title: 'Parcels' }, { id: 'nope' }, null, 'b0000000000000000000000000000001'];
    expect(relationshipReferences('Map2Service', related)).toEqual([
      {
        target: { type: 'item', id: 'a1000000000000000000000000000001' },
        kind: 'relationship',
        source: 'relationship',
        path: '',
        value: 'A1000000000000000000000000000001',
        relationshipType: 'Map2Service',
      },
      {
        target: { type: 'item', id: 'b0000000000000000000000000000001' },
        kind: 'relationship',
        source: 'relationship',
        path: '',
        value: 'b0000000000000000000000000000001',
        relationshipType: 'Map2Service',
      },
    ]);
    expect(relationshipReferences('Map2Service', { relatedItems: 'x' })).toEqual([]);
  });
});

describe('normalising', () => {
  it('item ids: 32 hex digits, any case, to lower case', () => {
    expect(normalizeItemId('ABCDEF0123456789ABCDEF0123456789')).toBe('abcdef0123456789abcdef0123456789');
    expect(normalizeItemId(' abcdef0123456789abcdef0123456789 ')).toBe('abcdef0123456789abcdef0123456789');
    for (const bad of ['abcdef0123456789abcdef012345678', 'abcdef0123456789abcdef0123456789a', 'g'.repeat(32), 42, null, undefined, {}]) {
      expect(normalizeItemId(bad)).toBeUndefined();
    }
  });

  it.each([
    ['https://localhost/arcgis/rest/services/Parcels/FeatureServer/0', 'https://localhost/arcgis/rest/services/parcels/featureserver'],
    ['https://localhost/arcgis/rest/services/Parcels/FeatureServer/', 'https://localhost/arcgis/rest/services/parcels/featureserver'],
    ['https://localhost/arcgis/rest/services/Parcels/FeatureServer//', 'https://localhost/arcgis/rest/services/parcels/featureserver'],
    [
      'https://LocalHost/ArcGIS/rest/services/Folder/Parcels/MapServer/2/query?where=1%3D1&f=json',
      'https://localhost/arcgis/rest/services/folder/parcels/mapserver',
    ],
    ['http://localhost:80/arcgis/rest/services/Parcels/FeatureServer#x', 'https://localhost/arcgis/rest/services/parcels/featureserver'],
    ['https://localhost:443/arcgis/rest/services/Parcels/FeatureServer', 'https://localhost/arcgis/rest/services/parcels/featureserver'],
    ['//localhost/arcgis/rest/services/Parcels/ImageServer', 'https://localhost/arcgis/rest/services/parcels/imageserver'],
    [
      'https://localhost:6443/arcgis/rest/services/Tiles/VectorTileServer/resources/styles/root.json',
      'https://localhost:6443/arcgis/rest/services/tiles/vectortileserver',
    ],
    ['https://localhost/arcgis/services/Parcels/MapServer/WMSServer?request=GetCapabilities', 'https://localhost/arcgis/services/parcels/mapserver'],
    // Not an ArcGIS service: the path keeps its case; query and trailing slash go.
    ['https://127.0.0.1:7108/Files/Stations.CSV?x=1', 'https://127.0.0.1:7108/Files/Stations.CSV'],
    ['https://127.0.0.1:7108/', 'https://127.0.0.1:7108'],
  ])('%s → %s', (url, key) => {
    expect(normalizeUrl(url)).toBe(key);
  });

  it('not URLs: undefined', () => {
    for (const bad of ['', 'relative/path/FeatureServer/0', 'ftp://127.0.0.1/x', 'https://', 42, null]) expect(normalizeUrl(bad)).toBeUndefined();
  });

  it('layer URLs of one service give one key, so a map layer matches the Feature Service item', () => {
    const layerRefs = fixture(webMap).filter((r) => r.target.type === 'url' && r.target.url === serviceKeyOf(featureLayerItem.item));
    expect(layerRefs.map((r) => r.path)).toEqual(['/operationalLayers/0/url']);
  });
});

describe('replaceReference', () => {
  const deepFreeze = <T>(v: T): T => {
    if (v && typeof v === 'object') {
      Object.values(v).forEach(deepFreeze);
      Object.freeze(v);
    }
    return v;
  };

  it('replaces an item id at every place it is read, and nowhere else', () => {
    const data = deepFreeze(structuredClone(webMap.data));
    const before = JSON.stringify(data);
    const { data: out, paths } = replaceReference(data, 'a1000000000000000000000000000001', 'F1000000000000000000000000000001', { itemType: 'Web Map' });
    expect(paths).toEqual(['/operationalLayers/0/itemId']);
    expect(get(out, '/operationalLayers/0/itemId')).toBe('f1000000000000000000000000000001');
    expect(JSON.stringify(data)).toBe(before);
    // Unchanged branches are shared, changed ones copied.
    expect((out as any).baseMap).toBe(data.baseMap);
    expect((out as any).operationalLayers).not.toBe(data.operationalLayers);
  });

  it('replaces a service URL keeping each layer and query, and round-trips', () => {
    const data = deepFreeze(structuredClone(webMap.data));
    const from = 'https://127.0.0.1:7101/Org123/arcgis/rest/services/Parcels/FeatureServer';
    const to = 'https://127.0.0.1:7101/Org123/arcgis/rest/services/Parcels_v2/FeatureServer/0';
    const a = replaceReference(data, from, to, { itemType: 'Web Map' });
    expect(a.paths).toEqual(['/operationalLayers/0/url']);
    expect(get(a.data, '/operationalLayers/0/url')).toBe('https://127.0.0.1:7101/Org123/arcgis/rest/services/Parcels_v2/FeatureServer/0');
    const b = replaceReference(a.data, to, from, { itemType: 'Web Map' });
    expect(b.data).toEqual(webMap.data);
  });

  it('keeps a query string and replaces inside URLs that hold an item id', () => {
    const hydrants = 'https://127.0.0.1:7106/server/rest/services/Water/Hydrants/FeatureServer';
    const { data } = replaceReference(webMap.data, hydrants, 'https://127.0.0.1:7109/server/rest/services/Water/Hydrants2/FeatureServer', {
      itemType: 'Web Map',
    });
    expect(get(data, '/operationalLayers/1/layers/0/url')).toBe('https://127.0.0.1:7109/server/rest/services/Water/Hydrants2/FeatureServer/3?token=abc');
    const style = replaceReference(webMap.data, 'c1000000000000000000000000000001', 'c1000000000000000000000000000002', { itemType: 'Web Map' });
    expect(style.paths).toEqual(['/baseMap/baseMapLayers/1/styleUrl']);
    expect(get(style.data, style.paths[0])).toBe(
      'https://127.0.0.1:7105/sharing/rest/content/items/c1000000000000000000000000000002/resources/styles/root.json',
    );
  });

  it.each([
    ['configurable app', webMappingApplication, 'b0000000000000000000000000000001', ['/values/webmap']],
    ['Instant App', instantApp, 'b0000000000000000000000000000005', ['/values/webmap/1']],
    ['dashboard', dashboard, 'a1000000000000000000000000000004', ['/widgets/1/datasets/0/dataSource/itemId']],
    ['Experience Builder', webExperience, 'b0000000000000000000000000000001', ['/dataSources/dataSource_1/itemId']],
    ['StoryMap', storymap, 'b0000000000000000000000000000002', ['/resources/r-scene/data/itemId']],
  ])('%s: replaces by item type and round-trips', (_name, f, id, expected) => {
    const data = deepFreeze(structuredClone(f.data));
    const a = replaceReference(data, id, 'ffffffffffffffffffffffffffffffff', { itemType: f.item.type });
    expect(a.paths).toEqual(expected);
    expect(extractReferences(f.item, a.data).some((r) => r.target.type === 'item' && r.target.id === id)).toBe(false);
    const b = replaceReference(a.data, 'ffffffffffffffffffffffffffffffff', id, { itemType: f.item.type });
    expect(b.paths).toEqual(expected);
    // Back to the original, except that ids are written in lower case.
    const expectedData = structuredClone(f.data) as any;
    for (const p of expected) {
      const keys = p.split('/').slice(1);
      const parent = keys.slice(0, -1).reduce((node: any, k) => node[k], expectedData);
      parent[keys[keys.length - 1]] = String(get(f.data, p)).toLowerCase();
    }
    expect(b.data).toEqual(expectedData);
  });

  it('without an item type every reader is tried, each place changed once', () => {
    const { paths } = replaceReference(webMap.data, 'a1000000000000000000000000000001', 'f1000000000000000000000000000001');
    expect(paths).toEqual(['/operationalLayers/0/itemId']);
  });

  it('nothing to replace: same data back, no paths', () => {
    const r = replaceReference(webMap.data, 'ffffffffffffffffffffffffffffffff', 'a1000000000000000000000000000001', { itemType: 'Web Map' });
    expect(r).toEqual({ data: webMap.data, paths: [] });
    expect(r.data).toBe(webMap.data);
    expect(replaceReference('not json', 'ffffffffffffffffffffffffffffffff', 'a1000000000000000000000000000001').paths).toEqual([]);
  });

  it('a __proto__ key in the data stays an own key and pollutes nothing', () => {
    const data = JSON.parse('{"dataSources":{"__proto__":{"itemId":"a1000000000000000000000000000004"}}}');
    const { data: out, paths } = replaceReference(data, 'a1000000000000000000000000000004', 'ffffffffffffffffffffffffffffffff', { itemType: 'Web Experience' });
    expect(paths).toEqual(['/dataSources/__proto__/itemId']);
    expect(Object.getOwnPropertyDescriptor((out as any).dataSources, '__proto__')?.value).toEqual({ itemId: 'ffffffffffffffffffffffffffffffff' });
    expect(({} as any).itemId).toBeUndefined();
    expect(data.dataSources.__proto__.itemId).toBe('a1000000000000000000000000000004');
  });

  it('JSON Pointer escaping of keys with / and ~', () => {
    const data = { resources: { 'a/b~c': { type: 'webmap', data: { itemId: 'b0000000000000000000000000000001' } } } };
    const [ref] = extractReferences({ type: 'StoryMap' }, data);
    expect(ref.path).toBe('/resources/a~1b~0c/data/itemId');
    const { data: out } = replaceReference(data, 'b0000000000000000000000000000001', 'b0000000000000000000000000000002', { itemType: 'StoryMap' });
    expect((out as any).resources['a/b~c'].data.itemId).toBe('b0000000000000000000000000000002');
  });

  it('rejects arguments that are not ids or URLs, or mix them', () => {
    expect(() => replaceReference({}, 'x', 'ffffffffffffffffffffffffffffffff')).toThrow(RangeError);
    expect(() => replaceReference({}, 'ffffffffffffffffffffffffffffffff', 'https://127.0.0.1/arcgis/rest/services/A/MapServer')).toThrow(RangeError);
  });
});

describe('unknown and malformed input', () => {
  it('unknown item types and shapes give nothing', () => {
    expect(extractReferences({ type: 'PDF' }, webMap.data)).toEqual([]);
    expect(extractReferences({} as any, webMap.data)).toEqual([]);
    expect(extractReferences({ type: 'Web Map' }, { somethingElse: [{ itemId: 'a1000000000000000000000000000001' }] })).toEqual([]);
  });

  it.each([
    ['null', null],
    ['a string', 'operationalLayers'],
    ['a number', 42],
    ['an array', [{ itemId: 'a1000000000000000000000000000001' }]],
  ])('data that is %s: nothing, no throw', (_name, data) => {
    for (const type of ['Web Map', 'Web Scene', 'Web Mapping Application', 'Web Experience', 'Dashboard', 'StoryMap', 'Group Layer']) {
      expect(extractReferences({ type }, data)).toEqual([]);
    }
  });

  it('wrong shapes inside are skipped', () => {
    const weird = {
      operationalLayers: 'x',
      tables: { 0: { itemId: 'a1000000000000000000000000000001' } },
      baseMap: [],
      ground: 'flat',
      presentation: { slides: [null, 3, { baseMap: 'x' }] },
      values: { webmap: 42, group: [null, {}, ['nested']] },
      map: 'x',
      dataSource: { dataSources: [] },
      dataSources: { a: null, b: 'x', c: { itemId: 7, childDataSourceJsons: 'x' } },
      resources: { r: { data: 'x' }, s: null },
      widgets: [null, 'x', { itemId: null }],
    };
    for (const type of ['Web Map', 'Web Scene', 'Web Mapping Application', 'Web Experience', 'StoryMap']) {
      expect(extractReferences({ type }, weird)).toEqual([]);
    }
    // A dashboard's whole data is walked: any object with an item id counts, whatever holds it.
    expect(lines(extractReferences({ type: 'Dashboard' }, weird))).toEqual(['widget a1000000000000000000000000000001 /tables/0/itemId']);
    expect(extractReferences({ type: 'Feature Service', url: 42 as any }, null)).toEqual([]);
    expect(extractReferences(null as any, null)).toEqual([]);
  });

  it('a getter that throws does not escape', () => {
    const data = { operationalLayers: [{ itemId: 'a1000000000000000000000000000001' }] } as any;
    Object.defineProperty(data, 'tables', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const scan = scanReferences({ type: 'Web Map' }, data);
    expect(lines(scan.references)).toEqual(['layer a1000000000000000000000000000001 /operationalLayers/0/itemId']);
    expect(scan.truncated).toBe(true);
  });
});

describe('bounds', () => {
  /** Group layers nested `n` deep with an item at the bottom. */
  const nested = (n: number) => {
    let layer: any = { itemId: 'a1000000000000000000000000000001' };
    for (let i = 0; i < n; i++) layer = { layerType: 'GroupLayer', layers: [layer] };
    return { operationalLayers: [layer] };
  };

  it('group layers nested within the depth bound are read', () => {
    const scan = scanReferences({ type: 'Web Map' }, nested(MAX_REFERENCE_DEPTH - 2));
    expect(scan.references).toHaveLength(1);
    expect(scan.truncated).toBe(false);
  });

  it('deeper nesting stops at the bound and says so; 100,000 levels do not overflow the stack', () => {
    const scan = scanReferences({ type: 'Web Map' }, nested(MAX_REFERENCE_DEPTH + 10));
    expect(scan.references).toEqual([]);
    expect(scan.truncated).toBe(true);
    let deep: any = { itemId: 'a1000000000000000000000000000001' };
    for (let i = 0; i < 100_000; i++) deep = { child: deep };
    expect(scanReferences({ type: 'Dashboard' }, { widgets: [deep] }).truncated).toBe(true);
    expect(scanReferences({ type: 'Web Experience' }, { dataSources: { a: { childDataSourceJsons: { b: deep } } } }).truncated).toBe(false);
  });

  it('at most 10,000 references, then truncated', () => {
    const layers = Array.from({ length: 6_000 }, (_, i) => ({
      itemId: i.toString(16).padStart(32, '0'),
      url: `https://127.0.0.1/arcgis/rest/services/S${i}/FeatureServer/0`,
    }));
    const scan = scanReferences({ type: 'Web Map' }, { operationalLayers: layers });
    expect(scan.references).toHaveLength(10_000);
    expect(scan.truncated).toBe(true);
  });

  it('a smaller bound may be asked for, a larger one is capped', () => {
    const data = { operationalLayers: [{ itemId: 'a1000000000000000000000000000001' }, { itemId: 'a1000000000000000000000000000002' }] };
    expect(scanReferences({ type: 'Web Map' }, data, { maxReferences: 1 })).toMatchObject({
      references: [{ path: '/operationalLayers/0/itemId' }],
      truncated: true,
    });
    expect(scanReferences({ type: 'Web Map' }, nested(MAX_REFERENCE_DEPTH + 10), { maxDepth: 1000 }).truncated).toBe(true);
    expect(scanReferences({ type: 'Web Map' }, nested(3), { maxDepth: 2 }).references).toEqual([]);
  });
});
