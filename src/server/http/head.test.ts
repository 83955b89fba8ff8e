/**
 * HEAD: answered where a client asks it before a download (a file's size, whether ranges are
 * offered) — an item's data, its info and resource files, a group's info files, the proxy —
 * as the GET without its body. Any other operation answers a HEAD with the envelope, as PUT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';

const REST = '/sharing/rest';

let svc: TestService;
let token: string;
let itemId: string;

beforeAll(async () => {
  svc = await startService();
  token = await svc.tokenFor('user1');
  const added = await svc.postForm('content/users/user1/addItem', { title: 'Head', type: 'CSV', file: [new Blob(['a,b\n1,2\n']), 'head.csv'] }, token);
  itemId = added.id;
  await svc.postForm(`content/users/user1/items/${itemId}/addResources`, { file: [new Blob(['{"x":1}']), 'style.json'] }, token);
});
afterAll(() => svc.close());

const auth = () => ({ 'x-esri-authorization': `Bearer ${token}` });

describe('HEAD', () => {
  it.each([
    ['item data', () => `${REST}/content/items/${itemId}/data`],
    ['a resource file', () => `${REST}/content/items/${itemId}/resources/style.json`],
  ])('of %s is the GET without its body: status, size, ranges', async (_what, url) => {
    const get = await svc.app.inject({ method: 'GET', url: url(), headers: auth() });
    const head = await svc.app.inject({ method: 'HEAD', url: url(), headers: auth() });
    expect(get.statusCode).toBe(200);
    expect(get.body.length).toBeGreaterThan(0);
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['accept-ranges']).toBe('bytes');
  });

  it('of a byte range answers 206 with its Content-Range, no body', async () => {
    const head = await svc.app.inject({ method: 'HEAD', url: `${REST}/content/items/${itemId}/data`, headers: { ...auth(), range: 'bytes=0-2' } });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe('bytes 0-2/8');
    expect(head.body).toBe('');
  });

  it.each([`${REST}/portals/self`, `${REST}/community/self`, `${REST}/content/items/${'0'.repeat(32)}`])(
    'of %s, an operation without a use for it, is the envelope, as PUT',
    async (url) => {
      const head = await svc.app.inject({ method: 'HEAD', url: `${url}?f=json` });
      const put = await svc.app.inject({ method: 'PUT', url: `${url}?f=json` });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(String(head.headers['content-type'])).toMatch(/^application\/json/);
      expect(head.headers['content-length']).toBe(put.headers['content-length']);
      expect(put.json().error).toMatchObject({ code: 400, messageCode: 'GWM_0002', message: 'Invalid URL' });
    },
  );
});
