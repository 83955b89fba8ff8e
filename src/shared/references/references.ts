/**
 * What an item references, read from its data (the JSON of `/content/items/<id>/data`), and the
 * reverse step: rewrite one reference at exactly the places it was found. Used by both halves:
 * the local portal's reference index and the console's graph on portals without it (issue 26).
 *
 * Pure functions over parsed JSON: no DOM, no Node, no I/O. Unknown shapes are skipped, malformed
 * data (a string where an object was expected, null, huge nesting) never throws, and the walk is
 * bounded (depth, number of references) so that hostile data cannot blow it up.
 *
 * Each reference carries a JSON Pointer (RFC 6901) to the string it was read from, so that
 * `replaceReference` can change the item id or URL in place and report the pointers it changed.
 */

import { LIMITS } from '../limits.ts';
import { isBelowServiceRoot, itemIdInUrl, normalizeItemId, normalizeUrl, rewriteUrl, serviceRootText } from './normalize.ts';

export { normalizeItemId, normalizeUrl } from './normalize.ts';

/** How an item references another item, a group or a service. */
export type ReferenceKind =
  /** An operational layer of a web map or scene (also inside group layers, and a Group Layer item's layers). */
  | 'layer'
  /** A web map's or scene's table. */
  | 'table'
  /** A basemap layer (also a slide's basemap in a scene); a vector tile layer's style counts too. */
  | 'basemapLayer'
  /** A web scene's elevation or ground layer. */
  | 'groundLayer'
  /** A web map an app or dashboard shows (configurable app `values.webmap`, Web AppBuilder `map`, a dashboard's map widget). */
  | 'webmap'
  /** A web scene an app shows (`values.webscene`). */
  | 'webscene'
  /** A group an app presents (`values.group`). */
  | 'group'
  /** The app template a configurable app was made from (`source`). */
  | 'template'
  /** A data source: Experience Builder / Web AppBuilder data sources, a dashboard dataset's source. */
  | 'dataSource'
  /** Any other dashboard widget that names an item. */
  | 'widget'
  /** A StoryMap resource (`resources.<id>.data.itemId`: web maps, scenes, express maps…). */
  | 'storyResource'
  /** The item's own `url` is a layer or part of a service: it points at the service root. */
  | 'serviceUrl'
  /** An explicit item relationship (from the relationships API, not from the data). */
  | 'relationship';

export type ReferenceTarget =
  /** An item (or group: 32 hex digits too), its id in lower case. */
  | { type: 'item'; id: string }
  /** A service or web resource, by `normalizeUrl`: the service root for ArcGIS services. */
  | { type: 'url'; url: string };

export interface Reference {
  target: ReferenceTarget;
  kind: ReferenceKind;
  /** Where it was read: the item's data, the item's own fields, or its relationships. */
  source: 'data' | 'item' | 'relationship';
  /** JSON Pointer to the string read (into the data for `data`, into the item for `item`, '' for relationships). */
  path: string;
  /** The string as found (an id in its own case, a URL with its layer and query). */
  value: string;
  /** A layer's `layerType`, a widget's `type`, a StoryMap resource's `type`… when the data names one. */
  detail?: string;
  /** The portal the item lives on, when the data says (Experience Builder data sources, basemap layers). */
  portalUrl?: string;
  /** For `relationship`: the relationship type, e.g. `Map2Service`. */
  relationshipType?: string;
}

export interface ReferenceItem {
  id?: string;
  type?: string;
  url?: string | null;
  typeKeywords?: readonly string[];
}

export interface ExtractOptions {
  /** Deepest nesting followed (group layers, child data sources, dashboard panels). Default and maximum 64. */
  maxDepth?: number;
  /** Most references returned. Default and maximum 10,000. */
  maxReferences?: number;
  /** Most values of the data looked at (objects, arrays, strings). Default and maximum LIMITS.referenceScanSteps. */
  maxSteps?: number;
}

export interface ReferenceScan {
  references: Reference[];
  /** True when a bound (depth, count, steps, a URL's length) stopped the walk: the list may be incomplete. */
  truncated: boolean;
}

