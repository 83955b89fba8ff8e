/**
 * Tokens issued with `client=referer` (generateToken's `referer` parameter) work only from that
 * referer: another or a missing Referer (and no matching Origin) is an invalid token (498).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../test/support/service.ts';
import { sentFromReferer } from './auth.ts';

let svc: TestService;

beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

async function tokenWith(params: Record<string, string>): Promise<string> {
  const res = await svc.post('generateToken', { username: 'user1', password: DEMO_PASSWORD, ...params });
  expect(res.token, JSON.stringify(res)).toBeTruthy();
  return res.token as string;
}

async function selfWith(token: string, headers: Record<string, string>) {
  const res = await svc.app.inject({
    method: 'GET',
    url: '/sharing/rest/community/self?f=json',
    headers: { 'x-esri-authorization': `Bearer ${token}`, ...headers },
  });
  const body = res.json();
  return body.error ? (body.error.code as number) : (body.username as string);
}

describe('a token issued for a referer', () => {
  it('works from pages under that referer, and from its origin', async () => {
    const token = await tokenWith({ client: 'referer', referer: 'https://maps.example.com/console' });
    expect(await selfWith(token, { referer: 'https://maps.example.com/console' })).toBe('user1');
    expect(await selfWith(token, { referer: 'https://maps.example.com/console/content?x=1' })).toBe('user1');
    // Browsers send only the Origin to another site (Referrer-Policy), always on CORS requests.
    expect(await selfWith(token, { origin: 'https://maps.example.com' })).toBe('user1');
  });

  it('is an invalid token (498) from another referer, a look-alike prefix, another origin, or with none', async () => {
    const token = await tokenWith({ client: 'referer', referer: 'https://maps.example.com/console' });
    expect(await selfWith(token, { referer: 'https://evil.example.net/' })).toBe(498);
    expect(await selfWith(token, { referer: 'https://maps.example.com/console-evil/' })).toBe(498);
    expect(await selfWith(token, { referer: 'https://maps.example.com.evil.net/console' })).toBe(498);
    expect(await selfWith(token, { origin: 'https://evil.example.net' })).toBe(498);
    expect(await selfWith(token, {})).toBe(498);
    // In the token parameter as well as the header.
    const res = await svc.post('community/self', {}, token);
    expect(res.error).toMatchObject({ code: 498 });
  });

  it('a referer that is not a URL (rest-js in Node) must come back exactly', async () => {
    const token = await tokenWith({ client: 'referer', referer: '@esri/arcgis-rest-js' });
    expect(await selfWith(token, { referer: '@esri/arcgis-rest-js' })).toBe('user1');
    expect(await selfWith(token, { referer: '@esri/arcgis-rest-js-other' })).toBe(498);
    expect(await selfWith(token, { origin: 'null' })).toBe(498);
  });

  it('tokens issued without client=referer are not bound', async () => {
    const token = await tokenWith({});
    expect(await selfWith(token, {})).toBe('user1');
    expect(await selfWith(token, { referer: 'https://anywhere.example/' })).toBe('user1');
  });
});

describe('sentFromReferer', () => {
  it('matches a trailing-slash referer and the origin of a bare origin referer', () => {
    expect(sentFromReferer({ headers: { referer: 'http://127.0.0.1:3000/items' } }, 'http://127.0.0.1:3000/')).toBe(true);
    expect(sentFromReferer({ headers: { referer: 'http://127.0.0.1:30001/items' } }, 'http://127.0.0.1:3000')).toBe(false);
    expect(sentFromReferer({ headers: { origin: 'http://127.0.0.1:3000' } }, 'http://127.0.0.1:3000')).toBe(true);
    expect(sentFromReferer({ headers: {} }, 'http://127.0.0.1:3000')).toBe(false);
  });
});
