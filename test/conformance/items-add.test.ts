/**
 * Esri's client (@esri/arcgis-rest-portal / -request 4.10.2) against the running local portal over
 * real HTTP: createItem with a file, text and url; createItemInFolder; a multipart upload
 * (createItem multipart, addItemPart with partNum in the query, commitItemUpload, getItemStatus,
 * getItemParts, cancelItemUpload); relationships (addItemRelationship, getRelatedItems,
 * removeItemRelationship); and the errors rest-js raises from our envelopes.
 */
import {
  addItemPart,
  addItemRelationship,
  cancelItemUpload,
  commitItemUpload,
  createItem,
  createItemInFolder,
  getItemParts,
  getItemStatus,
  getRelatedItems,
  removeItemRelationship,
} from '@esri/arcgis-rest-portal';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../support/service.ts';
import { rejection } from '../support/rest-js.ts';
import { readBlob } from '../../src/server/store/blobs.ts';

let svc: TestService;
let portal: string;
let user1: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  portal = await svc.listen();
  user1 = await ArcGISIdentityManager.signIn({ username: 'user1', password: DEMO_PASSWORD, portal });
});
afterAll(() => svc.close());

const row = async (id: string) => (await svc.db.query<Record<string, any>>('SELECT * FROM items WHERE id = $1', [id]))[0];
const blob = async (key: string) => (await readBlob(svc.app.portal.blobs, key, 1024 * 1024)).toString('utf8');

describe('createItem', () => {
  it('with a file', async () => {
    const res = await createItem({
      item: { title: 'Cities', type: 'CSV', tags: ['a', 'b'] },
      file: new File(['name,pop\nX,1\n'], 'cities.csv', { type: 'text/csv' }),
      authentication: user1,
    });
    expect(res).toEqual({ success: true, id: expect.any(String), folder: null });
    const r = await row(res.id);
    expect(r).toMatchObject({ title: 'Cities', type: 'CSV', tags: ['a', 'b'], name: 'cities.csv', data_kind: 'file' });
    expect(await blob(r.data_blob)).toBe('name,pop\nX,1\n');
  });

  it('with text and properties', async () => {
    const res = await createItem({
      item: {
        title: 'Map',
        type: 'Web Map',
        properties: { a: 1 },
        extent: [
          [-1, -2],
          [3, 4],
        ],
      },
      text: JSON.stringify({ operationalLayers: [] }),
      authentication: user1,
    });
    expect(await row(res.id)).toMatchObject({
      data_text: '{"operationalLayers":[]}',
      properties: { a: 1 },
      extent: [
        [-1, -2],
        [3, 4],
      ],
    });
  });

  it('with a url', async () => {
    const res = await createItem({
      item: { title: 'Layer', type: 'Feature Service', url: 'https://example.com/arcgis/rest/services/x/FeatureServer' },
      authentication: user1,
    });
    expect((await row(res.id)).url).toBe('https://example.com/arcgis/rest/services/x/FeatureServer');
  });

  it('missing type: rest-js raises the service’s error', async () => {
    const err = await rejection(createItem({ item: { title: 'No type' } as never, authentication: user1 }));
    expect(err.originalMessage).toBe("'type' and 'title' property required.");
  });

  it('createItemInFolder', async () => {
    const [u] = await svc.db.query<{ id: string; org_id: string }>(`SELECT id, org_id FROM users WHERE username = 'user1'`);
    await svc.db.query('INSERT INTO folders (id, org_id, owner_id, title, created) VALUES ($1, $2, $3, $4, 0)', [
      'd'.repeat(32),
      u.org_id,
      u.id,
      'Conformance',
    ]);
    const res = await createItemInFolder({ item: { title: 'In folder', type: 'Web Map' }, folderId: 'd'.repeat(32), authentication: user1 });
    expect(res).toEqual({ success: true, id: expect.any(String), folder: 'd'.repeat(32) });
  });
});

