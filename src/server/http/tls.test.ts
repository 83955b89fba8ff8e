/**
 * HTTPS (issue 28 item 2): the configuration (TLS, TLS_CERT, TLS_KEY), the generated development
 * certificate (names, reuse, renewal, the key's file mode), and real HTTPS requests verified
 * against that certificate's authority — never with verification turned off.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../test/support/service.ts';
import { buildApp } from '../app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { consoleAddresses } from '../areas/oauth/consoleApp.ts';
import { loadTls, readCertificateFiles, selfSignedCertificate } from './tls.ts';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'portal-tls-test-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const DAY = 24 * 3_600_000;

describe('the generated certificate (TLS=self-signed)', () => {
  it('covers localhost, 127.0.0.1 and ::1, is issued by the CA file to trust, and keeps its key private', async () => {
    const dir = path.join(scratch, 'first');
    const made = await selfSignedCertificate(dir);
    expect(made.selfSigned?.generated).toBe(true);
    const leaf = new X509Certificate(made.cert);
    expect(leaf.subjectAltName).toContain('DNS:localhost');
    expect(leaf.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(leaf.checkHost('localhost')).toBe('localhost');
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(leaf.checkIP('::1')).toBe('::1');
    expect(leaf.checkHost('example.com')).toBeUndefined();
    expect(leaf.ca).toBe(false);
    const ca = new X509Certificate(await readFile(path.join(dir, 'ca.crt'), 'utf8'));
    expect(ca.ca).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(made.selfSigned?.caFile).toBe(path.join(dir, 'ca.crt'));
    // The key is the owner's only; no CA key is kept anywhere.
    expect((await stat(path.join(dir, 'localhost.key'))).mode & 0o777).toBe(0o600);
    for (const file of ['ca.crt', 'localhost.crt', 'localhost.key']) {
      expect((await readFile(path.join(dir, file), 'utf8')).match(/BEGIN [A-Z ]*PRIVATE KEY/g)?.length ?? 0, file).toBe(file.endsWith('.key') ? 1 : 0);
    }
    expect(new Date(leaf.validTo).getTime() - Date.now()).toBeGreaterThan(300 * DAY);
  });

  it('is reused on the next start, and made again when it nears its end or is damaged', async () => {
    const dir = path.join(scratch, 'reuse');
    const first = await selfSignedCertificate(dir);
    const second = await selfSignedCertificate(dir);
    expect(second.selfSigned?.generated).toBe(false);
    expect(second.cert).toBe(first.cert);
    expect(second.key).toBe(first.key);

    // A start 364 days later: the certificate ends within the renewal margin.
    const later = await selfSignedCertificate(dir, new Date(Date.now() + 364 * DAY));
    expect(later.selfSigned?.generated).toBe(true);
    expect(later.cert).not.toBe(first.cert);

    // A key that is not the certificate's.
    await writeFile(path.join(dir, 'localhost.key'), first.key);
    const repaired = await selfSignedCertificate(dir);
    expect(repaired.selfSigned?.generated).toBe(true);
    expect((await readCertificateFiles(path.join(dir, 'localhost.crt'), path.join(dir, 'localhost.key'))).cert).toBe(repaired.cert);
  });

  it('lives in DATA_DIR/tls, and in a temporary folder for an in-memory database', async () => {
    const dataDir = path.join(scratch, 'data');
    const config = loadConfig({ DATA_DIR: dataDir, TLS: 'self-signed' });
    const tls = await loadTls(config);
    expect(tls?.selfSigned?.dir).toBe(path.join(dataDir, 'tls'));
    const memory = await loadTls(loadConfig({ DATA_DIR: ':memory:', TLS: 'self-signed' }));
    expect(memory?.selfSigned?.dir.startsWith(tmpdir())).toBe(true);
    await rm(memory!.selfSigned!.dir, { recursive: true, force: true });
  });
});

describe('configuration', () => {
  it('TLS_CERT with TLS_KEY, TLS=self-signed, TLS=off and nothing', () => {
    expect(loadConfig({ TLS_CERT: '/c.pem', TLS_KEY: '/k.pem' }).tls).toEqual({ source: 'files', certFile: '/c.pem', keyFile: '/k.pem' });
    expect(loadConfig({ TLS: 'self-signed' }).tls).toEqual({ source: 'self-signed' });
    expect(loadConfig({ TLS: 'off' }).tls).toBeUndefined();
    expect(loadConfig({}).tls).toBeUndefined();
  });

  it.each([
    ['only TLS_CERT', { TLS_CERT: '/c.pem' }, /TLS_KEY is missing/],
    ['only TLS_KEY', { TLS_KEY: '/k.pem' }, /TLS_CERT is missing/],
    ['an unknown TLS value', { TLS: 'yes' }, /TLS="yes": must be self-signed or off/],
    ['TLS with files', { TLS: 'self-signed', TLS_CERT: '/c.pem', TLS_KEY: '/k.pem' }, /cannot be combined/],
  ])('refuses %s', (_label, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuses unreadable files, files that are not PEM, and a key that is not the certificate’s', async () => {
    const a = await selfSignedCertificate(path.join(scratch, 'pair-a'));
    const b = await selfSignedCertificate(path.join(scratch, 'pair-b'));
    const certA = path.join(scratch, 'pair-a', 'localhost.crt');
    const keyB = path.join(scratch, 'pair-b', 'localhost.key');
    const missing = path.join(scratch, 'no-such.pem');
    const notPem = path.join(scratch, 'not.pem');
    await writeFile(notPem, 'hello');
    const load = (cert: string, key: string) => loadTls(loadConfig({ TLS_CERT: cert, TLS_KEY: key }));

    await expect(load(missing, keyB)).rejects.toThrow(new RegExp(`TLS_CERT=${missing}: cannot be read \\(ENOENT\\)`));
    await expect(load(certA, missing)).rejects.toThrow(/TLS_KEY=.*cannot be read/);
    await expect(load(notPem, keyB)).rejects.toThrow(/TLS_CERT=.*is not a PEM certificate/);
    await expect(load(certA, notPem)).rejects.toThrow(/TLS_KEY=.*is not a PEM private key/);
    await expect(load(certA, keyB)).rejects.toThrow(ConfigError);
    await expect(load(certA, keyB)).rejects.toThrow(/is not the key of the certificate/);
    // The matching pair loads.
    const ok = await load(certA, path.join(scratch, 'pair-a', 'localhost.key'));
    expect(ok?.cert).toBe(a.cert);
    expect(ok?.key).not.toBe(b.key);
  });

  it('the console signs in over https when the service has TLS; PUBLIC_URL still wins behind a proxy', () => {
    expect(consoleAddresses(loadConfig({ TLS: 'self-signed' }), 3443)).toEqual(['https://127.0.0.1:3443', 'https://localhost:3443']);
    expect(consoleAddresses(loadConfig({}), 3000)).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
    expect(consoleAddresses(loadConfig({ PUBLIC_URL: 'https://localhost:8443/portal' }), 3000)).toEqual(['https://localhost:8443/portal']);
  });
});

/** A GET over HTTPS that trusts only `ca`. */
function httpsGet(url: string, ca: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

describe('a listening service with TLS', () => {
  let svc: TestService;
  let restUrl: string;
  let consoleApp: FastifyInstance;
  let consoleUrl: string;
  let clientDir: string;

  beforeAll(async () => {
    svc = await startService({ tls: 'self-signed' });
    restUrl = await svc.listen();
    // The console's page from the same process (a stand-in build, as in headers.test.ts).
    clientDir = await mkdtemp(path.join(tmpdir(), 'portal-console-'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>console</title>');
    const cert = await readFile(path.join(path.dirname(svc.tls!.caFile), 'localhost.crt'), 'utf8');
    const key = await readFile(path.join(path.dirname(svc.tls!.caFile), 'localhost.key'), 'utf8');
    consoleApp = await buildApp({ db: svc.db, config: svc.config, clientDir, https: { key, cert } });
    consoleUrl = await consoleApp.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await consoleApp?.close();
    await svc?.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('listen() answers an https:// URL', () => {
    expect(restUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/sharing\/rest$/);
    expect(consoleUrl).toMatch(/^https:\/\//);
  });

  it('answers REST over HTTPS to a client trusting only the generated CA, by IP and by localhost', async () => {
    const res = await httpsGet(`${restUrl}/portals/self?f=json`, svc.tls!.ca, { origin: 'https://localhost:5173' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).id).toBe(svc.orgId);
    expect(res.headers['access-control-allow-origin']).toBe('https://localhost:5173');
    const token = await svc.tokenFor('admin');
    const byName = await httpsGet(`${restUrl.replace('127.0.0.1', 'localhost')}/community/self?f=json&token=${token}`, svc.tls!.ca);
    expect(JSON.parse(byName.body).username).toBe('admin');
  });

  it('is refused by a client that does not trust the CA (the certificate is really checked)', async () => {
    const other = await selfSignedCertificate(path.join(scratch, 'untrusted'));
    await expect(httpsGet(`${restUrl}/portals/self?f=json`, other.selfSigned!.caCert)).rejects.toThrow(/certificate/i);
  });

  it('serves the console page over HTTPS', async () => {
    const res = await httpsGet(`${consoleUrl}/`, svc.tls!.ca);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<title>console</title>');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('builds absolute URLs from the request with https (a service proxy item’s proxyUrl)', async () => {
    const token = await svc.tokenFor('admin');
    const body = new URLSearchParams({
      f: 'json',
      token,
      title: 'Over TLS',
      type: 'Map Service',
      url: 'http://127.0.0.1:9/arcgis/rest/services/x/MapServer',
      service: '{"hitsPerInterval":5}',
    }).toString();
    const added = await new Promise<{ id: string; proxyUrl: string }>((resolve, reject) => {
      const req = https.request(
        `${restUrl}/content/users/admin/addItem`,
        { method: 'POST', ca: svc.tls!.ca, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(JSON.parse(text) as { id: string; proxyUrl: string }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(added.proxyUrl).toBe(`${restUrl}/content/items/${added.id}/proxy`);
  });
});
