/**
 * The browser graph's answers over records made by hand: the walk (direct, transitive, cycles,
 * bounds), URL references resolved by service key, and the organization view's filters and paging.
 */
import { describe, expect, it } from 'vitest';
import { DEPENDENCY_LIMITS } from '../../../shared/contract/dependencies.ts';
import { ApiError } from '../../api/errors.ts';
import { dependencyAnswerOf, dependencySummaryOf, indexGraph } from './answers.ts';
import { BROWSER_GRAPH_VERSION, nodeFieldsOf, type GraphSnapshot, type ItemRecord, type StoredReference } from './records.ts';

const id = (n: number) => n.toString(16).padStart(32, '0');
const SERVICE = 'http://127.0.0.1:3000/server/rest/services/parcels/featureserver';

function record(n: number, fields: Partial<ItemRecord> & { refs?: StoredReference[] } = {}): ItemRecord {
  const { refs, ...rest } = fields;
  return {
    ...nodeFieldsOf({ id: id(n), title: `Item ${n}`, type: 'Web Map', owner: 'amy', access: 'org', url: null, modified: 1000 + n, created: n }),
    references: refs ?? [],
    version: BROWSER_GRAPH_VERSION,
    ...rest,
  };
}
const uses = (n: number, kind: StoredReference['kind'] = 'webmap'): StoredReference => ({ kind, path: `/ref/${n}`, value: id(n), item: id(n) });

function graphOf(records: ItemRecord[]) {
  const snapshot: GraphSnapshot = {
    meta: { orgId: 'org', builtAt: 42, itemsTotal: records.length, itemsRead: records.length, itemsFailed: 0 },
    records: new Map(records.map((r) => [r.id, r])),
  };
  return indexGraph(snapshot);
}

// 1 = Feature Service, 2 = Web Map using its layer 0, 3 = app using the map, 4 = app using the map too.
const layerRef: StoredReference = { kind: 'layer', path: '/operationalLayers/0/url', value: `${SERVICE}/0`, url: SERVICE };
const chain = () =>
  graphOf([
    record(1, { type: 'Feature Service', url: `${SERVICE}`, serviceKey: SERVICE }),
    record(2, { refs: [layerRef, { kind: 'basemapLayer', path: '/baseMap/0/url', value: 'http://localhost:9/tiles', url: 'http://localhost:9/tiles' }] }),
    record(3, { type: 'Web Mapping Application', refs: [uses(2)] }),
    record(4, { type: 'Dashboard', title: 'A dashboard', refs: [uses(2, 'widget')] }),
  ]);

