/**
 * HTTPS mode says so (http/tls.ts httpsOnly): with TLS on, generateToken and oauth2/token answer
 * `ssl: true`, portals/self answers `allSSL: true`, and every answer carries
 * Strict-Transport-Security of at least a year; on plain HTTP none of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../test/support/service.ts';

function httpsRequest(url: string, ca: string, method: 'GET' | 'POST', body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = https.request(url, { method, ca, headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {} }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The whole authorization-code flow through the service's routes: the oauth2/token answer. */
async function oauthToken(svc: TestService): Promise<Record<string, unknown>> {
  const owner = await svc.tokenFor('publisher1');
  const redirect = 'https://app.example.com/callback';
  const item = await svc.post('content/users/publisher1/addItem', { title: 'TLS App', type: 'Application' }, owner);
  const app = await svc.post('oauth2/registerApp', { itemId: item.id, appType: 'browser', redirect_uris: JSON.stringify([redirect]) }, owner);
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: app.client_id,
    response_type: 'code',
    redirect_uri: redirect,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const page = await svc.app.inject({ method: 'GET', url: `/sharing/rest/oauth2/authorize?${query}` });
  const form = /name="nonce" value="([^"]+)"/.exec(page.body)![1];
  const signedIn = await svc.app.inject({
    method: 'POST',
    url: '/sharing/rest/oauth2/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: String(page.headers['set-cookie']).split(';')[0] },
    payload: new URLSearchParams({ nonce: form, username: 'user1', password: DEMO_PASSWORD, action: 'signin' }).toString(),
  });
  const code = new URL(String(signedIn.headers.location)).searchParams.get('code')!;
  return svc.post('oauth2/token', { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: redirect, code_verifier: verifier });
}

describe('a service with TLS', () => {
  let svc: TestService;
  let restUrl: string;
  beforeAll(async () => {
    svc = await startService({ tls: 'self-signed' });
    restUrl = await svc.listen();
  });
  afterAll(() => svc?.close());

  it('portals/self answers allSSL: true, with Strict-Transport-Security of at least a year', async () => {
    const res = await httpsRequest(`${restUrl}/portals/self?f=json`, svc.tls!.ca, 'GET');
    expect(JSON.parse(res.body).allSSL).toBe(true);
    const maxAge = Number(/^max-age=(\d+)$/.exec(String(res.headers['strict-transport-security']))?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(31_536_000);
  });

  it('generateToken answers ssl: true (and carries the header, an error answer too)', async () => {
    const body = new URLSearchParams({ f: 'json', username: 'admin', password: DEMO_PASSWORD }).toString();
    const res = await httpsRequest(`${restUrl}/generateToken`, svc.tls!.ca, 'POST', body);
    expect(JSON.parse(res.body)).toMatchObject({ token: expect.any(String), ssl: true });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    const refused = await httpsRequest(`${restUrl}/community/self?f=json`, svc.tls!.ca, 'GET');
    expect(JSON.parse(refused.body).error.code).toBe(499);
    expect(refused.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('oauth2/token answers ssl: true', async () => {
    expect(await oauthToken(svc)).toMatchObject({ access_token: expect.any(String), ssl: true });
  });
});

describe('a service on plain HTTP', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc?.close());

  it('answers ssl: false and allSSL: false, without Strict-Transport-Security', async () => {
    const self = await svc.app.inject({ method: 'GET', url: '/sharing/rest/portals/self?f=json' });
    expect(self.json().allSSL).toBe(false);
    expect(self.headers['strict-transport-security']).toBeUndefined();
    const token = await svc.app.inject({
      method: 'POST',
      url: '/sharing/rest/generateToken',
      payload: { f: 'json', username: 'admin', password: DEMO_PASSWORD },
    });
    expect(token.json().ssl).toBe(false);
    expect(token.headers['strict-transport-security']).toBeUndefined();
    expect((await oauthToken(svc)).ssl).toBe(false);
  });
});
