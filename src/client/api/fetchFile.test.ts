/**
 * Files the console fetches (item data, info files, thumbnails, CSV exports) carry the token in the
 * X-Esri-Authorization header, never in the URL, and the error envelope still becomes an ApiError.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../test/render.tsx';
import { startClientService, type ClientTestService } from '../test/service.ts';
import { ApiError } from './errors.ts';
import { fetchItemData, fetchItemInfoFile, fetchItemThumbnail } from './items.ts';
import { filenameOf, request } from './request.ts';

let svc: ClientTestService;
let token: string;
let itemId: string;

beforeAll(async () => {
  svc = await startClientService();
  ({ token } = await signInAs(svc, 'admin'));
  const added = await request<{ id: string }>(
    'content/users/admin/addItem',
    { title: 'Private data', type: 'Web Map', text: '{"operationalLayers":[]}' },
    { method: 'POST' },
  );
  itemId = added.id;
});
afterAll(() => svc?.close());
afterEach(() => vi.restoreAllMocks());

function watchFetch() {
  const spy = vi.spyOn(globalThis, 'fetch');
  return () => spy.mock.calls.map(([input, init]) => ({ url: String(input), headers: new Headers(init?.headers) }));
}

describe('fetchFile', () => {
  it("fetches a private item's data with the token in the header only", async () => {
    const calls = watchFetch();
    const file = await fetchItemData(itemId);
    expect(JSON.parse(await file.blob.text())).toEqual({ operationalLayers: [] });
    const [call] = calls();
    expect(call.url).toMatch(new RegExp(`/content/items/${itemId}/data$`));
    expect(call.url).not.toContain('token');
    expect(call.headers.get('X-Esri-Authorization')).toBe(`Bearer ${token}`);
  });

  it('turns the error envelope into an ApiError (an info file that is not there, a missing thumbnail)', async () => {
    await expect(fetchItemInfoFile(itemId, 'esriinfo/nothing.xml')).rejects.toBeInstanceOf(ApiError);
    await expect(fetchItemThumbnail({ id: itemId, thumbnail: 'thumbnail/none.png' })).rejects.toMatchObject({ code: expect.any(Number) });
  });

  it('without the header the private data is refused, as a URL without a token would be', async () => {
    const res = await fetch(`${svc.restUrl}/content/items/${itemId}/data`);
    const body = (await res.json()) as { error?: { code: number }; operationalLayers?: unknown };
    expect(body.error?.code).toBeGreaterThanOrEqual(400);
    expect(body.operationalLayers).toBeUndefined();
  });
});

describe('filenameOf', () => {
  it('reads filename* first, then filename', () => {
    expect(filenameOf(`attachment; filename="plain.csv"; filename*=UTF-8''caf%C3%A9.csv`)).toBe('café.csv');
    expect(filenameOf('attachment; filename="history.csv"')).toBe('history.csv');
    expect(filenameOf('attachment; filename=data.zip')).toBe('data.zip');
    expect(filenameOf('inline')).toBeUndefined();
    expect(filenameOf(null)).toBeUndefined();
  });
});
