/**
 * Copy to another organization against the real local portal: the demo organization's admin copies
 * an app → map → CSV chain to the partner organization (partner_admin signed in as the target).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/index.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { applyPlan, CopyFailed, geometryFieldsOf, undoCopy } from './apply.ts';
import { connectAs } from './copy.test-support.ts';
import { changedPaths, dependencyOrder, planCopy, proposeNeeds, sourceKeyword } from './plan.ts';
import { addItem, getItem, listResources, readItemData, readThumbnail, searchItems, updateItem, writeResource, type PortalConnection } from './portal.ts';
import { rewriteData } from './rewrite.ts';

const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const CSV = new TextEncoder().encode('name,lat,lon\nA,1,2\nB,3,4\n');

let svc: ClientTestService;
let source: PortalConnection;
let target: PortalConnection;
let csvId: string;
let mapId: string;
let appId: string;

const mapData = (layer: string) => ({
  operationalLayers: [{ id: 'places', title: 'Places', layerType: 'CSV', itemId: layer, url: `${svc.restUrl}/content/items/${layer}/data` }],
  baseMap: { title: 'Basemap', baseMapLayers: [] },
  version: '2.31',
});

beforeAll(async () => {
  svc = await startClientService();
  source = await connectAs(svc, 'admin', svc.orgId);
  target = await connectAs(svc, 'partner_admin', svc.partnerOrgId);
  const tag = Date.now().toString(36);
  csvId = await addItem(source, {
    title: `Places ${tag}`,
    type: 'CSV',
    tags: ['copy'],
    file: { bytes: CSV, filename: 'places.csv', contentType: 'text/csv' },
    thumbnail: { bytes: PNG, filename: 'thumb.png', contentType: 'image/png' },
  });
  await writeResource(
    source,
    'admin',
    csvId,
    'notes/readme.txt',
    { bytes: new TextEncoder().encode('hello'), filename: 'readme.txt', contentType: 'text/plain' },
    'add',
  );
  mapId = await addItem(source, { title: `Places map ${tag}`, type: 'Web Map', tags: ['copy'], text: JSON.stringify(mapData(csvId)) });
  appId = await addItem(source, {
    title: `Places app ${tag}`,
    type: 'Web Mapping Application',
    tags: ['copy'],
    text: JSON.stringify({ source: 'x', values: { webmap: mapId } }),
  });
});
afterAll(() => svc?.close());

describe('planning', () => {
  it('proposes what an app needs: its map, and the layer the map uses', async () => {
    const needs = await proposeNeeds(source, [await getItem(source, appId)]);
    expect(needs.map((n) => n.item.id).sort()).toEqual([csvId, mapId].sort());
    expect(needs.find((n) => n.item.id === csvId)?.neededBy).toEqual([(await getItem(source, mapId)).title]);
  });

  it('orders dependencies first, and rewrites ids and the portal address in data', async () => {
    const items = [
      { id: 'a', uses: ['b'] },
      { id: 'b', uses: ['c'] },
      { id: 'c', uses: [] },
    ];
    expect(dependencyOrder(items, (i) => i.uses).map((i) => i.id)).toEqual(['c', 'b', 'a']);
    const other = 'f'.repeat(32);
    const out = rewriteData('Web Map', mapData(csvId), new Map([[csvId, other]]), svc.restUrl, 'https://other.example/portal/sharing/rest') as ReturnType<
      typeof mapData
    >;
    expect(out.operationalLayers[0].itemId).toBe(other);
    expect(out.operationalLayers[0].url).toBe(`https://other.example/portal/sharing/rest/content/items/${other}/data`);
  });

  it('plans three creates with the map rewritten, and refuses a hosted service with the reason', async () => {
    const hostedId = await addItem(source, {
      title: 'Hosted',
      type: 'Feature Service',
      typeKeywords: ['Hosted Service'],
      url: 'http://127.0.0.1:9/arcgis/rest/services/H/FeatureServer',
    });
    const items = await Promise.all([appId, mapId, csvId, hostedId].map((id) => getItem(source, id)));
    const plan = await planCopy(source, target, items);
    expect(plan.steps.map((s) => [s.source.id, s.action])).toEqual([
      [csvId, 'create'],
      [mapId, 'create'],
      [appId, 'create'],
    ]);
    expect(plan.steps[1].rewrites).toEqual([{ from: csvId, to: undefined, title: items[2].title }]);
    expect(plan.steps[0]).toMatchObject({ dataKind: 'file', resources: 1, thumbnail: true });
    expect(plan.blocked).toEqual([expect.objectContaining({ id: hostedId, reason: expect.stringMatching(/hosted service/i) })]);
  });
});

describe('applying', () => {
  it('creates the copies with their data, file, thumbnail and resources; a second run updates them; undo removes them', async () => {
    const items = await Promise.all([appId, mapId, csvId].map((id) => getItem(source, id)));
    const progress: string[] = [];
    const first = await applyPlan(await planCopy(source, target, items), source, target, { onProgress: (id, s) => progress.push(`${id}:${s}`) });
    expect(first.created).toHaveLength(3);
    expect(progress).toContain(`${csvId}:done`);
    const newCsv = first.items.find((i) => i.sourceId === csvId)!.targetId;
    const newMap = first.items.find((i) => i.sourceId === mapId)!.targetId;
    const copiedCsv = await getItem(target, newCsv);
    expect(copiedCsv.orgId).toBe(svc.partnerOrgId);
    expect(copiedCsv.typeKeywords).toContain(sourceKeyword(csvId));
    expect(Array.from((await readItemData(target, newCsv))!.bytes)).toEqual(Array.from(CSV));
    // The portal serves thumbnails re-encoded at a served width: a PNG arrived, not necessarily the same bytes.
    expect(copiedCsv.thumbnail).toMatch(/\.png$/);
    expect(Array.from((await readThumbnail(target, copiedCsv))!.bytes.slice(0, 4))).toEqual(Array.from(PNG.slice(0, 4)));
    expect((await listResources(target, newCsv)).map((r) => r.resource)).toEqual(['notes/readme.txt']);
    const map = JSON.parse(new TextDecoder().decode((await readItemData(target, newMap))!.bytes)) as ReturnType<typeof mapData>;
    expect(map.operationalLayers[0].itemId).toBe(newCsv);
    expect(map.operationalLayers[0].url).toContain(`/content/items/${newCsv}/data`);

    // Again: found by the source keyword, nothing differs but a changed title, nothing duplicated.
    const again = await planCopy(source, target, items);
    expect(again.steps.map((s) => s.action)).toEqual(['update', 'update', 'update']);
    expect(again.steps[1].rewrites).toEqual([{ from: csvId, to: newCsv, title: items[2].title }]);
    expect(again.steps.flatMap((s) => s.differences)).toEqual([]);
    const second = await applyPlan(again, source, target);
    expect(second.created).toEqual([]);
    expect(await searchItems(target, `typekeywords:${sourceKeyword(mapId)}`)).toHaveLength(1);

    expect(await undoCopy(first, target)).toEqual([]);
    await expect(getItem(target, newCsv)).rejects.toBeInstanceOf(ApiError);
  });

  it('shows a changed title, and the places where the data changed, as differences', async () => {
    const items = await Promise.all([csvId, mapId].map((id) => getItem(source, id)));
    const copy = await applyPlan(await planCopy(source, target, items), source, target);
    const renamed = { ...items[0], title: `${items[0].title} (renamed)` };
    const changed = mapData(csvId);
    changed.operationalLayers[0].title = 'Bus stops';
    await updateItem(source, 'admin', mapId, { text: JSON.stringify(changed) });
    try {
      const plan = await planCopy(source, target, [renamed, items[1]]);
      expect(plan.steps[0].differences).toEqual([{ field: 'title', before: items[0].title, after: renamed.title }]);
      expect(plan.steps[1].differences).toEqual([expect.objectContaining({ field: 'data', paths: ['/operationalLayers/0/title'] })]);
    } finally {
      await updateItem(source, 'admin', mapId, { text: JSON.stringify(mapData(csvId)) });
      await undoCopy(copy, target);
    }
  });

  it('keeps the extent and spatial reference (and culture and properties), and a second run carries a changed extent', async () => {
    const id = await addItem(source, {
      title: 'Bounded places',
      type: 'CSV',
      file: { bytes: CSV, filename: 'bounded.csv', contentType: 'text/csv' },
      extent: '-10.5,-5,10,5.25',
      spatialReference: '102100',
      culture: 'fr-fr',
      properties: JSON.stringify({ survey: 'spring' }),
    });
    const item = await getItem(source, id);
    expect(item.extent).toEqual([
      [-10.5, -5],
      [10, 5.25],
    ]);
    const result = await applyPlan(await planCopy(source, target, [item]), source, target);
    const copyId = result.items[0].targetId;
    expect(await getItem(target, copyId)).toMatchObject({
      extent: item.extent,
      spatialReference: '102100',
      culture: 'fr-fr',
      properties: { survey: 'spring' },
    });
    await updateItem(source, 'admin', id, { extent: '1,2,3,4' });
    const again = await applyPlan(await planCopy(source, target, [await getItem(source, id)]), source, target);
    expect(again.created).toEqual([]);
    expect((await getItem(target, copyId)).extent).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(await undoCopy(result, target)).toEqual([]);
    // An item without an extent sends none (an empty one would clear the copy's on an update).
    expect(geometryFieldsOf({ extent: [], spatialReference: null })).toEqual({ extent: undefined, spatialReference: undefined });
  });

  it('finds where two JSON values differ', () => {
    expect(changedPaths({ a: 1, b: [1, { c: 'x' }] }, { a: 1, b: [1, { c: 'y' }], d: true })).toEqual(['/b/1/c', '/d']);
    expect(changedPaths({ 'a/b': 1 }, { 'a/b': 2 })).toEqual(['/a~1b']);
    expect(changedPaths([1], { 0: 1 })).toEqual(['/']);
  });

  it('rolls back what it created when a step fails, and says which step', async () => {
    const items = await Promise.all([mapId, csvId].map((id) => getItem(source, id)));
    const plan = await planCopy(source, target, items);
    // The map's step is refused by the portal (a title longer than it accepts).
    plan.steps[1] = { ...plan.steps[1], source: { ...plan.steps[1].source, title: 'x'.repeat(300) } };
    const err = await applyPlan(plan, source, target).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyFailed);
    expect((err as CopyFailed).step.source.id).toBe(mapId);
    expect((err as CopyFailed).cause).toBeInstanceOf(ApiError);
    expect((err as CopyFailed).leftBehind).toEqual([]);
    expect(await searchItems(target, `typekeywords:${sourceKeyword(csvId)}`)).toEqual([]);
  });

  it('fails with the portal error when the target refuses the token', async () => {
    const plan = await planCopy(source, target, [await getItem(source, csvId)]);
    const err = await applyPlan(plan, source, { ...target, token: 'not-a-token' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyFailed);
    expect(((err as CopyFailed).cause as ApiError).code).toBe(498);
  });
});