export const MAX_REFERENCE_DEPTH = 64;
export const MAX_REFERENCES = LIMITS.referencesPerItem;

/**
 * The walk pauses (yields) after this many steps, so that a caller on a server can let other
 * requests run between slices (`referenceScanSlices`); a slice is well under a millisecond.
 */
const STEPS_PER_SLICE = 2_000;

/** A walk that pauses between slices of steps: run it to the end with `for (const _ of walk)`. */
type Walk = Generator<void, void, void>;

// ————— the walk's state —————

type Json = unknown;
type Obj = Record<string, Json>;

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: Json): readonly Json[] => (Array.isArray(v) ? v : []);
const str = (v: Json): string | undefined => (typeof v === 'string' ? v : undefined);
/** Own enumerable keys only: JSON.parse makes `__proto__` an own key, which is read like any other. */
const entries = (o: Obj): [string, Json][] => Object.keys(o).map((k) => [k, o[k]]);

const escapePointer = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const at = (path: string, key: string | number) => `${path}/${escapePointer(key)}`;

class Collector {
  readonly references: Reference[] = [];
  truncated = false;
  private steps = 0;
  private sliceEnd = STEPS_PER_SLICE;
  constructor(
    readonly maxDepth: number,
    readonly maxReferences: number,
    readonly maxSteps: number,
  ) {}

  /** One more value looked at; false once the walk has taken its most steps (the list may then be incomplete). */
  step(): boolean {
    if (++this.steps > this.maxSteps) {
      this.truncated = true;
      return false;
    }
    return true;
  }

  /** Before each entry of a list: false once the list is full or the steps are spent (the rest is not read). */
  more(): boolean {
    if (this.full) {
      this.truncated = true;
      return false;
    }
    return this.step();
  }

  /** True once per STEPS_PER_SLICE steps: where the walk yields. */
  pause(): boolean {
    if (this.steps < this.sliceEnd) return false;
    this.sliceEnd = this.steps + STEPS_PER_SLICE;
    return true;
  }

  get full(): boolean {
    return this.references.length >= this.maxReferences;
  }

  deeper(depth: number): boolean {
    // Full: whatever lies further is not read, so the list may be incomplete.
    if (depth > this.maxDepth || this.full || !this.step()) {
      this.truncated = true;
      return false;
    }
    return true;
  }

  push(ref: Reference): void {
    if (this.full) {
      this.truncated = true;
      return;
    }
    this.references.push(ref);
  }

  /** An item id field (`itemId`, `values.webmap`…): a string of 32 hex digits, anything else skipped. */
  itemId(value: Json, path: string, kind: ReferenceKind, extra?: Partial<Reference>): void {
    if (value === undefined || !this.step()) return;
    const id = normalizeItemId(value);
    if (id) this.push({ target: { type: 'item', id }, kind, source: 'data', path, value: value as string, ...clean(extra) });
  }

  /**
   * A URL field: a portal item URL (`…/content/items/<id>/…`) references that item, any other
   * absolute http(s) URL the service (or resource) it names. Relative URLs and non-strings skipped.
   */
  url(value: Json, path: string, kind: ReferenceKind, extra?: Partial<Reference>): void {
    const s = str(value);
    if (!s || !this.step()) return;
    // Longer is no URL a server would answer; its characters are not looked at.
    if (s.length > LIMITS.referenceUrlChars) {
      this.truncated = true;
      return;
    }
    const id = itemIdInUrl(s);
    if (id) {
      this.push({ target: { type: 'item', id }, kind, source: 'data', path, value: s, ...clean(extra) });
      return;
    }
    const url = normalizeUrl(s);
    if (url) this.push({ target: { type: 'url', url }, kind, source: 'data', path, value: s, ...clean(extra) });
  }
}

function clean(extra: Partial<Reference> | undefined): Partial<Reference> {
  const out: Partial<Reference> = {};
  if (!extra) return out;
  if (extra.detail) out.detail = extra.detail;
  if (extra.portalUrl) out.portalUrl = extra.portalUrl;
  return out;
}

/** `portalUrl` beside a reference (basemap layers, Experience Builder data sources), normalised. */
function portalOf(o: Obj): string | undefined {
  return normalizeUrl(o.portalUrl);
}

