import { describe, expect, it } from 'vitest';
import type { DependencyAnswer, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { impactOf, oldUrlReferences } from './impact.ts';

const LAYER = 'a'.repeat(32);
const LAYER2 = 'b'.repeat(32);
const MAP = 'c'.repeat(32);
const APP = 'd'.repeat(32);
const URL = 'https://127.0.0.1/arcgis/rest/services/Parks/FeatureServer';

const node = (id: string, title: string, depth: number, type = 'Web Map'): DependencyNode => ({
  id,
  title,
  type,
  owner: 'user1',
  access: 'org',
  contentStatus: null,
  url: null,
  modified: 0,
  depth,
});
const answer = (itemId: string, partial: Partial<DependencyAnswer>): DependencyAnswer => ({
  itemId,
  direction: 'usedBy',
  transitive: true,
  items: [],
  edges: [],
  urls: [],
  hidden: 0,
  truncated: false,
  graph: { source: 'portal' },
  ...partial,
});

const chain = answer(LAYER, {
  items: [node(APP, 'City app', 2, 'Web Mapping Application'), node(MAP, 'City map', 1)],
  edges: [
    { from: MAP, to: LAYER, kind: 'layer', count: 1, path: '/operationalLayers/0/itemId', value: LAYER },
    { from: MAP, to: LAYER, kind: 'layer', count: 1, path: '/operationalLayers/0/url', value: `${URL}/0` },
    { from: APP, to: MAP, kind: 'webmap', count: 1, path: '/values/webmap', value: MAP },
  ],
  hidden: 2,
});

describe('impactOf', () => {
  it('lists each dependent once, nearest first, with what it uses and how; counts hidden ones', () => {
    const r = impactOf([chain], [{ id: LAYER, title: 'Parks' }]);
    expect(r.entries.map((e) => [e.node.title, e.uses.map((u) => `${u.title} ${u.how}`)])).toEqual([
      ['City map', ['Parks as a layer']],
      ['City app', ['City map as a web map']],
    ]);
    expect(r).toMatchObject({ hidden: 2, truncated: false });
  });

  it('over several changed items: a dependent found twice is listed once, and changed items are not dependents', () => {
    const second = answer(LAYER2, {
      items: [node(MAP, 'City map', 1), node(LAYER, 'Parks', 1, 'Feature Service')],
      edges: [
        { from: MAP, to: LAYER2, kind: 'table', count: 1, path: '/tables/0/itemId', value: LAYER2 },
        { from: LAYER, to: LAYER2, kind: 'relationship', count: 1, path: '', value: LAYER2, relationshipType: 'Service2Service' },
      ],
      truncated: true,
    });
    const r = impactOf(
      [chain, second],
      [
        { id: LAYER, title: 'Parks' },
        { id: LAYER2, title: 'Trails' },
      ],
    );
    expect(r.entries.map((e) => e.node.id)).toEqual([MAP, APP]);
    expect(r.entries[0].uses.map((u) => `${u.title} ${u.how}`)).toEqual(['Parks as a layer', 'Trails as a table']);
    expect(r).toMatchObject({ hidden: 2, truncated: true });
  });
});

describe('oldUrlReferences', () => {
  const { entries } = impactOf([chain], [{ id: LAYER, title: 'Parks' }]);
  it('names the dependents that wrote an address under the old service root', () => {
    expect(oldUrlReferences(entries, LAYER, URL, 'https://localhost/arcgis/rest/services/Parks2/FeatureServer')).toEqual([
      { entry: entries[0], values: [`${URL}/0`] },
    ]);
  });
  it('is empty when the address does not really change (case, a layer of the same service)', () => {
    expect(oldUrlReferences(entries, LAYER, URL, `${URL.toUpperCase()}/0`)).toEqual([]);
  });
});
