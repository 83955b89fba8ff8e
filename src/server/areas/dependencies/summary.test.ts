/**
 * portals/<orgId>/dependencies (docs/dependencies.md "On the local portal"): unused items (oldest
 * modified first) and items used by many (most first), with the owners/types/modifiedBefore
 * filters and search's paging; hidden dependents count; another organization is refused. And the
 * start-up indexer: items written without the index (a database from before migration 020) are
 * read at start-up, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependencySummaryAnswer } from '../../../shared/contract/dependencies.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { indexPendingItems, REFERENCE_INDEX_VERSION } from './indexer.ts';
import { foldTally } from './tally.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
// Types of this test only: the demo organization's own items stay out of the filtered views.
const LAYER = 'Feature Service';
const MAP = 'Web Map';

async function add(owner: string, fields: Record<string, string>): Promise<string> {
  const body = await svc.post(`content/users/${owner}/addItem`, fields, tokens[owner]);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.id as string;
}
const summary = (params: Record<string, string>, who = 'admin', org = 'self') =>
  svc.post(`portals/${org}/dependencies`, params, tokens[who]) as Promise<DependencySummaryAnswer & { error?: { code: number } }>;
const setModified = (id: string, modified: number) => svc.db.query('UPDATE items SET modified = $2 WHERE id = $1', [id, modified]);
const ids = (a: DependencySummaryAnswer) => a.results.map((r) => r.id);

const url = (name: string) => `https://127.0.0.1/arcgis/rest/services/${name}/FeatureServer`;
const webMap = (...layers: string[]) => JSON.stringify({ operationalLayers: layers.map((l) => ({ itemId: l })) });

let popular: string;
let used: string;
let unusedOld: string;
let unusedNew: string;
let userLayer: string;
let maps: string[];

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'user1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  popular = await add('admin', { title: 'Popular', type: LAYER, url: url('Popular') });
  used = await add('admin', { title: 'Used once', type: LAYER, url: url('Used') });
  unusedOld = await add('admin', { title: 'Old unused', type: LAYER, url: url('Old') });
  unusedNew = await add('admin', { title: 'New unused', type: LAYER, url: url('New') });
  userLayer = await add('user1', { title: 'Mine', type: LAYER, url: url('Mine') });
  // Three maps use the popular layer (one by its URL only); one also uses `used`.
  maps = [
    await add('admin', { title: 'M1', type: MAP, text: webMap(popular, used) }),
    await add('admin', { title: 'M2', type: MAP, text: webMap(popular) }),
    await add('admin', { title: 'M3', type: MAP, text: JSON.stringify({ operationalLayers: [{ url: `${url('Popular')}/3` }] }) }),
  ];
  await setModified(unusedOld, 1_000);
  await setModified(unusedNew, 2_000);
  await setModified(userLayer, 3_000);
});
afterAll(() => svc.close());

describe('unused', () => {
  it('items nothing uses, oldest modified first, with counts', async () => {
    const a = await summary({ view: 'unused', types: LAYER, num: '100' });
    expect(ids(a)).toEqual([unusedOld, unusedNew, userLayer]);
    expect(a).toMatchObject({ view: 'unused', total: 3, start: 1, num: 3, nextStart: -1, graph: { source: 'portal' } });
    expect(a.results[0]).toMatchObject({
      title: 'Old unused',
      owner: 'admin',
      access: 'private',
      dependents: 0,
      dependencies: 0,
      modified: 1_000,
      created: expect.any(Number),
    });
  });

  it('filters: owners, types, modifiedBefore; paging', async () => {
    expect(ids(await summary({ view: 'unused', types: LAYER, owners: 'user1' }))).toEqual([userLayer]);
    expect(ids(await summary({ view: 'unused', types: LAYER, modifiedBefore: '2500' }))).toEqual([unusedOld, unusedNew]);
    const first = await summary({ view: 'unused', types: LAYER, num: '2' });
    expect(first).toMatchObject({ total: 3, start: 1, num: 2, nextStart: 3 });
    const second = await summary({ view: 'unused', types: LAYER, num: '2', start: '3' });
    expect(second).toMatchObject({ total: 3, start: 3, num: 1, nextStart: -1 });
    expect(ids(second)).toEqual([userLayer]);
    expect(await summary({ view: 'unused', types: LAYER, start: '50' })).toMatchObject({ total: 3, num: 0, nextStart: -1, results: [] });
  });

  it('a member counts only the dependents they can see, except of their own items; items they cannot see are not listed', async () => {
    // user1 sees no admin item (all private): only their own layer is listed, and not `used`.
    const a = await summary({ view: 'unused', types: LAYER }, 'user1');
    expect(ids(a)).toEqual([userLayer]);
    // `used` is used only by the admin's private map M1: to user1 that map is not there, so neither is the use.
    await svc.post(`content/users/admin/items/${used}/share`, { org: 'true' }, tokens.admin);
    expect(ids(await summary({ view: 'unused', types: LAYER }, 'user1'))).toEqual([userLayer, used]);
    expect(ids(await summary({ view: 'usedByMany', minDependents: '1', types: LAYER }, 'user1'))).toEqual([]);
    // Once M1 is shared with the organization, user1 sees the use.
    await svc.post(`content/users/admin/items/${maps[0]}/share`, { org: 'true' }, tokens.admin);
    expect(ids(await summary({ view: 'unused', types: LAYER }, 'user1'))).toEqual([userLayer]);
    const many = await summary({ view: 'usedByMany', minDependents: '1', types: LAYER }, 'user1');
    expect(many.results.map((r) => [r.id, r.dependents])).toEqual([[used, 1]]);
    // The owner of an item counts every dependent of it: a private map of the admin's using user1's layer.
    const mine = await add('admin', { title: 'Uses mine', type: MAP, text: webMap(userLayer) });
    const counted = (await summary({ view: 'usedByMany', minDependents: '1', types: LAYER }, 'user1')).results.map((r) => [r.id, r.dependents]);
    // Equal counts come in id order: compare without it.
    expect(counted.sort()).toEqual(
      [
        [used, 1],
        [userLayer, 1],
      ].sort(),
    );
    await svc.post(`content/users/admin/items/${mine}/delete`, {}, tokens.admin);
    await svc.post(`content/users/admin/items/${maps[0]}/share`, { org: 'false', everyone: 'false' }, tokens.admin);
    expect(ids(await summary({ view: 'unused', types: LAYER }, 'user1'))).toEqual([userLayer, used]);
  });
});

describe('registered apps', () => {
  it('an app registered for sign-in is used by its sign-ins: never unused, nor counted there', async () => {
    const app = await add('admin', { title: 'Sign-in app', type: 'Application' });
    // Shared with the organization, so that a member sees it too.
    await svc.post(`content/users/admin/items/${app}/share`, { org: 'true' }, tokens.admin);
    expect(ids(await summary({ view: 'unused', types: 'Application', num: '100' }, 'user1'))).toContain(app);
    const before = await summary({ view: 'unused', types: 'Application', num: '100' });
    expect(ids(before)).toContain(app);
    const registered = await svc.post('oauth2/registerApp', { itemId: app, appType: 'browser', redirect_uris: '[]' }, tokens.admin);
    expect(registered.client_id, JSON.stringify(registered)).toBeTruthy();
    const after = await summary({ view: 'unused', types: 'Application', num: '100' });
    expect(ids(after)).not.toContain(app);
    expect(after.total).toBe(before.total - 1);
    // As a member who owns none of them, and unfiltered (the tally's total) as the administrator.
    expect(ids(await summary({ view: 'unused', types: 'Application', num: '100' }, 'user1'))).not.toContain(app);
    const all = await summary({ view: 'unused', num: '100' });
    expect(all.total).toBe(
      (
        await svc.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM items i JOIN item_reference_state st ON st.item_id = i.id
            WHERE i.org_id = $1 AND i.status <> 'partial' AND st.dependents = 0 AND NOT EXISTS (SELECT 1 FROM oauth_apps a WHERE a.item_id = i.id)`,
          [svc.orgId],
        )
      )[0].n,
    );
  });
});

describe('usedByMany', () => {
  it('items with at least minDependents dependents, most first', async () => {
    const a = await summary({ view: 'usedByMany', types: LAYER });
    expect(ids(a)).toEqual([popular]);
    expect(a.results[0]).toMatchObject({ dependents: 3, dependencies: 0 });
    const one = await summary({ view: 'usedByMany', minDependents: '1', types: LAYER });
    expect(ids(one)).toEqual([popular, used]);
    expect(one.total).toBe(2);
    const m = await summary({ view: 'usedByMany', minDependents: '1', types: MAP });
    expect(ids(m)).toEqual([]);
    const unused = await summary({ view: 'unused', types: MAP, num: '100' });
    expect(maps.map((id) => unused.results.find((r) => r.id === id)?.dependencies)).toEqual([2, 1, 1]);
  });

  it('bad parameters get the 400 envelope; another organization is refused', async () => {
    expect((await summary({ view: 'everything' })).error?.code).toBe(400);
    expect((await summary({ view: 'usedByMany', minDependents: '0' })).error?.code).toBe(400);
    expect((await summary({}, 'partner_admin', svc.orgId)).error?.code).toBe(403);
    expect((await summary({}, 'admin', svc.orgId)).error).toBeUndefined();
  });
});

describe('start-up indexing', () => {
  it('reads items that were written without the index, once', async () => {
    // As a database from before migration 020 has them: rows written directly, marked unread.
    const [owner] = await svc.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    const old = 'f'.repeat(32);
    await svc.db.query(
      `INSERT INTO items (id, org_id, owner_id, title, type, data_kind, data_text, size, created, modified)
       VALUES ($1, $2, $3, 'Old map', 'Web Map', 'text', $4, 10, 0, 0)`,
      [old, svc.orgId, owner.id, webMap(unusedOld)],
    );
    await svc.db.query('UPDATE item_reference_state SET version = 0 WHERE item_id = $1', [popular]);
    expect(await svc.db.query('SELECT version FROM item_reference_state WHERE item_id = $1', [old])).toEqual([{ version: 0 }]);
    expect(await indexPendingItems(svc.app.portal, { batch: 1 })).toBe(2);
    expect(await svc.db.query('SELECT version FROM item_reference_state WHERE version < $1', [REFERENCE_INDEX_VERSION])).toEqual([]);
    const a = await svc.post(`content/items/${unusedOld}/dependents`, {}, tokens.admin);
    expect(a.items.map((n: { id: string }) => n.id)).toEqual([old]);
    // Nothing left: the next start reads nothing.
    expect(await indexPendingItems(svc.app.portal)).toBe(0);
  });
});

describe('dependent counts kept in the index (migration 023)', () => {
  const stored = async (id: string) =>
    (await svc.db.query<{ dependents: number }>('SELECT dependents FROM item_reference_state WHERE item_id = $1', [id]))[0]?.dependents;

  it('follow updates, deletes, relationships and a change of service key; another organization never counts', async () => {
    const target = await add('admin', { title: 'Counted', type: LAYER, url: url('Counted') });
    expect(await stored(target)).toBe(0);
    // By id and by URL from one map: one dependent.
    const m = await add('admin', {
      title: 'Counting map',
      type: MAP,
      text: JSON.stringify({ operationalLayers: [{ itemId: target }, { url: `${url('Counted')}/0` }] }),
    });
    expect(await stored(target)).toBe(1);
    const byUrl = await add('admin', { title: 'By URL', type: MAP, text: JSON.stringify({ operationalLayers: [{ url: `${url('Elsewhere')}/1` }] }) });
    expect(await stored(target)).toBe(1);
    // The layer's URL moves to what `byUrl` names: that map now counts, the first still uses it by id.
    await svc.post(`content/users/admin/items/${target}/update`, { url: url('Elsewhere') }, tokens.admin);
    expect(await stored(target)).toBe(2);
    await svc.post(`content/users/admin/items/${m}/update`, { text: JSON.stringify({ operationalLayers: [] }) }, tokens.admin);
    expect(await stored(target)).toBe(1);
    const form = await add('admin', { title: 'Counting form', type: 'Form', text: '{}' });
    await svc.post('content/users/admin/addRelationship', { originItemId: form, destinationItemId: target, relationshipType: 'Survey2Service' }, tokens.admin);
    expect(await stored(target)).toBe(2);
    await svc.post(`content/users/admin/items/${form}/delete`, {}, tokens.admin);
    await svc.post(`content/users/admin/items/${byUrl}/delete`, {}, tokens.admin);
    expect(await stored(target)).toBe(0);
    // Another organization's map naming it by id.
    const partner = await svc.post('content/users/partner_admin/addItem', { title: 'Partner map', type: MAP, text: webMap(target) }, tokens.partner_admin);
    expect(partner.success).toBe(true);
    expect(await stored(target)).toBe(0);
    for (const id of [target, m]) await svc.post(`content/users/admin/items/${id}/delete`, {}, tokens.admin);
  });
});

describe('the view read from indexes (migration 024)', () => {
  /** The unfiltered view as an administrator with viewItems answers it, and the same rows counted and ordered directly. */
  const check = async () => {
    const direct = (cond: string) =>
      svc.db.query<{ id: string }>(
        `SELECT i.id FROM items i JOIN item_reference_state st ON st.item_id = i.id
          WHERE i.org_id = $1 AND i.status <> 'partial' AND ${cond} ORDER BY i.modified, i.id`,
        [svc.orgId],
      );
    // A registered app is used by its sign-ins (never unused).
    const unused = await direct('st.dependents = 0 AND NOT EXISTS (SELECT 1 FROM oauth_apps a WHERE a.item_id = i.id)');
    const a = await summary({ view: 'unused', num: '100' });
    expect(a.total).toBe(unused.length);
    expect(ids(a)).toEqual(unused.slice(0, 100).map((r) => r.id));
    for (const min of [1, 2, 3])
      expect((await summary({ view: 'usedByMany', minDependents: String(min) })).total).toBe((await direct(`st.dependents >= ${min}`)).length);
  };

  it('totals and the unused order follow adds, uses, deletes, modified and open uploads', async () => {
    await check();
    const layer = await add('admin', { title: 'Tallied', type: LAYER, url: url('Tallied') });
    const users = [
      await add('admin', { title: 'T1', type: MAP, text: webMap(layer, popular) }),
      await add('user1', { title: 'T2', type: MAP, text: webMap(layer) }),
    ];
    await check();
    // Modified moves an item in the unused order; an open upload is not listed nor counted.
    await setModified(users[0], 500);
    await svc.db.query(`UPDATE items SET status = 'partial' WHERE id = $1`, [users[1]]);
    await check();
    await svc.db.query(`UPDATE items SET status = 'completed' WHERE id = $1`, [users[1]]);
    await svc.post(`content/users/admin/items/${users[0]}/delete`, {}, tokens.admin);
    await check();
    expect(
      await svc.db.query('SELECT count(*)::int AS n FROM item_reference_state st JOIN items i ON i.id = st.item_id WHERE st.modified <> i.modified'),
    ).toEqual([{ n: 0 }]);
    await svc.post(`content/users/user1/items/${users[1]}/delete`, {}, tokens.user1);
    await svc.post(`content/users/admin/items/${layer}/delete`, {}, tokens.admin);
    await check();
  });

  it('folding the tally keeps every sum, one row per count', async () => {
    const sums = () =>
      svc.db.query<{ org_id: string; dependents: number; n: number }>(
        'SELECT org_id, dependents, sum(items)::int AS n FROM item_dependent_tally GROUP BY org_id, dependents HAVING sum(items) <> 0 ORDER BY 1, 2',
      );
    const before = await sums();
    await foldTally(svc.db, null);
    expect(await sums()).toEqual(before);
    const [{ rows }] = await svc.db.query<{ rows: number }>('SELECT count(*)::int AS rows FROM item_dependent_tally');
    expect(rows).toBe(before.length);
    await check();
  });
});
