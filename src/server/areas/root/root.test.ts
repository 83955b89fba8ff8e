/**
 * The Sharing API root (`/sharing/rest?f=json`) and Info (`/sharing/rest/info`), as the Maps SDK's
 * IdentityManager reads them: the root's currentVersion (the same portals/self answers), and a token
 * sent to the root checked, so a stale credential learns it is signed out (498).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';

let svc: TestService;
let token: string;

beforeAll(async () => {
  svc = await startService({ config: { publicUrl: undefined } });
  token = await svc.tokenFor('user1');
});
afterAll(() => svc.close());

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  return res.json();
}

describe('GET /sharing/rest', () => {
  it('answers the portal’s currentVersion, the one portals/self has, signed in or not', async () => {
    const self = await get('/sharing/rest/portals/self?f=json');
    expect(await get('/sharing/rest?f=json')).toEqual({ currentVersion: self.currentVersion });
    expect(await get(`/sharing/rest?f=json&token=${token}`)).toEqual({ currentVersion: self.currentVersion });
    expect(await get('/sharing/rest?f=json', { 'x-esri-authorization': `Bearer ${token}` })).toEqual({ currentVersion: self.currentVersion });
  });

  it('a token that is not (or no longer) good answers 498, as checkSignInStatus expects', async () => {
    const body = await get('/sharing/rest?f=json&token=not-a-real-token');
    expect(body.error).toMatchObject({ code: 498 });
  });

  it('takes POST too, and refuses an unknown format', async () => {
    const posted = await svc.app.inject({ method: 'POST', url: '/sharing/rest', payload: { f: 'json', token } });
    expect(posted.json()).toEqual({ currentVersion: expect.any(String) });
    expect((await get('/sharing/rest?f=xml')).error).toMatchObject({ code: 400 });
  });
});

describe('GET /sharing/rest/info', () => {
  it('names this portal as the owning system and its generateToken as the token service', async () => {
    const info = await get('/sharing/rest/info?f=json', { host: '127.0.0.1:7443' });
    expect(info).toEqual({
      owningSystemUrl: 'http://127.0.0.1:7443',
      authInfo: { isTokenBasedSecurity: true, tokenServicesUrl: 'http://127.0.0.1:7443/sharing/rest/generateToken' },
    });
  });

  it('behind a proxy, PUBLIC_URL is the owning system', async () => {
    const proxied = await startService({ config: { publicUrl: 'https://localhost:8443/portal' } });
    try {
      const res = await proxied.app.inject({ method: 'GET', url: '/sharing/rest/info?f=json' });
      expect(res.json()).toEqual({
        owningSystemUrl: 'https://localhost:8443/portal',
        authInfo: { isTokenBasedSecurity: true, tokenServicesUrl: 'https://localhost:8443/portal/sharing/rest/generateToken' },
      });
    } finally {
      await proxied.close();
    }
  });
});