// ————— web maps and web scenes —————

/**
 * One layer object of a web map or scene: its `itemId`, `url` and, for vector tile layers,
 * `styleUrl`; a group layer's `layers[]` are walked in turn.
 * Web Map Specification, operationalLayers: https://developers.arcgis.com/web-map-specification/objects/operationalLayers/
 * Web Scene Specification, operationalLayers (Group Layer is "referenced by" itself):
 * https://developers.arcgis.com/web-scene-specification/objects/operationalLayers
 */
function* layer(c: Collector, o: Json, path: string, kind: ReferenceKind, depth: number): Walk {
  if (!isObj(o) || !c.deeper(depth)) return;
  if (c.pause()) yield;
  const extra = { detail: str(o.layerType) ?? str(o.type), portalUrl: portalOf(o) };
  c.itemId(o.itemId, at(path, 'itemId'), kind, extra);
  c.url(o.url, at(path, 'url'), kind, extra);
  // Vector Tile Layer: the style is an item resource (`…/content/items/<id>/resources/styles/root.json`)
  // or a service's (`…/VectorTileServer/resources/styles/root.json`).
  c.url(o.styleUrl, at(path, 'styleUrl'), kind, extra);
  // Group Layer: `layers[]` holds operational layers (and, in a map, tables), nested to any depth.
  const children = arr(o.layers);
  for (let i = 0; i < children.length && c.more(); i++) yield* layer(c, children[i], at(at(path, 'layers'), i), kind, depth + 1);
  const tables = arr(o.tables);
  for (let i = 0; i < tables.length && c.more(); i++) yield* layer(c, tables[i], at(at(path, 'tables'), i), 'table', depth + 1);
}

function* layers(c: Collector, list: Json, path: string, kind: ReferenceKind, depth: number): Walk {
  const all = arr(list);
  for (let i = 0; i < all.length && c.more(); i++) yield* layer(c, all[i], at(path, i), kind, depth + 1);
}

/**
 * `baseMap.baseMapLayers[]` (and, in scenes, the deprecated `elevationLayers[]` and `groundLayers[]`).
 * Web Map Specification, baseMap and baseMapLayer: https://developers.arcgis.com/web-map-specification/objects/baseMap/
 * and https://developers.arcgis.com/web-map-specification/objects/baseMapLayer/
 * Web Scene Specification, baseMap: https://developers.arcgis.com/web-scene-specification/objects/baseMap
 */
function* baseMap(c: Collector, o: Json, path: string, depth: number): Walk {
  if (!isObj(o) || !c.deeper(depth)) return;
  yield* layers(c, o.baseMapLayers, at(path, 'baseMapLayers'), 'basemapLayer', depth);
  yield* layers(c, o.elevationLayers, at(path, 'elevationLayers'), 'groundLayer', depth);
  yield* layers(c, o.groundLayers, at(path, 'groundLayers'), 'groundLayer', depth);
}

/** Web Map Specification, the web map object: https://developers.arcgis.com/web-map-specification/objects/webmap/ */
function* webMap(c: Collector, data: Obj): Walk {
  yield* layers(c, data.operationalLayers, '/operationalLayers', 'layer', 0);
  yield* layers(c, data.tables, '/tables', 'table', 0);
  yield* baseMap(c, data.baseMap, '/baseMap', 1);
}

/**
 * A web map's places plus the scene's `ground.layers[]` and each presentation slide's `baseMap`.
 * Web Scene Specification, webscene: https://developers.arcgis.com/web-scene-specification/objects/webscene
 * (baseMap is "referenced by: slide, Webscene").
 */
function* webScene(c: Collector, data: Obj): Walk {
  yield* webMap(c, data);
  if (isObj(data.ground)) yield* layers(c, data.ground.layers, '/ground/layers', 'groundLayer', 1);
  if (isObj(data.presentation)) {
    const slides = arr(data.presentation.slides);
    for (let i = 0; i < slides.length && c.more(); i++) {
      const slide = slides[i];
      if (isObj(slide)) yield* baseMap(c, slide.baseMap, `/presentation/slides/${i}/baseMap`, 3);
    }
  }
}

