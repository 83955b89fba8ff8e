/**
 * What the dependency operations reveal to whom (issue 35, docs/security.md "Dependencies"): the
 * walk stops at what the caller may see; hidden items are counted only for the item's owner and its
 * organization's administrators, never across organizations; another organization's items are no
 * dependents; an id the caller may not see answers as an id naming nothing. And the bounds on an
 * answer: one edge per (from, to, kind) with a count, rows per step, `truncated`. Callers:
 * anonymous, partner_admin (Partner Organization), user1 (a member who cannot see a private item).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyAnswer, DependencySummaryAnswer } from '../../../shared/contract/dependencies.ts';
import { LIMITS } from '../../../shared/limits.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { resolveCaller } from '../users/service.ts';
import { stepOfDependents } from './edges.ts';
import { startOfWalk } from './nodes.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
const ANON = 'anonymous';

async function add(owner: string, fields: Record<string, string>, share?: 'everyone' | 'org'): Promise<string> {
  const body = await svc.post(`content/users/${owner}/addItem`, fields, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  if (share) await svc.post(`content/users/${owner}/items/${body.id}/share`, { [share]: 'true' }, tokens[owner]);
  return body.id as string;
}
type Answer = DependencyAnswer & { error?: { code: number; message: string; details?: string[] } };
const ask = (id: string, direction: 'dependencies' | 'dependents', who: string, params: Record<string, string> = {}) =>
  svc.post(`content/items/${id}/${direction}`, params, who === ANON ? undefined : tokens[who]) as Promise<Answer>;
const summary = (params: Record<string, string>, who: string) =>
  svc.post('portals/self/dependencies', params, tokens[who]) as Promise<DependencySummaryAnswer & { error?: unknown }>;

const url = (name: string) => `https://127.0.0.1/arcgis/rest/services/${name}/FeatureServer`;
const webMap = (...layers: string[]) => JSON.stringify({ operationalLayers: layers.map((l) => ({ layerType: 'ArcGISFeatureLayer', itemId: l })) });
const webApp = (mapId: string) => JSON.stringify({ source: 'abc', values: { webmap: mapId } });
const ids = (a: { items: { id: string }[] }) => a.items.map((n) => n.id);

// Demo Organization: a public layer; a private map of the admin using it; a public app showing that map.
let layer: string;
let privateMap: string;
let publicApp: string;
// user1's own public layer, used by the admin's private map.
let userLayer: string;
let userMap: string;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  layer = await add('admin', { title: 'Hidden-walk layer', type: 'Feature Service', url: url('HiddenWalk') }, 'everyone');
  privateMap = await add('admin', { title: 'Private map', type: 'Web Map', text: webMap(layer) });
  publicApp = await add('admin', { title: 'Public app', type: 'Web Mapping Application', text: webApp(privateMap) }, 'everyone');
  userLayer = await add('user1', { title: 'Member layer', type: 'Feature Service', url: url('MemberLayer') }, 'everyone');
  userMap = await add('admin', { title: 'Admin map of the member layer', type: 'Web Map', text: webMap(userLayer) });
});
afterAll(() => svc.close());

describe('the walk stops at what the caller may see', () => {
  it('dependents of a public layer: the admin sees the map and the app; others see neither, nor a count', async () => {
    const all = await ask(layer, 'dependents', 'admin', { transitive: 'true' });
    expect(ids(all)).toEqual([privateMap, publicApp]);
    for (const who of [ANON, 'partner_admin', 'user1']) {
      const a = await ask(layer, 'dependents', who, { transitive: 'true' });
      // The public app uses the layer only through the private map: the walk does not pass it.
      expect(a, who).toMatchObject({ items: [], edges: [], hidden: 0, truncated: false });
      expect(JSON.stringify(a)).not.toContain(privateMap);
    }
  });

  it('dependencies of a public app: what the private map uses is not listed', async () => {
    const mine = await ask(publicApp, 'dependencies', 'admin', { transitive: 'true' });
    expect(mine.items.map((n) => [n.id, n.depth])).toEqual([
      [privateMap, 1],
      [layer, 2],
    ]);
    for (const who of [ANON, 'partner_admin', 'user1']) {
      const a = await ask(publicApp, 'dependencies', who, { transitive: 'true' });
      expect(a, who).toMatchObject({ items: [], edges: [], urls: [], hidden: 0, truncated: false });
    }
  });

  it("the item's owner (no viewItems) is told how many items they cannot see use it; nobody else is", async () => {
    expect(await ask(userLayer, 'dependents', 'user1')).toMatchObject({ items: [], edges: [], hidden: 1 });
    expect(ids(await ask(userLayer, 'dependents', 'admin'))).toEqual([userMap]);
    for (const who of [ANON, 'partner_admin']) expect(await ask(userLayer, 'dependents', who), who).toMatchObject({ items: [], hidden: 0 });
  });

  it('an id the caller may not see answers as an id naming no item', async () => {
    const made = 'a'.repeat(32);
    for (const who of [ANON, 'partner_admin', 'user1']) {
      for (const direction of ['dependencies', 'dependents'] as const) {
        const hidden = await ask(privateMap, direction, who, { transitive: 'true' });
        const none = await ask(made, direction, who, { transitive: 'true' });
        expect(hidden.error, `${who} ${direction}`).toMatchObject({ code: 400 });
        expect(JSON.stringify(hidden).replaceAll(privateMap, made), `${who} ${direction}`).toBe(JSON.stringify(none));
      }
    }
  });
});

describe("the start's statement takes the first step only for an item the caller may see", () => {
  // Taken for a hidden item, the step would make its refusal slower than an unknown id's (a timing
  // answer to whether the id exists); taken for a visible one, it saves the walk a statement.
  const startAs = async (who: string, id: string, direction: 'uses' | 'usedBy') => {
    const caller = who === ANON ? null : await resolveCaller(svc.db, tokens[who], Date.now(), { headers: {} });
    return startOfWalk(svc.db, id, caller, { direction, maxRows: LIMITS.dependencyReferenceRowsPerStep, withLeaves: true });
  };

  it('visible: the row and its first step; hidden or no such item: neither', async () => {
    const seen = await startAs('admin', layer, 'usedBy');
    expect(seen.row?.id).toBe(layer);
    expect(stepOfDependents(seen.firstStep!, LIMITS.dependencyReferenceRowsPerStep).edges.map((e) => e.from)).toEqual([privateMap]);
    expect((await startAs(ANON, publicApp, 'uses')).firstStep?.edges?.[1]).toEqual([privateMap]);
    for (const who of [ANON, 'partner_admin', 'user1']) {
      for (const direction of ['uses', 'usedBy'] as const) {
        const hidden = await startAs(who, privateMap, direction);
        expect(hidden, `${who} ${direction}`).toMatchObject({ row: undefined, firstStep: null });
      }
    }
    expect(await startAs('admin', 'a'.repeat(32), 'usedBy')).toMatchObject({ row: undefined, firstStep: null });
  });
});

describe('a walk steps only from dependents something uses', () => {
  // The walk takes no step from a dependent the index counts no dependents for (edges.ts leaves):
  // each way a dependent can have dependents of its own must still be followed, to its depth.
  it("by id, by the map's service URL and by a relationship: found at depth 2; a hidden one counted for the owner", async () => {
    const start = await add('user1', { title: 'Leaf-walk layer', type: 'Feature Service', url: url('LeafWalk') }, 'everyone');
    const map = await add('user1', { title: 'Leaf-walk map', type: 'Web Map', text: webMap(start) }, 'everyone');
    const service = await add('user1', { title: 'Leaf-walk view', type: 'Feature Service', url: url('LeafWalkView') }, 'everyone');
    const source = await svc.post(
      'content/users/user1/addRelationship',
      { originItemId: service, destinationItemId: start, relationshipType: 'Service2Service' },
      tokens.user1,
    );
    expect(source.success, JSON.stringify(source)).toBe(true);
    const byUrl = await add(
      'user1',
      { title: 'Leaf-walk map of the view', type: 'Web Map', text: JSON.stringify({ operationalLayers: [{ url: `${url('LeafWalkView')}/0` }] }) },
      'everyone',
    );
    const form = await add('user1', { title: 'Leaf-walk form', type: 'Form' }, 'everyone');
    const rel = await svc.post(
      'content/users/user1/addRelationship',
      { originItemId: form, destinationItemId: map, relationshipType: 'Survey2Data' },
      tokens.user1,
    );
    expect(rel.success, JSON.stringify(rel)).toBe(true);
    const hiddenApp = await add('admin', { title: 'Leaf-walk private app', type: 'Web Mapping Application', text: webApp(map) });
    const a = await ask(start, 'dependents', 'user1', { transitive: 'true' });
    expect(a.items.map((n) => n.title).sort()).toEqual(['Leaf-walk form', 'Leaf-walk map', 'Leaf-walk map of the view', 'Leaf-walk view']);
    expect(a.items.map((n) => [n.id, n.depth]).sort()).toEqual(
      [
        [map, 1],
        [service, 1],
        [byUrl, 2],
        [form, 2],
      ].sort(),
    );
    expect(a).toMatchObject({ hidden: 1, truncated: false });
    expect(JSON.stringify(a)).not.toContain(hiddenApp);
    // Direct only: what the dependents' dependents are is not asked, and not counted.
    expect(await ask(start, 'dependents', 'user1')).toMatchObject({ hidden: 0, truncated: false });
  });
});

describe('another organization', () => {
  let partnerMap: string;
  let demoLayer: string;

  beforeAll(async () => {
    demoLayer = await add('admin', { title: 'Cross-org layer', type: 'Feature Service', url: url('CrossOrg') }, 'everyone');
    partnerMap = await add('partner_admin', { title: 'Partner map', type: 'Web Map', text: webMap(demoLayer) }, 'everyone');
  });

  it('its items are no dependents here, even public ones, and are never counted', async () => {
    for (const who of ['admin', ANON, 'partner_admin']) {
      const a = await ask(demoLayer, 'dependents', who, { transitive: 'true' });
      expect(a, who).toMatchObject({ items: [], edges: [], hidden: 0, truncated: false });
    }
    // What the partner's own map uses is its business: the public layer it names.
    expect(ids(await ask(partnerMap, 'dependencies', 'partner_admin'))).toEqual([demoLayer]);
  });

  it('the organization view counts only its own items: the layer is unused, in no usedByMany', async () => {
    const filter = { types: 'Feature Service', num: '100' };
    const unused = await summary({ view: 'unused', ...filter }, 'admin');
    expect(unused.results.find((r) => r.id === demoLayer)).toMatchObject({ dependents: 0 });
    const many = await summary({ view: 'usedByMany', minDependents: '1', ...filter }, 'admin');
    expect(many.results.map((r) => r.id)).not.toContain(demoLayer);
    // A map of this organization using it counts (the index keeps the count in step).
    const demoMap = await add('admin', { title: 'Demo map of it', type: 'Web Map', text: webMap(demoLayer) });
    const after = await summary({ view: 'usedByMany', minDependents: '1', ...filter }, 'admin');
    expect(after.results.find((r) => r.id === demoLayer)).toMatchObject({ dependents: 1 });
    await svc.post(`content/users/admin/items/${demoMap}/delete`, {}, tokens.admin);
    expect((await summary({ view: 'unused', ...filter }, 'admin')).results.map((r) => r.id)).toContain(demoLayer);
  });
});

describe('bounds on an answer', () => {
  it('data naming an item thousands of times is one edge with a count; a step past its row bound says truncated', async () => {
    const target = await add('admin', { title: 'Named often', type: 'Feature Service', url: url('Often') }, 'everyone');
    // Three public maps, each naming the layer 4,000 times: 12,000 references, past the rows one step reads.
    const times = 4_000;
    const repeated = JSON.stringify({ operationalLayers: Array.from({ length: times }, (_, k) => ({ id: `l${k}`, itemId: target })) });
    const maps = [];
    for (let k = 0; k < 3; k++) maps.push(await add('admin', { title: `Often ${k}`, type: 'Web Map', text: repeated }, 'everyone'));
    const a = await ask(target, 'dependents', ANON);
    expect(a.truncated).toBe(true);
    expect(a.edges.length).toBeLessThanOrEqual(3);
    for (const e of a.edges) expect(e).toMatchObject({ to: target, kind: 'layer', path: '/operationalLayers/0/itemId' });
    const counted = a.edges.reduce((n, e) => n + e.count, 0);
    expect(counted).toBeGreaterThan(LIMITS.dependencyReferenceRowsPerStep - 3 * times);
    expect(counted).toBeLessThanOrEqual(LIMITS.dependencyReferenceRowsPerStep + 1);
    expect(JSON.stringify(a).length).toBeLessThan(10_000);
    // One map alone is within the bound: one edge, counted in full.
    const one = await ask(maps[0], 'dependencies', ANON);
    expect(one).toMatchObject({ truncated: false, edges: [{ from: maps[0], to: target, kind: 'layer', count: times }] });
    for (const m of maps) await svc.post(`content/users/admin/items/${m}/delete`, {}, tokens.admin);
  });
});
