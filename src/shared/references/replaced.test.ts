import { describe, expect, it } from 'vitest';
import { applyReplacements, replacedReferences } from './replaced.ts';

const OLD = 'a'.repeat(32);
const NEW = 'b'.repeat(32);
const OTHER = 'c'.repeat(32);
const OLD_URL = 'https://127.0.0.1/arcgis/rest/services/Old/FeatureServer';
const NEW_URL = 'https://127.0.0.1/arcgis/rest/services/New/FeatureServer';

const map = (id: string, url: string, title = 'Parks') => ({
  operationalLayers: [
    { id: 'l1', title, itemId: id, url: `${url}/0`, layerType: 'ArcGISFeatureLayer' },
    { id: 'l2', title: 'Other', itemId: OTHER, layerType: 'ArcGISFeatureLayer' },
  ],
  baseMap: { baseMapLayers: [] },
});

describe('replacedReferences', () => {
  it('recognises an id and its service URL swapped, and nothing else changed', () => {
    const swaps = replacedReferences('Web Map', map(OLD, OLD_URL), map(NEW, NEW_URL));
    expect(swaps).toEqual([
      { from: OLD, to: NEW },
      { from: OLD_URL, to: NEW_URL },
    ]);
  });

  it('keeps the case of a service URL, so applying the reverse gives back the data byte for byte', () => {
    const mixed = 'https://127.0.0.1/arcgis/rest/services/MixedCase/FeatureServer';
    const before = map(OLD, mixed);
    const after = map(NEW, NEW_URL);
    const swaps = replacedReferences('Web Map', before, after);
    expect(swaps).toBeDefined();
    const undone = applyReplacements(
      'Web Map',
      after,
      swaps!.map((s) => ({ from: s.to, to: s.from })),
    );
    expect(JSON.stringify(undone)).toBe(JSON.stringify(before));
  });

  it('is no swap when anything beside the references changed', () => {
    expect(replacedReferences('Web Map', map(OLD, OLD_URL), map(NEW, NEW_URL, 'Renamed'))).toBeUndefined();
  });

  it('is no swap when no reference changed, or when one was only removed', () => {
    expect(replacedReferences('Web Map', map(OLD, OLD_URL), map(OLD, OLD_URL))).toBeUndefined();
    const removed = { operationalLayers: [{ id: 'l2', title: 'Other', itemId: OTHER }] };
    expect(replacedReferences('Web Map', map(OLD, OLD_URL), removed)).toBeUndefined();
  });

  it('is no swap when two ids were replaced at once', () => {
    const before = { operationalLayers: [{ itemId: OLD }, { itemId: OTHER }] };
    const after = { operationalLayers: [{ itemId: NEW }, { itemId: 'd'.repeat(32) }] };
    expect(replacedReferences('Web Map', before, after)).toBeUndefined();
  });

  it('reads data of types that hold no references as no swap, never an error', () => {
    expect(replacedReferences('CSV', 'a,b', 'c,d')).toBeUndefined();
    expect(replacedReferences('Web Map', null, { operationalLayers: 'x' })).toBeUndefined();
  });
});