/** A Group Layer item's data: `layers[]` (and `tables[]`) like a group layer in a web map. */
function* groupLayerItem(c: Collector, data: Obj): Walk {
  yield* layers(c, data.layers, '/layers', 'layer', 0);
  yield* layers(c, data.tables, '/tables', 'table', 0);
}

// ————— apps —————

/** A string or an array of strings (ids), each an item id reference. */
function* ids(c: Collector, v: Json, path: string, kind: ReferenceKind): Walk {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && c.more(); i++) {
      if (c.pause()) yield;
      const x: Json = v[i];
      // `values.webmaps: [{ id }]` / `[{ itemId }]` as well as `["<id>"]`.
      if (isObj(x)) {
        c.itemId(x.itemId, at(at(path, i), 'itemId'), kind);
        c.itemId(x.id, at(at(path, i), 'id'), kind);
      } else c.itemId(x, at(path, i), kind);
    }
  } else c.itemId(v, path, kind);
}

/**
 * Web Mapping Applications: configurable app templates and Instant Apps keep their settings in
 * `values` — the map (`webmap`, a string or, for apps that show several, an array), the scene
 * (`webscene`) and the group (`group`), as the app templates' ApplicationConfig documents them
 * ("group | string or string[]", "webscene", "webmap"): https://github.com/Esri/application-base-js
 * and "Add configurable parameters to templates":
 * https://enterprise.arcgis.com/en/portal/latest/use/configurable-templates.htm ; `source` is the
 * template's item id.
 * Web AppBuilder apps keep the map in `map.itemId` and extra data sources in
 * `dataSource.dataSources.<id>.itemId` (as Esri's solution.js reads them,
 * packages/simple-types/src/webapp/_getWABDependencies.ts).
 */
function* webApp(c: Collector, data: Obj): Walk {
  c.itemId(data.source, '/source', 'template');
  if (isObj(data.values)) {
    const v = data.values;
    for (const [key, kind] of [
      ['webmap', 'webmap'],
      ['webmaps', 'webmap'],
      ['webscene', 'webscene'],
      ['webscenes', 'webscene'],
      ['group', 'group'],
      ['groups', 'group'],
    ] as const) {
      yield* ids(c, v[key], `/values/${key}`, kind);
    }
  }
  if (isObj(data.map)) c.itemId(data.map.itemId, '/map/itemId', 'webmap', { portalUrl: portalOf(data.map) });
  if (isObj(data.dataSource) && isObj(data.dataSource.dataSources)) {
    for (const [key, ds] of entries(data.dataSource.dataSources)) {
      if (!c.more()) break;
      if (c.pause()) yield;
      if (!isObj(ds)) continue;
      const p = at('/dataSource/dataSources', key);
      c.itemId(ds.itemId, at(p, 'itemId'), 'dataSource');
      c.url(ds.url, at(p, 'url'), 'dataSource');
    }
  }
  yield* experience(c, data);
}

/**
 * Experience Builder (and Instant Apps built on it): `dataSources.<id>` with `itemId`, `portalUrl`
 * and `url`, child data sources in `childDataSourceJsons.<id>` to any depth.
 * Experience Builder API reference, DataSourceJson / DataSourceConstructorOptions (jimuChildId, child
 * data sources): https://developers.arcgis.com/experience-builder/api-reference/jimu-core/DataSourceConstructorOptions/
 * and Esri's solution.js, packages/web-experience/src/helpers/get-web-experience-dependencies.ts.
 */
function* experience(c: Collector, data: Obj): Walk {
  if (isObj(data.dataSources)) yield* dataSources(c, data.dataSources, '/dataSources', 1);
}

function* dataSources(c: Collector, map: Obj, path: string, depth: number): Walk {
  if (!c.deeper(depth)) return;
  for (const [key, ds] of entries(map)) {
    if (!c.more()) break;
    if (c.pause()) yield;
    if (!isObj(ds)) continue;
    const p = at(path, key);
    const extra = { detail: str(ds.type), portalUrl: portalOf(ds) };
    c.itemId(ds.itemId, at(p, 'itemId'), 'dataSource', extra);
    c.url(ds.url, at(p, 'url'), 'dataSource', extra);
    if (isObj(ds.childDataSourceJsons)) yield* dataSources(c, ds.childDataSourceJsons, at(p, 'childDataSourceJsons'), depth + 1);
  }
}

