/**
 * Reassign with Esri's client over real HTTP: `reassignItem` as the default administrator (its
 * local org-admin check passes), and `request()` for canReassign, canReassignItems and
 * reassignItems, whose CONT_0291 refusal arrives as an ArcGISRequestError carrying the details.
 */
import { reassignItem } from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager, ArcGISRequestError, request } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertItem } from '../../src/server/areas/items/manage.test-support.ts';
import { startService, type TestService } from '../support/service.ts';
import { rejection, signInDemo } from '../support/rest-js.ts';

let svc: TestService;
let portal: string;
let admin: ArcGISIdentityManager;
let publisher: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  [admin, publisher] = await signInDemo(portal, 'admin', 'publisher1');
});
afterAll(() => svc.close());

const ownerOf = async (id: string) =>
  (await svc.db.query<{ username: string }>('SELECT u.username FROM items i JOIN users u ON u.id = i.owner_id WHERE i.id = $1', [id]))[0].username;

describe('reassign with rest-js', () => {
  it('reassignItem as the default administrator moves the item into a new folder', async () => {
    const id = await insertItem(svc, 'user1');
    const res = await reassignItem({ id, currentOwner: 'user1', targetUsername: 'publisher1', targetFolderName: 'From user1', authentication: admin });
    expect(res).toMatchObject({ success: true, itemId: id });
    expect(await ownerOf(id)).toBe('publisher1');
  });

  it('reassignItem to a Viewer rejects with CONT_0291 and the item in details', async () => {
    const id = await insertItem(svc, 'user1');
    const err = await rejection(reassignItem({ id, currentOwner: 'user1', targetUsername: 'viewer1', authentication: admin }));
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err.code).toBe('CONT_0291');
    expect(err.response.error.details).toEqual([expect.objectContaining({ itemId: id, type: 'Web Map', url: null, reservedTypeKeywords: [], owner: 'user1' })]);
    expect(await ownerOf(id)).toBe('user1');
  });

  it('reassignItem refuses locally for a non-administrator (rest-js checks community/self)', async () => {
    const id = await insertItem(svc, 'publisher1');
    await expect(reassignItem({ id, currentOwner: 'publisher1', targetUsername: 'user1', authentication: publisher })).rejects.toThrow(
      /not an organization administrator/,
    );
  });
});

describe('checks and the bulk form with request()', () => {
  it('canReassign and canReassignItems answer success for transferable items', async () => {
    const ids = [await insertItem(svc, 'user1'), await insertItem(svc, 'user1')];
    expect(
      await request(`${portal}/content/users/user1/items/${ids[0]}/canReassign`, {
        authentication: admin,
        params: { targetUsername: 'publisher1', item: ids[0] },
      }),
    ).toEqual({ success: true, itemId: ids[0] });
    const res = await request(`${portal}/content/users/user1/canReassignItems`, {
      authentication: admin,
      params: { items: ids, targetUsername: 'publisher1' },
    });
    expect(res).toEqual({ results: ids.map((itemId) => ({ itemId, success: true })) });
  });

  it('canReassignItems with a refused target rejects with one detail per item', async () => {
    const ids = [await insertItem(svc, 'user1'), await insertItem(svc, 'user1')];
    const err = await rejection(
      request(`${portal}/content/users/user1/canReassignItems`, { authentication: admin, params: { items: ids, targetUsername: 'partner_admin' } }),
    );
    expect(err.code).toBe('CONT_0291');
    expect(err.response.error.details.map((d: { itemId: string }) => d.itemId)).toEqual(ids);
  });

  it('more than 100 ids is a 400', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `${i}`.padStart(32, 'a'));
    const err = await rejection(
      request(`${portal}/content/users/user1/canReassignItems`, { authentication: admin, params: { items: ids, targetUsername: 'publisher1' } }),
    );
    expect(err.response.error.code).toBe(400);
  });

  it('reassignItems (targetFoldername spelling) answers a result per item', async () => {
    const ids = [await insertItem(svc, 'user1'), await insertItem(svc, 'user1')];
    const res = await request(`${portal}/content/users/user1/reassignItems`, {
      authentication: admin,
      params: { items: ids, targetUsername: 'publisher1', targetFoldername: '/' },
    });
    expect(res.results.map((r: { itemId: string; success: boolean }) => [r.itemId, r.success])).toEqual(ids.map((id) => [id, true]));
    expect(await ownerOf(ids[1])).toBe('publisher1');
  });
});
