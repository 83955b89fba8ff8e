/**
 * Relationships: addRelationship (defined type, valid pair, visible items, ownership rules, path
 * user), deleteRelationship (only by its creator), relatedItems (types, direction, paging, only
 * visible items) and cascade on item deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { findRelationshipType, pairProblem, RELATIONSHIP_TYPES } from '../../../shared/relationships.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

async function call(method: 'GET' | 'POST', path: string, params: Record<string, string>, token?: string) {
  const all = { f: 'json', ...params, ...(token ? { token } : {}) };
  const res =
    method === 'GET'
      ? await svc.app.inject({ method, url: `/sharing/rest/${path}?${new URLSearchParams(all)}` })
      : await svc.app.inject({ method, url: `/sharing/rest/${path}`, payload: all });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const post = (path: string, params: Record<string, string>, token?: string) => call('POST', path, params, token);
const add = async (user: string, title: string, type: string) => (await post(`content/users/${user}/addItem`, { title, type }, tokens[user])).id as string;
const relate = (user: string, originItemId: string, destinationItemId: string, relationshipType = 'Map2Service') =>
  post(`content/users/${user}/addRelationship`, { originItemId, destinationItemId, relationshipType }, tokens[user]);

describe('catalogue', () => {
  it('holds the rest-js types, each with origin and destination types; lookup ignores case', () => {
    for (const name of [
      'Map2Service',
      'Service2Data',
      'Map2FeatureCollection',
      'Map2AppConfig',
      'Item2Attachment',
      'Item2Report',
      'Service2Service',
      'Survey2Service',
      'Survey2Data',
      'Solution2Item',
      'Area2Package',
      'Map2Area',
      'APIKey2Item',
      'Area2CustomPackage',
      'Service2Layer',
      'Map2IndoorsConfig',
      'App2DependentApp',
    ]) {
      expect(findRelationshipType(name.toLowerCase())?.name).toBe(name);
    }
    for (const r of RELATIONSHIP_TYPES) expect(r.origin.length && r.destination.length).toBeTruthy();
    const m2s = findRelationshipType('Map2Service')!;
    expect(pairProblem(m2s, 'Web Map', 'Feature Service')).toBeNull();
    expect(pairProblem(m2s, 'CSV', 'Feature Service')).toContain('origin');
    expect(pairProblem(m2s, 'Web Map', 'CSV')).toContain('destination');
    expect(pairProblem(findRelationshipType('Item2Attachment')!, 'Anything', 'Else')).toBeNull();
  });
});

describe('addRelationship and deleteRelationship', () => {
  it('adds (relationshipType or relationshipTypes), deletes by the creator only', async () => {
    const map = await add('user1', 'Map', 'Web Map');
    const layer = await add('publisher1', 'Layer', 'Feature Service');
    await svc.db.query(`UPDATE items SET access = 'org' WHERE id = $1`, [layer]);
    expect(
      await post('content/users/user1/addRelationship', { originItemId: map, destinationItemId: layer, relationshipTypes: 'Map2Service' }, tokens.user1),
    ).toEqual({ success: true });
    expect(await svc.db.query('SELECT type, created_by IS NOT NULL AS by FROM relationships WHERE origin_id = $1', [map])).toEqual([
      { type: 'Map2Service', by: true },
    ]);
    // The other item's owner did not create it: refused.
    expect(
      (
        await post(
          'content/users/publisher1/deleteRelationship',
          { originItemId: map, destinationItemId: layer, relationshipType: 'Map2Service' },
          tokens.publisher1,
        )
      ).error.code,
    ).toBe(403);
    expect(
      await post('content/users/user1/deleteRelationship', { originItemId: map, destinationItemId: layer, relationshipType: 'Map2Service' }, tokens.user1),
    ).toEqual({ success: true });
    expect(await svc.db.query('SELECT 1 FROM relationships WHERE origin_id = $1', [map])).toEqual([]);
    expect(
      (await post('content/users/user1/deleteRelationship', { originItemId: map, destinationItemId: layer, relationshipType: 'Map2Service' }, tokens.user1))
        .error.code,
    ).toBe(400);
  });

  it('undefined type, invalid pair, missing type: 400', async () => {
    const map = await add('user1', 'Map', 'Web Map');
    const csv = await add('user1', 'Data', 'CSV');
    const layer = await add('user1', 'Layer', 'Feature Service');
    expect((await relate('user1', map, layer, 'Map2Nothing')).error.details[0]).toContain("'relationshipType'");
    expect((await relate('user1', map, csv)).error.code).toBe(400);
    expect((await relate('user1', csv, layer)).error.code).toBe(400);
    expect((await post('content/users/user1/addRelationship', { originItemId: map, destinationItemId: layer }, tokens.user1)).error.details[0]).toContain(
      "'relationshipType'",
    );
    expect((await relate('user1', map, map)).error.code).toBe(400);
  });

  it('both items must be visible to the caller', async () => {
    const map = await add('user1', 'Map', 'Web Map');
    const hidden = await add('publisher1', 'Hidden', 'Feature Service');
    expect((await relate('user1', map, hidden)).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
  });

  it('ownership rules: Service2Data needs both items owned; Map2Service does not', async () => {
    const layer = await add('publisher1', 'Layer', 'Feature Service');
    const csv = await add('user1', 'Data', 'CSV');
    await svc.db.query(`UPDATE items SET access = 'org' WHERE id = ANY($1)`, [[layer, csv]]);
    expect((await relate('user1', layer, csv, 'Service2Data')).error.code).toBe(403);
    const ownLayer = await add('user1', 'Own layer', 'Feature Service');
    expect(await relate('user1', ownLayer, csv, 'Service2Data')).toEqual({ success: true });
  });

  it('takes the types of the documentation that were refused before (Area2CustomPackage, Service2Layer), with their item types', async () => {
    const area = await add('user1', 'Downtown area', 'Map Area');
    const pkg = await add('user1', 'Downtown tiles', 'Tile Package');
    expect(await relate('user1', area, pkg, 'Area2CustomPackage')).toEqual({ success: true });
    const [service, view] = [await add('user1', 'Parcels', 'Feature Service'), await add('user1', 'Parcels view', 'Feature Service')];
    expect(await relate('user1', service, view, 'Service2Layer')).toEqual({ success: true });
    const related = await call('GET', `content/items/${service}/relatedItems`, { relationshipType: 'Service2Layer', direction: 'forward' }, tokens.user1);
    expect(related.relatedItems.map((i: { id: string }) => i.id)).toEqual([view]);
    expect((await relate('user1', pkg, area, 'Area2CustomPackage')).error.code).toBe(400);
  });

  it('only as the path user', async () => {
    const map = await add('user1', 'Map', 'Web Map');
    const layer = await add('user1', 'Layer', 'Feature Service');
    expect(
      (await post('content/users/user1/addRelationship', { originItemId: map, destinationItemId: layer, relationshipType: 'Map2Service' }, tokens.admin)).error
        .code,
    ).toBe(403);
  });
});

describe('relatedItems', () => {
  it('forward, reverse, both; type filter; paging; only visible items; cascade on delete', async () => {
    const map = await add('user1', 'Map', 'Web Map');
    const layers = [await add('user1', 'L1', 'Feature Service'), await add('user1', 'L2', 'Map Service'), await add('publisher1', 'L3', 'Feature Service')];
    await svc.db.query(`UPDATE items SET access = 'org' WHERE id = $1`, [layers[2]]);
    for (const l of layers) expect(await relate('user1', map, l)).toEqual({ success: true });
    const app = await add('user1', 'App', 'Web Mapping Application');
    expect(await relate('user1', map, app, 'Map2AppConfig')).toEqual({ success: true });

    const fwd = await call('GET', `content/items/${map}/relatedItems`, { relationshipType: 'Map2Service', direction: 'forward' }, tokens.user1);
    expect(fwd).toMatchObject({ total: 3, start: 1, num: 3, nextStart: -1 });
    expect(fwd.relatedItems.map((i: { id: string }) => i.id)).toEqual(layers);
    const paged = await call(
      'GET',
      `content/items/${map}/relatedItems`,
      { relationshipTypes: 'Map2Service,Map2AppConfig', num: '2', start: '2' },
      tokens.user1,
    );
    expect(paged).toMatchObject({ total: 4, start: 2, num: 2, nextStart: 4 });
    const rev = await call('GET', `content/items/${layers[0]}/relatedItems`, { relationshipType: 'Map2Service', direction: 'reverse' }, tokens.user1);
    expect(rev.relatedItems.map((i: { id: string }) => i.id)).toEqual([map]);
    // Each related item says which types relate it (local-portal extra).
    expect(rev.relatedItems[0].relationshipTypes).toEqual(['Map2Service']);
    expect((await call('GET', `content/items/${layers[0]}/relatedItems`, { relationshipType: 'Map2Service', direction: 'forward' }, tokens.user1)).total).toBe(
      0,
    );
    // Inferred direction: both ways.
    expect((await call('GET', `content/items/${layers[0]}/relatedItems`, {}, tokens.user1)).total).toBe(1);
    // publisher1 sees the map? No (private): relatedItems of L3 for publisher1 lists nothing visible.
    expect((await call('GET', `content/items/${layers[2]}/relatedItems`, { direction: 'reverse' }, tokens.publisher1)).total).toBe(0);
    expect((await call('GET', `content/items/${map}/relatedItems`, {}, tokens.publisher1)).error.code).toBe(400);
    expect((await call('GET', `content/items/${map}/relatedItems`, { relationshipType: 'Bogus' }, tokens.user1)).error.code).toBe(400);
    // Deleting an item deletes its relationships.
    await svc.db.query('DELETE FROM items WHERE id = $1', [layers[1]]);
    expect((await call('POST', `content/items/${map}/relatedItems`, { relationshipType: 'Map2Service' }, tokens.user1)).total).toBe(2);
  });
});