describe('dependencyAnswerOf', () => {
  it('direct dependents of a layer: the map, with the edge from map to service and no deeper item', () => {
    const a = dependencyAnswerOf(chain(), id(1), 'usedBy');
    expect(a.items.map((i) => [i.id, i.depth])).toEqual([[id(2), 1]]);
    expect(a.edges).toEqual([{ from: id(2), to: id(1), kind: 'layer', count: 1, path: '/operationalLayers/0/url', value: `${SERVICE}/0` }]);
    expect(a).toMatchObject({ itemId: id(1), direction: 'usedBy', transitive: false, hidden: 0, truncated: false, urls: [] });
    expect(a.graph).toEqual({ source: 'browser', builtAt: 42, itemsRead: 4, itemsTotal: 4 });
  });

  it('transitive dependents: map at depth 1, both apps at depth 2, ordered by depth then title', () => {
    const a = dependencyAnswerOf(chain(), id(1).toUpperCase(), 'usedBy', { transitive: true });
    expect(a.itemId).toBe(id(1));
    expect(a.items.map((i) => [i.title, i.depth])).toEqual([
      ['Item 2', 1],
      ['A dashboard', 2],
      ['Item 3', 2],
    ]);
    expect(a.edges).toHaveLength(3);
    expect(a.truncated).toBe(false);
  });

  it('what an app uses, transitively: map, then service; an address no item stands for is a URL', () => {
    const a = dependencyAnswerOf(chain(), id(3), 'uses', { transitive: true });
    expect(a.items.map((i) => [i.id, i.depth])).toEqual([
      [id(2), 1],
      [id(1), 2],
    ]);
    expect(a.urls).toEqual([{ from: id(2), url: 'http://localhost:9/tiles', kind: 'basemapLayer', value: 'http://localhost:9/tiles' }]);
  });

  it('direct uses name only the item’s own URLs, and a depth bound that stops the walk says truncated', () => {
    const direct = dependencyAnswerOf(chain(), id(3), 'uses');
    expect(direct.items.map((i) => i.id)).toEqual([id(2)]);
    expect(direct.urls).toEqual([]);
    expect(direct.truncated).toBe(false);
    const bounded = dependencyAnswerOf(chain(), id(3), 'uses', { transitive: true, maxDepth: 1 });
    expect(bounded.items.map((i) => i.id)).toEqual([id(2)]);
    expect(bounded.truncated).toBe(true);
  });

  it('a cycle ends where it closes; each item once at its smallest depth', () => {
    const g = graphOf([record(1, { refs: [uses(2)] }), record(2, { refs: [uses(3)] }), record(3, { refs: [uses(1)] })]);
    const a = dependencyAnswerOf(g, id(1), 'uses', { transitive: true });
    expect(a.items.map((i) => [i.id, i.depth])).toEqual([
      [id(2), 1],
      [id(3), 2],
    ]);
    expect(a.edges).toHaveLength(3);
    expect(a.truncated).toBe(false);
  });

  it('a layer item whose URL is its own service is no dependent of itself; references to unknown ids are dropped', () => {
    const g = graphOf([
      record(1, { type: 'Feature Service', url: SERVICE, serviceKey: SERVICE }),
      record(2, {
        type: 'Feature Layer',
        url: `${SERVICE}/0`,
        serviceKey: SERVICE,
        refs: [{ kind: 'serviceUrl', path: '/url', value: `${SERVICE}/0`, url: SERVICE }],
      }),
      record(3, { refs: [uses(99)] }),
    ]);
    expect(dependencyAnswerOf(g, id(2), 'uses').items.map((i) => i.id)).toEqual([id(1)]);
    expect(dependencyAnswerOf(g, id(1), 'usedBy').items.map((i) => i.id)).toEqual([id(2)]);
    expect(dependencyAnswerOf(g, id(3), 'uses')).toMatchObject({ items: [], edges: [], urls: [], hidden: 0 });
  });

  it('stops at maxNodes and says truncated', () => {
    const many = Array.from({ length: DEPENDENCY_LIMITS.maxNodes + 5 }, (_, i) => record(i + 2, { refs: [uses(1)] }));
    const a = dependencyAnswerOf(graphOf([record(1), ...many]), id(1), 'usedBy');
    expect(a.items).toHaveLength(DEPENDENCY_LIMITS.maxNodes);
    expect(a.truncated).toBe(true);
  });

  it('references of one kind between two items are one edge with their count, the first by path as the example', () => {
    const often = Array.from({ length: 2_000 }, (_, k) => ({ ...uses(1, 'layer'), path: `/operationalLayers/${String(k).padStart(4, '0')}/itemId` }));
    const a = dependencyAnswerOf(graphOf([record(1), record(2, { refs: [...often.reverse(), uses(1, 'table')] })]), id(1), 'usedBy');
    expect(a.edges).toEqual([
      { from: id(2), to: id(1), kind: 'layer', count: 2_000, path: '/operationalLayers/0000/itemId', value: id(1) },
      { from: id(2), to: id(1), kind: 'table', count: 1, path: '/ref/1', value: id(1) },
    ]);
  });

  it('stops at maxEdges and says truncated', () => {
    // 1,000 items each using the layer three ways: 3,000 edges among fewer than maxNodes items.
    const kinds = ['layer', 'table', 'basemapLayer'] as const;
    const many = Array.from({ length: 1_000 }, (_, i) => record(i + 2, { refs: kinds.map((k) => uses(1, k)) }));
    const a = dependencyAnswerOf(graphOf([record(1), ...many]), id(1), 'usedBy');
    expect(a.items).toHaveLength(1_000);
    expect(a.edges).toHaveLength(DEPENDENCY_LIMITS.maxEdges);
    expect(a.truncated).toBe(true);
  });

  it('an item not in the graph is refused as the portal refuses it', () => {
    expect(() => dependencyAnswerOf(chain(), id(77), 'uses')).toThrow(ApiError);
    expect(() => dependencyAnswerOf(chain(), id(77), 'uses')).toThrow(/does not exist or is inaccessible/);
  });
});

