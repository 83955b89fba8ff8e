/**
 * An app and its code attachment go together (WMA2Code, MobileApp2Code: "treated as one item when
 * deleted", ArcGIS relationship types): deleting the app deletes the attachment, into the recycle bin
 * or for good as the app went; other relationships leave their destinations; a protected attachment stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = await svc.tokenFor('publisher1');
});
afterAll(() => svc.close());

const add = async (params: Record<string, string>) => {
  const body = await svc.post('content/users/publisher1/addItem', params, token);
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.id as string;
};
const item = (id: string) => svc.post(`content/items/${id}`, {}, token);
const remove = (id: string, params: Record<string, string> = {}) => svc.post(`content/users/publisher1/items/${id}/delete`, params, token);

/** An app with a code attachment made as solution.js makes it: addItem with relationshipType and originItemId. */
async function appWithCode(type = 'Web Mapping Application', relationshipType = 'WMA2Code') {
  const app = await add({ title: 'App', type, text: '{}' });
  const code = await add({ title: 'App code', type: 'Code Attachment', relationshipType, originItemId: app });
  const related = await svc.post(`content/items/${app}/relatedItems`, { relationshipType, direction: 'forward' }, token);
  expect(related.relatedItems.map((r: { id: string }) => r.id)).toEqual([code]);
  return { app, code };
}

describe('deleting an app deletes its code attachment', () => {
  it('into the recycle bin with the app (WMA2Code)', async () => {
    const { app, code } = await appWithCode();
    expect(await remove(app)).toEqual({ success: true, itemId: app });
    expect((await item(code)).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
    const bin = await svc.post(`content/users/publisher1/items/${code}/canRestore`, {}, token);
    expect(bin).toEqual({ itemId: code, success: true });
  });

  it('for good with permanentDelete (MobileApp2Code)', async () => {
    const { app, code } = await appWithCode('Mobile Application', 'MobileApp2Code');
    expect(await remove(app, { permanentDelete: 'true' })).toEqual({ success: true, itemId: app });
    expect((await item(code)).error).toMatchObject({ code: 400, messageCode: 'CONT_0001' });
    const bin = await svc.post(`content/users/publisher1/items/${code}/canRestore`, {}, token);
    expect(bin.error?.code, JSON.stringify(bin)).toBeGreaterThanOrEqual(400);
  });

  it('keeps a protected code attachment, and still deletes the app', async () => {
    const { app, code } = await appWithCode();
    expect((await svc.post(`content/users/publisher1/items/${code}/protect`, {}, token)).success).toBe(true);
    expect(await remove(app)).toEqual({ success: true, itemId: app });
    expect((await item(code)).id).toBe(code);
  });

  it('leaves the destinations of other relationships', async () => {
    const map = await add({ title: 'Map', type: 'Web Map', text: '{}' });
    const service = await add({ title: 'Service', type: 'Feature Service', url: 'http://127.0.0.1:9/arcgis/rest/services/x/FeatureServer' });
    expect(
      (await svc.post('content/users/publisher1/addRelationship', { originItemId: map, destinationItemId: service, relationshipType: 'Map2Service' }, token))
        .success,
    ).toBe(true);
    expect((await remove(map)).success).toBe(true);
    expect((await item(service)).id).toBe(service);
  });
});
