/** The dependency answer drawn as a tree: order, placement under shortest paths, cycles, hidden links. */
import { describe, expect, it } from 'vitest';
import type { DependencyAnswer, DependencyEdge, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { buildDependencyTree, countTree } from './tree.ts';
import { referenceInWords, referencesInWords, relativeTime, webHost } from './wording.ts';
import { dependencyListToParams, modifiedBeforeFor, parseDependencyList } from './list.ts';

const id = (n: number) => n.toString(16).padStart(32, '0');
const node = (n: number, title: string, depth = 1): DependencyNode => ({
  id: id(n),
  title,
  type: 'Web Map',
  owner: 'user1',
  access: 'org',
  contentStatus: null,
  url: null,
  modified: 0,
  depth,
});
const uses = (from: number, to: number, kind: DependencyEdge['kind'] = 'layer'): DependencyEdge => ({
  from: id(from),
  to: id(to),
  kind,
  count: 1,
  path: '',
  value: id(to),
});
const answer = (direction: DependencyAnswer['direction'], items: DependencyNode[], edges: DependencyEdge[]) => ({ itemId: id(1), direction, items, edges });

describe('buildDependencyTree', () => {
  it('"Used by": the app under the map under the layer asked about', () => {
    // 2 (map) uses 1 (layer) as a layer; 3 (app) uses 2 as its web map.
    const tree = buildDependencyTree(answer('usedBy', [node(3, 'App', 2), node(2, 'Map')], [uses(2, 1), uses(3, 2, 'webmap')]));
    expect(tree.map((n) => n.item.title)).toEqual(['Map']);
    expect(tree[0].edges.map((e) => e.kind)).toEqual(['layer']);
    expect(tree[0].children.map((n) => n.item.title)).toEqual(['App']);
    expect(tree[0].children[0].edges.map((e) => e.kind)).toEqual(['webmap']);
  });

  it('"Uses": the layer under the map under the app asked about', () => {
    const tree = buildDependencyTree({ ...answer('uses', [node(2, 'Map'), node(3, 'Layer', 2)], [uses(1, 2, 'webmap'), uses(2, 3)]) });
    expect(tree.map((n) => n.item.title)).toEqual(['Map']);
    expect(tree[0].children.map((n) => n.item.title)).toEqual(['Layer']);
  });

  it('draws an item reached two ways once, at its shortest depth, naming the other item that leads to it', () => {
    // Layer 1 is in maps 2 and 3; app 4 uses both maps; map 3 also uses layer 1 directly.
    const items = [node(2, 'Map B'), node(3, 'Map A'), node(4, 'App', 2)];
    const tree = buildDependencyTree(answer('usedBy', items, [uses(2, 1), uses(3, 1), uses(4, 2, 'webmap'), uses(4, 3, 'webmap')]));
    expect(tree.map((n) => n.item.title)).toEqual(['Map A', 'Map B']); // sorted by title
    const placements = tree.flatMap((n) => n.children.map((c) => `${n.item.title}>${c.item.title}`));
    expect(placements).toHaveLength(1);
    const app = tree.flatMap((n) => n.children)[0];
    expect(app.alsoThrough.map((n) => n.title)).toHaveLength(1);
    expect(countTree(tree)).toBe(3);
  });

  it('ends on cycles and ignores edges back to the item asked about', () => {
    const tree = buildDependencyTree(answer('usedBy', [node(2, 'A'), node(3, 'B', 2)], [uses(2, 1), uses(3, 2), uses(2, 3), uses(1, 3)]));
    expect(countTree(tree)).toBe(2);
    expect(tree[0].children[0].item.title).toBe('B');
  });

  it('puts items reached only through hidden items at the top, marked, and skips edges to items not in the answer', () => {
    const tree = buildDependencyTree(answer('usedBy', [node(2, 'Seen'), node(5, 'Behind a hidden map', 2)], [uses(2, 1), uses(9, 1)]));
    expect(tree.map((n) => [n.item.title, n.throughHidden])).toEqual([
      ['Behind a hidden map', true],
      ['Seen', false],
    ]);
  });

  it('matches ids in any case', () => {
    const upper = { ...uses(2, 1), from: id(2).toUpperCase() };
    expect(countTree(buildDependencyTree(answer('usedBy', [node(2, 'Map')], [upper])))).toBe(1);
  });
});

describe('wording', () => {
  it('says each kind in words, relationships with their type', () => {
    expect(referenceInWords({ kind: 'layer' })).toBe('as a layer');
    expect(referenceInWords({ kind: 'basemapLayer' })).toBe('as a basemap layer');
    expect(referenceInWords({ kind: 'webmap' })).toBe('as a web map');
    expect(referenceInWords({ kind: 'dataSource' })).toBe('as a data source');
    expect(referenceInWords({ kind: 'relationship', relationshipType: 'Map2Service' })).toBe('through the relationship Map2Service');
    expect(referencesInWords([{ kind: 'layer' }, { kind: 'layer' }, { kind: 'table' }, { kind: 'dataSource' }])).toBe(
      'as a layer, as a table and as a data source',
    );
  });

  it('says how long ago, and takes only http(s) addresses as links', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(relativeTime(now - 10_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 minutes ago');
    expect(relativeTime(now - 26 * 3600_000, now)).toBe('yesterday');
    expect(webHost('https://127.0.0.1:8443/arcgis/rest/services/Parks/FeatureServer')).toBe('127.0.0.1:8443');
    expect(webHost('javascript:alert(1)')).toBeNull();
    expect(webHost('not a url')).toBeNull();
  });
});

describe('the organization view in the address', () => {
  it('reads back what it wrote, and anything else as the defaults', () => {
    const state = { view: 'usedByMany' as const, owner: 'user1', type: 'Web Map', age: '1y' as const, start: 26, num: 25 };
    expect(parseDependencyList(dependencyListToParams(state))).toEqual(state);
    expect(dependencyListToParams(parseDependencyList(new URLSearchParams('view=all&age=5y&start=-3&num=1000')))).toEqual(new URLSearchParams());
  });

  it('turns an age into modifiedBefore from the hour, none for any time', () => {
    const now = Date.UTC(2026, 5, 1, 12, 34, 56);
    expect(modifiedBeforeFor('', now)).toBeUndefined();
    expect(modifiedBeforeFor('1y', now)).toBe(Date.UTC(2026, 5, 1, 12) - 365 * 24 * 3600_000);
  });
});