/**
 * Dashboards: widgets (in `widgets[]`, or `desktopView` / `mobileView`, and in the header and side
 * panels' selectors and `urlParameters`) name a map widget's web map by `itemId` and their datasets'
 * external sources by `datasets[].dataSource.itemId`; a map-layer source (`dataSource.id` =
 * `<widget>#<layer>`) names no item. Shapes as Esri's solution.js reads them
 * (packages/simple-types/src/dashboard.ts: IDashboardWidget, IDashboardDataset, IDashboardDatasource).
 * Dashboards' layout has changed over versions, so the whole data is walked (bounded) and every
 * object with an `itemId` is read by what it sits in.
 */
function* dashboard(c: Collector, v: Json, path: string, parentKey: string, depth: number): Walk {
  if (!c.deeper(depth)) return;
  if (c.pause()) yield;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && c.more(); i++) {
      const x: Json = v[i];
      // Only objects and arrays are walked into: numbers and strings cost one step each.
      if (typeof x === 'object' && x !== null) yield* dashboard(c, x, at(path, i), parentKey, depth + 1);
    }
    return;
  }
  if (!isObj(v)) return;
  if ('itemId' in v) {
    const type = str(v.type);
    const kind: ReferenceKind = parentKey === 'dataSource' ? 'dataSource' : type === 'mapWidget' ? 'webmap' : 'widget';
    c.itemId(v.itemId, at(path, 'itemId'), kind, { detail: type });
  }
  for (const [key, child] of entries(v)) {
    if (!c.more()) return;
    if (key !== 'itemId' && typeof child === 'object' && child !== null) yield* dashboard(c, child, at(path, key), key, depth + 1);
  }
}

/**
 * ArcGIS StoryMaps: `resources.<id>` with `type` (`webmap`, `webscene`, `expressmap`…) and
 * `data.itemId` for the items shown. As Esri's solution.js reads them
 * (packages/storymap/src/helpers/get-storymap-dependencies.ts) and the ArcGIS API for Python's
 * storymap module describes: https://developers.arcgis.com/python/api-reference/arcgis.apps.storymap.html
 */
function* storyMap(c: Collector, data: Obj): Walk {
  if (!isObj(data.resources)) return;
  for (const [key, res] of entries(data.resources)) {
    if (!c.more()) break;
    if (c.pause()) yield;
    if (!isObj(res) || !isObj(res.data)) continue;
    c.itemId(res.data.itemId, `/resources/${escapePointer(key)}/data/itemId`, 'storyResource', { detail: str(res.type) });
  }
}

// ————— which reader for which item type —————

type Reader = (c: Collector, data: Obj) => Walk;

const READERS: Record<string, Reader> = {
  'Web Map': webMap,
  'Web Scene': webScene,
  'Group Layer': groupLayerItem,
  'Web Mapping Application': webApp,
  'Web Experience': webApp,
  'Web Experience Template': webApp,
  Dashboard: (c, data) => dashboard(c, data, '', '', 0),
  StoryMap: storyMap,
};

/** Item types whose data is read for references: any other item's data is never loaded for them (portal index, browser graph). */
export const TYPES_WITH_REFERENCES: ReadonlySet<string> = new Set(Object.keys(READERS));

/**
 * Larger item data is not read for references, by the portal's index or the browser graph: it
 * would be held in memory whole while parsed. Real web maps and apps are kilobytes.
 */
export const MAX_REFERENCE_DATA_BYTES = LIMITS.referenceDataBytes;

/** Every reader, for data whose item type is not given (`replaceReference` without `itemType`). */
const ALL_READERS: Reader[] = [webScene, groupLayerItem, webApp, storyMap, (c, data) => dashboard(c, data, '', '', 0)];

