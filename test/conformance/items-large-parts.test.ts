/**
 * Esri's client (@esri/arcgis-rest-portal 4.10.2) sends addItemPart's `token` field after the file
 * part. Parts of the sizes multipart uploads use (the documentation asks only for at least 5 MB)
 * are taken before their token up to LIMITS.fileBytesBeforeToken; a larger one is refused as too
 * large (413, which rest-js raises as a request error), never as a missing token (499, which rest-js
 * and the console would take for a lost session).
 */
import { addItemPart, commitItemUpload, createItem } from '@esri/arcgis-rest-portal';
import { ArcGISAuthError, ArcGISIdentityManager, ArcGISRequestError } from '@esri/arcgis-rest-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/shared/limits.ts';
import { DEMO_PASSWORD, startService, type TestService } from '../support/service.ts';
import { rejection } from '../support/rest-js.ts';

let svc: TestService;
let user1: ArcGISIdentityManager;

beforeAll(async () => {
  svc = await startService();
  const portal = await svc.listen();
  user1 = await ArcGISIdentityManager.signIn({ username: 'user1', password: DEMO_PASSWORD, portal });
});
afterAll(() => svc.close());

const MB = 1024 * 1024;
const part = (bytes: number, fill: number, name: string) => new File([Buffer.alloc(bytes, fill)], name);

describe('addItemPart with parts over 10 MB', () => {
  it('a 24 MB part and a 1 MB last part, token after each file, make an item of 25 MB', async () => {
    const { id } = await createItem({ item: { title: 'ignored', type: 'CSV' }, multipart: true, filename: 'big.csv', authentication: user1 });
    expect(await addItemPart({ id, owner: 'user1', partNum: 1, file: part(24 * MB, 97, 'p1'), authentication: user1 })).toMatchObject({ success: true });
    expect(await addItemPart({ id, owner: 'user1', partNum: 2, file: part(MB, 98, 'p2'), authentication: user1 })).toMatchObject({ success: true });
    expect(await commitItemUpload({ id, owner: 'user1', item: { title: 'Large parts', type: 'CSV' }, authentication: user1 })).toEqual({ success: true, id });
    const [row] = await svc.db.query<{ size: string; title: string }>('SELECT size, title FROM items WHERE id = $1', [id]);
    expect({ title: row.title, size: Number(row.size) }).toEqual({ title: 'Large parts', size: 25 * MB });
  }, 60_000);

  it('a part over the allowance before the token is refused as too large (413), not as a missing token', async () => {
    const { id } = await createItem({ item: { title: 'ignored', type: 'CSV' }, multipart: true, filename: 'huge.csv', authentication: user1 });
    const err = await rejection(addItemPart({ id, owner: 'user1', partNum: 1, file: part(LIMITS.fileBytesBeforeToken + MB, 97, 'p1'), authentication: user1 }));
    expect(err).toBeInstanceOf(ArcGISRequestError);
    expect(err).not.toBeInstanceOf(ArcGISAuthError);
    expect(err.code).toBe(413);
    expect(err.response.error.details[0]).toContain('send the token first');
  }, 60_000);
});