describe('multipart upload', () => {
  it('createItem multipart, addItemPart (query partNum, out of order), getItemParts, commitItemUpload, getItemStatus', async () => {
    const started = await createItem({ item: { title: 'ignored', type: 'CSV' }, multipart: true, filename: 'big.csv', authentication: user1 });
    const id = started.id;
    expect(await getItemStatus({ id, owner: 'user1', authentication: user1 })).toMatchObject({ status: 'partial', itemId: id });
    expect(await addItemPart({ id, owner: 'user1', partNum: 2, file: new File(['2,2\n'], 'p2'), authentication: user1 })).toMatchObject({ success: true });
    expect(await addItemPart({ id, owner: 'user1', partNum: 1, file: new File(['a,b\n'], 'p1'), authentication: user1 })).toMatchObject({ success: true });
    expect(await getItemParts({ id, owner: 'user1', authentication: user1 })).toEqual({ parts: [1, 2] });
    expect(await commitItemUpload({ id, owner: 'user1', item: { title: 'Big CSV', type: 'CSV', tags: ['x'] }, authentication: user1 })).toEqual({
      success: true,
      id,
    });
    expect(await getItemStatus({ id, owner: 'user1', authentication: user1 })).toMatchObject({ status: 'completed', itemId: id });
    const r = await row(id);
    expect(r).toMatchObject({ title: 'Big CSV', tags: ['x'] });
    expect(await blob(r.data_blob)).toBe('a,b\n2,2\n');
  });

  it('a part number outside 1–10000 is refused by rest-js itself; a gap is refused by the service', async () => {
    const { id } = await createItem({ item: { title: 'x', type: 'CSV' }, multipart: true, filename: 'gap.csv', authentication: user1 });
    await expect(addItemPart({ id, owner: 'user1', partNum: 0, file: new File(['x'], 'p'), authentication: user1 })).rejects.toThrow();
    await addItemPart({ id, owner: 'user1', partNum: 3, file: new File(['x'], 'p'), authentication: user1 });
    const err = await rejection(commitItemUpload({ id, owner: 'user1', item: { title: 'T', type: 'CSV' }, authentication: user1 }));
    expect(err.originalMessage).toContain('1, 2');
    expect(await cancelItemUpload({ id, owner: 'user1', authentication: user1 })).toEqual({ success: true });
    expect(await row(id)).toBeUndefined();
  });

  it('getItemStatus of a failed job: rest-js throws with the status message (documented rest-js behaviour)', async () => {
    const { id } = await createItem({ item: { title: 'x', type: 'CSV' }, multipart: true, filename: 'f.csv', authentication: user1 });
    await svc.db.query(`UPDATE items SET status = 'failed', status_message = 'The source answered HTTP 404.' WHERE id = $1`, [id]);
    const err = await rejection(getItemStatus({ id, owner: 'user1', authentication: user1 }));
    expect(err.message).toContain('The source answered HTTP 404.');
  });
});

describe('relationships', () => {
  it('addItemRelationship, getRelatedItems (both directions), removeItemRelationship', async () => {
    const map = await createItem({ item: { title: 'Map', type: 'Web Map' }, authentication: user1 });
    const layer = await createItem({ item: { title: 'Layer', type: 'Feature Service', url: 'https://example.com/FeatureServer' }, authentication: user1 });
    expect(await addItemRelationship({ originItemId: map.id, destinationItemId: layer.id, relationshipType: 'Map2Service', authentication: user1 })).toEqual({
      success: true,
    });
    const forward = await getRelatedItems({ id: map.id, relationshipType: 'Map2Service', direction: 'forward', authentication: user1 });
    expect(forward.total).toBe(1);
    expect(forward.relatedItems.map((i) => i.id)).toEqual([layer.id]);
    const reverse = await getRelatedItems({ id: layer.id, relationshipType: ['Map2Service', 'Service2Data'], direction: 'reverse', authentication: user1 });
    expect(reverse.relatedItems.map((i) => i.id)).toEqual([map.id]);
    expect(await removeItemRelationship({ originItemId: map.id, destinationItemId: layer.id, relationshipType: 'Map2Service', authentication: user1 })).toEqual(
      { success: true },
    );
    expect((await getRelatedItems({ id: map.id, relationshipType: 'Map2Service', authentication: user1 })).total).toBe(0);
  });

  it('an undefined relationship type is an ArcGISRequestError', async () => {
    const map = await createItem({ item: { title: 'Map', type: 'Web Map' }, authentication: user1 });
    const layer = await createItem({ item: { title: 'Layer', type: 'Feature Service' }, authentication: user1 });
    const err = await rejection(
      addItemRelationship({ originItemId: map.id, destinationItemId: layer.id, relationshipType: 'Nope2Nothing' as never, authentication: user1 }),
    );
    expect(err.name).toBe('ArcGISRequestError');
  });

  it('createItem with a relationship to an origin (params): the new item is its destination', async () => {
    const map = await createItem({ item: { title: 'Map', type: 'Web Map' }, authentication: user1 });
    const layer = await createItem({
      item: { title: 'Layer', type: 'Feature Service' },
      params: { relationshipType: 'Map2Service', originItemId: map.id },
      authentication: user1,
    });
    const rel = await getRelatedItems({ id: map.id, relationshipType: 'Map2Service', direction: 'forward', authentication: user1 });
    expect(rel.relatedItems.map((i) => i.id)).toEqual([layer.id]);
  });
});