describe('dependencySummaryOf', () => {
  it('unused: items nothing uses, oldest modified first, with their counts', () => {
    const s = dependencySummaryOf(chain(), { view: 'unused' });
    expect(s.results.map((r) => r.id)).toEqual([id(3), id(4)]);
    expect(s.results[0]).toMatchObject({ dependents: 0, dependencies: 1, created: 3, modified: 1003 });
    expect(s).toMatchObject({ view: 'unused', total: 2, start: 1, num: 2, nextStart: -1 });
    expect(s.graph.source).toBe('browser');
  });

  it('unused leaves out registered apps: their sign-ins use them (the typeKeyword marks them)', () => {
    const app = nodeFieldsOf({
      id: id(9),
      title: 'Sign-in app',
      type: 'Application',
      owner: 'amy',
      access: 'org',
      url: null,
      modified: 1,
      created: 1,
      typeKeywords: ['Application', 'Registered App'],
    });
    expect(app.registeredApp).toBe(true);
    const g = graphOf([...chain().snapshot.records.values(), { ...app, references: [], version: BROWSER_GRAPH_VERSION }]);
    expect(dependencySummaryOf(g, { view: 'unused' }).results.map((r) => r.id)).toEqual([id(3), id(4)]);
  });

  it('usedByMany: at least minDependents (default 2), most first', () => {
    expect(dependencySummaryOf(chain(), { view: 'usedByMany' }).results.map((r) => [r.id, r.dependents])).toEqual([[id(2), 2]]);
    expect(dependencySummaryOf(chain(), { view: 'usedByMany', minDependents: 1 }).results.map((r) => [r.id, r.dependents])).toEqual([
      [id(2), 2],
      [id(1), 1],
    ]);
  });

  it('filters by owner (any case), exact type and modifiedBefore', () => {
    const g = graphOf([record(1, { owner: 'Amy' }), record(2, { owner: 'bob', type: 'Dashboard' }), record(3, { owner: 'amy', modified: 5000 })]);
    expect(dependencySummaryOf(g, { view: 'unused', owners: ['AMY'] }).results.map((r) => r.id)).toEqual([id(1), id(3)]);
    expect(dependencySummaryOf(g, { view: 'unused', types: ['Dashboard'] }).results.map((r) => r.id)).toEqual([id(2)]);
    expect(dependencySummaryOf(g, { view: 'unused', modifiedBefore: 5000 }).results.map((r) => r.id)).toEqual([id(1), id(2)]);
  });

  it('pages like search: 1-based start, nextStart -1 at the end, past the end empty with the total', () => {
    const g = graphOf(Array.from({ length: 5 }, (_, i) => record(i + 1)));
    expect(dependencySummaryOf(g, { view: 'unused', start: 1, num: 2 })).toMatchObject({ total: 5, start: 1, num: 2, nextStart: 3 });
    const last = dependencySummaryOf(g, { view: 'unused', start: 5, num: 2 });
    expect(last).toMatchObject({ total: 5, num: 1, nextStart: -1 });
    expect(last.results.map((r) => r.id)).toEqual([id(5)]);
    expect(dependencySummaryOf(g, { view: 'unused', start: 9, num: 2 })).toMatchObject({ total: 5, num: 0, nextStart: -1, results: [] });
    expect(dependencySummaryOf(g, { view: 'unused', num: 1000 }).num).toBe(5);
  });
});
