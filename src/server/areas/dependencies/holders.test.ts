/**
 * The dependents step reads each dependent's node row from its folded reference rows (migration
 * 044), copied there when they are written: what changes on the item afterwards (its title, its
 * sharing, its group shares, its owner, how many items use it) must be what the walk shows and
 * decides by, or a dependent made private would still be listed to those who may no longer see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencyAnswer } from '../../../shared/contract/dependencies.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
const ANON = 'anonymous';

async function add(owner: string, fields: Record<string, string>, share?: 'everyone' | 'org'): Promise<string> {
  const body = await svc.post(`content/users/${owner}/addItem`, fields, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  if (share) await svc.post(`content/users/${owner}/items/${body.id}/share`, { [share]: 'true' }, tokens[owner]);
  return body.id as string;
}
async function post(path: string, params: Record<string, string>, who: string) {
  const body = await svc.post(path, params, tokens[who]);
  expect(body.error, JSON.stringify(body)).toBeUndefined();
  return body;
}
const dependents = (id: string, who: string, params: Record<string, string> = {}) =>
  svc.post(`content/items/${id}/dependents`, params, who === ANON ? undefined : tokens[who]) as Promise<DependencyAnswer>;
const shown = (a: DependencyAnswer) => a.items.map((n) => [n.title, n.access, n.owner]);
const webMap = (layer: string) => JSON.stringify({ operationalLayers: [{ layerType: 'ArcGISFeatureLayer', itemId: layer }] });

let layer: string;
let map: string;

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'publisher1']) tokens[u] = await svc.tokenFor(u);
  layer = await add(
    'admin',
    { title: 'Holder layer', type: 'Feature Service', url: 'https://127.0.0.1/arcgis/rest/services/Holder/FeatureServer' },
    'everyone',
  );
  map = await add('admin', { title: 'Holder map', type: 'Web Map', text: webMap(layer) }, 'everyone');
});
afterAll(() => svc.close());

describe("a dependent's columns changed after its references were indexed", () => {
  it('its title is shown as it is now', async () => {
    expect(shown(await dependents(layer, ANON))).toEqual([['Holder map', 'public', 'admin']]);
    await post(`content/users/admin/items/${map}/update`, { title: 'Holder map, renamed' }, 'admin');
    expect(shown(await dependents(layer, ANON))).toEqual([['Holder map, renamed', 'public', 'admin']]);
  });

  it('made private, it is no longer listed (nor counted) to those who may no longer see it', async () => {
    await post(`content/users/admin/items/${map}/share`, { everyone: 'false', org: 'false' }, 'admin');
    for (const who of [ANON, 'user1']) {
      const a = await dependents(layer, who, { transitive: 'true' });
      expect(a, who).toMatchObject({ items: [], edges: [], hidden: 0 });
      expect(JSON.stringify(a), who).not.toContain(map);
    }
    expect(shown(await dependents(layer, 'admin'))).toEqual([['Holder map, renamed', 'private', 'admin']]);
  });

  it("shared with a group, its members see it ('shared'); unshared, they no longer do", async () => {
    const group = (await post('community/createGroup', { title: `Holders ${Date.now()}`, access: 'org' }, 'admin')).group.id as string;
    await post(`community/groups/${group}/addUsers`, { users: 'user1' }, 'admin');
    await post(`content/users/admin/items/${map}/share`, { groups: group }, 'admin');
    expect(shown(await dependents(layer, 'user1'))).toEqual([['Holder map, renamed', 'shared', 'admin']]);
    expect((await dependents(layer, ANON)).items).toEqual([]);
    await post(`content/users/admin/items/${map}/unshare`, { groups: group }, 'admin');
    expect(await dependents(layer, 'user1')).toMatchObject({ items: [], hidden: 0 });
  });

  it('given to another owner, it is listed as theirs, and its new owner sees it', async () => {
    await post(`content/users/admin/items/${map}/reassign`, { targetUsername: 'publisher1' }, 'admin');
    expect(shown(await dependents(layer, 'publisher1'))).toEqual([['Holder map, renamed', 'private', 'publisher1']]);
  });

  it('used by an item added later, the transitive walk steps on from it (its count is kept)', async () => {
    await post(`content/users/publisher1/items/${map}/share`, { everyone: 'true' }, 'publisher1');
    expect((await dependents(layer, ANON, { transitive: 'true' })).items.map((n) => n.depth)).toEqual([1]);
    const app = await add('admin', { title: 'Holder app', type: 'Web Mapping Application', text: JSON.stringify({ values: { webmap: map } }) }, 'everyone');
    const a = await dependents(layer, ANON, { transitive: 'true' });
    expect(a.items.map((n) => [n.id, n.depth])).toEqual([
      [map, 1],
      [app, 2],
    ]);
    // Its user deleted, it is a leaf again: the walk ends at it.
    await post(`content/users/admin/items/${app}/delete`, {}, 'admin');
    expect((await dependents(layer, ANON, { transitive: 'true' })).items.map((n) => n.id)).toEqual([map]);
  });
});

// Migration 050: a step reads the rows of up to 1,200 bytes from its index, the longer ones (a long
// URL or title) through another; a row that grows or shrinks past that moves from one to the other.
describe('a dependent whose row is too long for the index that holds the others', () => {
  it('is listed with the others, before and after its row shrinks past the bound', async () => {
    const target = await add(
      'admin',
      { title: 'Long rows layer', type: 'Feature Service', url: 'https://127.0.0.1/arcgis/rest/services/LongRows/FeatureServer' },
      'everyone',
    );
    const longUrl = `https://127.0.0.1/arcgis/home/webmap/viewer.html?note=${'x'.repeat(1_500)}`;
    const long = await add('admin', { title: 'L'.repeat(256), type: 'Web Map', url: longUrl, text: webMap(target) }, 'everyone');
    const short = await add('admin', { title: 'Short row map', type: 'Web Map', text: webMap(target) }, 'everyone');
    const listed = async () => (await dependents(target, ANON, { transitive: 'true' })).items.map((n) => [n.id, n.url?.length ?? 0]).sort();
    // The case this covers: the long map's row is past the bound (the short one's is not).
    const rowBytes = async (id: string) =>
      (await svc.db.query<{ b: number }>('SELECT octet_length(dependent_row) AS b FROM item_reference_edges WHERE item_id = $1', [id]))[0].b;
    expect([(await rowBytes(long)) > 1_200, (await rowBytes(short)) > 1_200]).toEqual([true, false]);
    expect(await listed()).toEqual(
      [
        [long, longUrl.length],
        [short, 0],
      ].sort(),
    );
    await post(`content/users/admin/items/${long}/update`, { url: 'https://127.0.0.1/arcgis/home/webmap/viewer.html' }, 'admin');
    expect(await listed()).toEqual(
      [
        [long, 48],
        [short, 0],
      ].sort(),
    );
    await post(`content/users/admin/items/${short}/update`, { url: longUrl }, 'admin');
    expect(await listed()).toEqual(
      [
        [long, 48],
        [short, longUrl.length],
      ].sort(),
    );
  });
});
