/**
 * The real local portal for tests: a fresh in-memory embedded database (or a fresh schema on
 * PostgreSQL when DATABASE_URL is set), migrated and seeded with the demo organization.
 * Only the password-hash cost is lowered, so that seeding takes milliseconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { DEMO_PASSWORD, type Config } from '../../src/server/config.ts';
import { NO_OUTBOUND_ALLOW, PRIVATE_OUTBOUND_ALLOW } from '../../src/server/http/outboundAllow.ts';
import { selfSignedCertificate } from '../../src/server/http/tls.ts';
import { bootstrap } from '../../src/server/seed/bootstrap.ts';
import { openDb } from '../../src/server/store/db.ts';
import { migrate } from '../../src/server/store/migrate.ts';
import { freshPostgresSchema } from './postgres.ts';
import { scaleOutInstances, startScaledOutService } from './scaleOut.ts';
import { operationForm, type TestService, type TestServiceOptions } from './testService.ts';

export { DEMO_PASSWORD };
/** `config: { outboundAllow: NO_OUTBOUND_ALLOW }` gives a service with the production default. */
export { NO_OUTBOUND_ALLOW, PRIVATE_OUTBOUND_ALLOW };
export type { TestService, TestServiceOptions };

export async function startService(opts: TestServiceOptions = {}): Promise<TestService> {
  // PORTAL_SCALE_OUT=N: N instances in their own processes behind a balancer (scripts/scale-out-check.sh).
  const instances = scaleOutInstances();
  if (instances) return startScaledOutService(instances, opts);
  const pgUrl = process.env.DATABASE_URL;
  const schema = pgUrl ? await freshPostgresSchema(pgUrl) : undefined;
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: ':memory:',
    databaseUrl: schema?.url,
    adminUsername: 'admin',
    adminPassword: DEMO_PASSWORD,
    adminPasswordGiven: false,
    demoData: opts.demoData ?? true,
    // Receivers in tests listen on loopback: the ALLOW_PRIVATE_OUTBOUND=on ranges.
    outboundAllow: PRIVATE_OUTBOUND_ALLOW,
    localExtras: true,
    passwordLogN: 10,
    ...opts.config,
  };
  // A fresh certificate per service, in a folder removed on close.
  const tlsDir = opts.tls ? await mkdtemp(path.join(tmpdir(), 'portal-test-tls-')) : undefined;
  const tls = tlsDir ? await selfSignedCertificate(tlsDir) : undefined;
  if (tls) config.tls = { source: 'self-signed' };
  const db = await openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(db);
  const app = await buildApp({ db, config, clock: opts.clock, https: tls ? { key: tls.key, cert: tls.cert } : undefined });
  const seeded = await bootstrap(app.portal);
  const service: TestService = {
    app,
    db,
    config,
    restUrl: '',
    tls: tls?.selfSigned ? { ca: tls.selfSigned.caCert, caFile: tls.selfSigned.caFile } : undefined,
    orgId: seeded.orgIds[0],
    partnerOrgId: seeded.orgIds[1],
    async listen() {
      // Fastify names the scheme: https://127.0.0.1:<port> when listening with TLS.
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      service.restUrl = `${address}/sharing/rest`;
      return service.restUrl;
    },
    async tokenFor(username) {
      const res = await app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username, password: DEMO_PASSWORD, f: 'json' } });
      const body = res.json();
      if (!body.token) throw new Error(`sign-in as ${username} failed: ${res.body}`);
      return body.token as string;
    },
    async post(path, params = {}, token) {
      const payload: Record<string, string> = { f: 'json', ...params, ...(token ? { token } : {}) };
      const res = await app.inject({ method: 'POST', url: `/sharing/rest/${path}`, payload });
      if (res.statusCode !== 200) throw new Error(`POST ${path}: HTTP ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async postForm(path, fields, token) {
      const form = operationForm(fields, token);
      // Request encodes the form (boundary and all) as a browser would.
      const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: form });
      const res = await app.inject({
        method: 'POST',
        url: `/sharing/rest/${path}`,
        payload: Buffer.from(await encoded.arrayBuffer()),
        headers: { 'content-type': encoded.headers.get('content-type')! },
      });
      if (res.statusCode !== 200) throw new Error(`POST ${path}: HTTP ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async close() {
      await app.close();
      await db.close();
      await schema?.drop();
      if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
    },
  };
  return service;
}