function* readData(c: Collector, type: string | undefined, data: Json): Walk {
  if (!isObj(data)) return;
  const readers = type === undefined ? ALL_READERS : READERS[type] ? [READERS[type]] : [];
  for (const read of readers) {
    try {
      yield* read(c, data);
    } catch {
      // Only a getter or proxy could throw on parsed data; what was read so far stands.
      c.truncated = true;
    }
  }
}

function bound(value: number | undefined, max: number): number {
  const n = Math.min(max, Math.max(0, Math.floor(value ?? max)));
  return Number.isFinite(n) ? n : max;
}

function collector(options: ExtractOptions | undefined): Collector {
  return new Collector(
    bound(options?.maxDepth, MAX_REFERENCE_DEPTH),
    bound(options?.maxReferences, MAX_REFERENCES),
    bound(options?.maxSteps, LIMITS.referenceScanSteps),
  );
}

/** Runs a walk to its end in one go (the browser graph, `replaceReference`). */
function finish(walk: Walk): void {
  for (let r = walk.next(); !r.done; r = walk.next());
}

/**
 * The references in an item's data (read by the item's `type`; types not recognised give none)
 * and in its own `url` (a layer of a service points at the service root), with whether a bound
 * cut the walk short.
 */
export function scanReferences(item: ReferenceItem, data: unknown, options?: ExtractOptions): ReferenceScan {
  const slices = referenceScanSlices(item, data, options);
  for (let r = slices.next(); ; r = slices.next()) if (r.done) return r.value;
}

/**
 * `scanReferences` in slices of a bounded number of steps: the generator yields between slices and
 * returns the scan, so that a server can let other requests run in between (see the indexer).
 */
export function* referenceScanSlices(item: ReferenceItem, data: unknown, options?: ExtractOptions): Generator<void, ReferenceScan, void> {
  const c = collector(options);
  const type = typeof item?.type === 'string' ? item.type : '';
  yield* readData(c, type, data);
  // The item's own URL: a service item whose URL is a layer of a service (`…/FeatureServer/0`)
  // references the service root, so that it can be matched with the Feature Service item.
  const url = typeof item?.url === 'string' ? item.url : undefined;
  if (url && isBelowServiceRoot(url)) {
    const key = normalizeUrl(url);
    if (key) c.push({ target: { type: 'url', url: key }, kind: 'serviceUrl', source: 'item', path: '/url', value: url });
  }
  return { references: c.references, truncated: c.truncated };
}

/** The references in an item's data and URL (see `scanReferences`). Never throws on malformed data. */
export function extractReferences(item: ReferenceItem, data: unknown, options?: ExtractOptions): Reference[] {
  return scanReferences(item, data, options).references;
}

/**
 * The service root an item stands for, when it is a service item (its URL is an ArcGIS service
 * URL): what URL references resolve to. `…/FeatureServer/0` and `…/FeatureServer` give the same.
 */
