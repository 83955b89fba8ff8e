import { describe, expect, it } from 'vitest';
import type { DependencyAnswer, DependencyNode } from '../../../shared/contract/dependencies.ts';
import { applyReplacements } from '../../../shared/references/replaced.ts';
import { dataReferrers, planReplacement, replacementSwaps, rewriteReferences } from './replace.ts';

const OLD = '0123456789abcdef0123456789abcdef';
const NEW = 'fedcba9876543210fedcba9876543210';
const MAP = '11111111111111111111111111111111';
const APP = '22222222222222222222222222222222';
const VIEW = '33333333333333333333333333333333';
const OLD_URL = 'https://127.0.0.1/arcgis/rest/services/Parks/FeatureServer';
const NEW_URL = 'https://localhost/arcgis/rest/services/Parks2024/FeatureServer';

const node = (id: string, owner: string, type = 'Web Map'): DependencyNode => ({
  id,
  title: id.slice(0, 4),
  type,
  owner,
  access: 'org',
  contentStatus: null,
  url: null,
  modified: 0,
  depth: 1,
});

const answer = (partial: Partial<DependencyAnswer>): DependencyAnswer => ({
  itemId: OLD,
  direction: 'usedBy',
  transitive: false,
  items: [],
  edges: [],
  urls: [],
  hidden: 0,
  truncated: false,
  graph: { source: 'portal' },
  ...partial,
});

describe('dataReferrers', () => {
  it('keeps direct dependents naming the item in their data, each once with every place; not relationships or service URLs', () => {
    const a = answer({
      items: [node(MAP, 'user1'), node(APP, 'user1', 'Web Mapping Application'), node(VIEW, 'user1', 'Feature Service')],
      edges: [
        { from: MAP, to: OLD, kind: 'layer', count: 1, path: '/operationalLayers/0/itemId', value: OLD },
        { from: MAP, to: OLD, kind: 'layer', count: 1, path: '/operationalLayers/0/url', value: `${OLD_URL}/0` },
        // The app uses the map, not the old item: a transitive dependent, not rewritten.
        { from: APP, to: MAP, kind: 'webmap', count: 1, path: '/values/webmap', value: MAP },
        { from: VIEW, to: OLD, kind: 'serviceUrl', count: 1, path: '/url', value: OLD_URL },
        { from: APP, to: OLD, kind: 'relationship', count: 1, path: '', value: OLD, relationshipType: 'Map2Service' },
      ],
    });
    const r = dataReferrers(a, OLD.toUpperCase());
    expect(r.map((x) => x.item.id)).toEqual([MAP]);
    expect(r[0].edges.map((e) => e.path)).toEqual(['/operationalLayers/0/itemId', '/operationalLayers/0/url']);
  });
});

describe('replacementSwaps', () => {
  it('swaps the id, and the service root when both items have one', () => {
    expect(replacementSwaps({ id: OLD, url: `${OLD_URL}/0` }, { id: NEW, url: NEW_URL })).toEqual([
      { from: OLD, to: NEW },
      { from: OLD_URL, to: NEW_URL },
    ]);
    expect(replacementSwaps({ id: OLD, url: OLD_URL }, { id: NEW, url: null })).toEqual([{ from: OLD, to: NEW }]);
    // The same service under a new item: only the id changes.
    expect(replacementSwaps({ id: OLD, url: OLD_URL }, { id: NEW, url: `${OLD_URL.toUpperCase()}/` })).toEqual([{ from: OLD, to: NEW }]);
  });
});

describe('rewriteReferences', () => {
  const webMap = {
    operationalLayers: [
      { id: 'parks', title: `Parks ${OLD}`, itemId: OLD, url: `${OLD_URL}/0`, layerType: 'ArcGISFeatureLayer' },
      { id: 'other', itemId: MAP, url: 'https://localhost/arcgis/rest/services/Other/MapServer' },
    ],
    baseMap: { baseMapLayers: [], title: 'Topographic' },
  };

  it('rewrites the id and the URL where they are referenced (keeping the layer), never a title, and counts the places', () => {
    const swaps = replacementSwaps({ id: OLD, url: OLD_URL }, { id: NEW, url: NEW_URL });
    const { data, changed } = rewriteReferences('Web Map', webMap, swaps);
    expect(changed).toBe(2);
    const layers = (data as typeof webMap).operationalLayers;
    expect(layers[0]).toMatchObject({ itemId: NEW, url: `${NEW_URL}/0`, title: `Parks ${OLD}` });
    expect(layers[1]).toEqual(webMap.operationalLayers[1]);
    expect(webMap.operationalLayers[0].itemId).toBe(OLD);
    // The reverse swaps (what undo applies) give the original back.
    expect(
      applyReplacements(
        'Web Map',
        data,
        swaps.map((s) => ({ from: s.to, to: s.from })),
      ),
    ).toEqual(webMap);
  });

  it('changes nothing in data that does not name the old item', () => {
    const { data, changed } = rewriteReferences('Web Map', { operationalLayers: [] }, [{ from: OLD, to: NEW }]);
    expect(changed).toBe(0);
    expect(data).toEqual({ operationalLayers: [] });
  });
});

describe('planReplacement', () => {
  const referrers = [MAP, APP, NEW].map((id, i) => ({ item: node(id, i === 1 ? 'publisher1' : 'user1'), edges: [] }));

  it("updates the caller's own items, skips someone else's without “Update any content”, and the replacement itself", () => {
    const user = { username: 'User1', orgId: 'org1', role: 'org_user' as const, privileges: ['portal:user:createItem'] };
    const steps = planReplacement(referrers, user, NEW);
    expect(steps.map((s) => s.action)).toEqual(['update', 'skip', 'skip']);
    expect(steps[1]).toMatchObject({ reason: expect.stringMatching(/^It belongs to publisher1: .*portal:admin:updateItems/) });
    expect(steps[2]).toMatchObject({ reason: 'It is the replacement itself: it is left as it is.' });
  });

  it('an administrator with “Update any content” updates everyone’s; a member without createItem updates nothing', () => {
    const admin = { username: 'admin', orgId: 'org1', role: 'org_admin' as const, privileges: ['portal:admin:updateItems'] };
    expect(planReplacement(referrers.slice(0, 2), admin, NEW).map((s) => s.action)).toEqual(['update', 'update']);
    const viewer = { username: 'user1', orgId: 'org1', role: 'org_user' as const, privileges: [] };
    expect(planReplacement(referrers.slice(0, 1), viewer, NEW)[0]).toMatchObject({ action: 'skip', reason: expect.stringMatching(/portal:user:createItem/) });
  });
});
