/**
 * Security headers (issue 24 item 9): the console's page carries a Content-Security-Policy with no
 * inline script; every REST answer (JSON, error envelope, a file, CSV) says `nosniff`.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { buildApp } from '../app.ts';

let svc: TestService;
let app: FastifyInstance;
let clientDir: string;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = await svc.tokenFor('admin');
  clientDir = await mkdtemp(path.join(tmpdir(), 'portal-console-'));
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/assets/index.js"></script>');
  app = await buildApp({ db: svc.db, config: svc.config, clientDir });
});
afterAll(async () => {
  await app?.close();
  await svc?.close();
  await rm(clientDir, { recursive: true, force: true });
});

describe("the console's page", () => {
  it.each(['/', '/index.html', '/members', '/content/items/abc'])('%s has a CSP allowing only its own scripts', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    // The console talks to other portals over https (and to local ones on loopback).
    expect(directives['connect-src']).toEqual(expect.arrayContaining(["'self'", 'https:']));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('REST answers', () => {
  it('all say nosniff: JSON, the error envelope, an unknown path, item data, a CSV export', async () => {
    const added = await svc.post('content/users/admin/addItem', { title: 'Sniff', type: 'Web Map', text: '{"a":1}' }, token);
    const answers = [
      await app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` }),
      await app.inject({ method: 'GET', url: '/sharing/rest/community/self?f=json' }),
      await app.inject({ method: 'GET', url: '/sharing/rest/no/such/operation' }),
      await app.inject({ method: 'GET', url: `/sharing/rest/content/items/${added.id}/data`, headers: { 'x-esri-authorization': `Bearer ${token}` } }),
      await app.inject({ method: 'GET', url: `/sharing/rest/portals/${svc.orgId}/history?f=csv&token=${token}` }),
      await app.inject({ method: 'OPTIONS', url: '/sharing/rest/community/self', headers: { origin: 'https://elsewhere.example' } }),
    ];
    for (const res of answers) {
      expect(res.headers['x-content-type-options'], `${res.raw.req.url} ${res.body.slice(0, 80)}`).toBe('nosniff');
      // Not the console's policy (a file may carry its own sandbox policy).
      expect(String(res.headers['content-security-policy'] ?? '')).not.toContain("script-src 'self'");
    }
  });
});

describe('the OAuth sign-in page beside the console', () => {
  it("keeps its own policies: the console's page headers do not replace them", async () => {
    const item = await svc.post('content/users/admin/addItem', { title: 'Headers app', type: 'Web Mapping Application', url: 'https://app.example/' }, token);
    const registered = await svc.post('oauth2/registerApp', { itemId: item.id, appType: 'browser', redirect_uris: '["https://app.example/cb"]' }, token);
    const query = new URLSearchParams({
      client_id: registered.client_id,
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      code_challenge: createHash('sha256').update('a-verifier-long-enough-for-the-test-1234567').digest('base64url'),
      code_challenge_method: 'S256',
    });
    const res = await app.inject({ method: 'GET', url: `/sharing/rest/oauth2/authorize?${query}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toMatch(/default-src 'none'/);
  });
});