export function serviceKeyOf(item: ReferenceItem): string | undefined {
  const url = typeof item?.url === 'string' ? item.url : undefined;
  return url && /\/[a-z]+server(?:[/?#]|$)/i.test(url) ? normalizeUrl(url) : undefined;
}

/**
 * Explicit item relationships in the same shape, kind `relationship`: they are not in item data
 * but come from `/content/items/<id>/relatedItems` (relationship types:
 * https://developers.arcgis.com/rest/users-groups-and-items/relationship-types/). `relatedItems`
 * is that response's list (items with an `id`); entries without a valid id are skipped.
 */
export function relationshipReferences(relationshipType: string, relatedItems: unknown): Reference[] {
  const out: Reference[] = [];
  for (const it of arr(relatedItems).slice(0, MAX_REFERENCES)) {
    const raw = isObj(it) ? it.id : it;
    const id = normalizeItemId(raw);
    if (id) out.push({ target: { type: 'item', id }, kind: 'relationship', source: 'relationship', path: '', value: raw as string, relationshipType });
  }
  return out;
}

// ————— replacing a reference —————

export interface ReplaceOptions {
  /** The item type the data belongs to (as `extractReferences` reads it); without it every reader is tried. */
  itemType?: string;
}

export interface ReplaceResult {
  /** New data: the input is never changed; unchanged branches are shared. */
  data: unknown;
  /** JSON Pointers of the strings changed, in the order `extractReferences` finds them. */
  paths: string[];
}

/** An item id or URL given to `replaceReference`, as a target. */
function targetOf(value: string): ReferenceTarget | undefined {
  const id = normalizeItemId(value);
  if (id) return { type: 'item', id };
  const url = normalizeUrl(value);
  return url ? { type: 'url', url } : undefined;
}

const sameTarget = (a: ReferenceTarget, b: ReferenceTarget) =>
  a.type === 'item' && b.type === 'item' ? a.id === b.id : a.type === 'url' && b.type === 'url' && a.url === b.url;

/**
 * `s` with every `from` (an item id: hex digits, any case) replaced by `to`: a search, not a
 * pattern built from data. Lower-casing keeps every position unless `s` holds one of the few
 * characters whose lower case is longer (`İ`); then each position is compared on its own.
 */
function replaceIgnoringCase(s: string, from: string, to: string): string {
  const lower = s.toLowerCase();
  const key = from.toLowerCase();
  const same = lower.length === s.length;
  let out = '';
  let i = 0;
  while (i <= s.length - key.length) {
    const next = same ? lower.indexOf(key, i) : s.slice(i, i + key.length).toLowerCase() === key ? i : -1;
    if (next < 0 && same) break;
    if (next < 0) {
      out += s[i++];
      continue;
    }
    out += s.slice(i, next) + to;
    i = next + key.length;
  }
  return out + s.slice(i);
}

/** Sets `value` at `pointer` in a copy of `root`, copying only the objects on the way. */
function setAt(root: Json, pointer: string, value: string): Json {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const step = (node: Json, i: number): Json => {
    if (i === keys.length) return value;
    const key = keys[i];
    if (Array.isArray(node)) {
      const copy = node.slice();
      copy[Number(key)] = step(node[Number(key)], i + 1);
      return copy;
    }
    const copy: Obj = { ...(node as Obj) };
    // defineProperty, not assignment: a `__proto__` key stays an own data property.
    Object.defineProperty(copy, key, { value: step((node as Obj)[key], i + 1), enumerable: true, writable: true, configurable: true });
    return copy;
  };
  return step(root, 0);
}

/**
 * Rewrites every reference to `from` in `data` to `to`, at exactly the places `extractReferences`
 * reads (so an id that merely appears in a title or a description is left alone). `from` and `to`
 * are both item ids, or both URLs:
 * - ids: an `itemId`-like field gets `to` (lower case); a portal URL holding the id
 *   (`…/content/items/<id>/resources/styles/root.json`) gets the id inside it replaced;
 * - URLs: every URL whose service root (see `normalizeUrl`) is `from`'s gets `to`'s root, keeping
 *   its layer and query (`…/Old/FeatureServer/2` → `…/New/FeatureServer/2`).
 * Returns new data and the pointers changed; never mutates `data`. Throws a RangeError only for
 * arguments that are not an id or URL, or that mix the two.
 */
export function replaceReference(data: unknown, from: string, to: string, options?: ReplaceOptions): ReplaceResult {
  const source = targetOf(from);
  const target = targetOf(to);
  if (!source || !target) throw new RangeError('replaceReference: `from` and `to` must each be an item id or an http(s) URL');
  if (source.type !== target.type) throw new RangeError('replaceReference: `from` and `to` must both be item ids or both be URLs');
  const c = collector(undefined);
  finish(readData(c, options?.itemType, data));
  const newRoot = serviceRootText(to) ?? to.trim();
  const paths: string[] = [];
  let out: Json = data;
  const done = new Set<string>();
  for (const ref of c.references) {
    if (ref.source !== 'data' || done.has(ref.path) || !sameTarget(ref.target, source)) continue;
    done.add(ref.path);
    let next: string;
    if (target.type === 'item' && source.type === 'item') {
      next = normalizeItemId(ref.value) ? target.id : replaceIgnoringCase(ref.value, source.id, target.id);
    } else {
      next = rewriteUrl(ref.value, newRoot);
    }
    if (next === ref.value) continue;
    out = setAt(out, ref.path, next);
    paths.push(ref.path);
  }
  return { data: out, paths };
}
