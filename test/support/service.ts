/**
 * The real local portal for tests: a fresh in-memory embedded database (or a fresh schema on
 * PostgreSQL when DATABASE_URL is set), migrated and seeded with the demo organization.
 * Only the password-hash cost is lowered, so that seeding takes milliseconds.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { DEMO_PASSWORD, type Config } from '../../src/server/config.ts';
import type { Clock } from '../../src/server/context.ts';
import { NO_OUTBOUND_ALLOW, PRIVATE_OUTBOUND_ALLOW } from '../../src/server/http/outboundAllow.ts';
import { bootstrap } from '../../src/server/seed/bootstrap.ts';
import { openDb, type Db } from '../../src/server/store/db.ts';
import { migrate } from '../../src/server/store/migrate.ts';
import { freshPostgresSchema } from './postgres.ts';

export { DEMO_PASSWORD };
/** `config: { outboundAllow: NO_OUTBOUND_ALLOW }` gives a service with the production default. */
export { NO_OUTBOUND_ALLOW, PRIVATE_OUTBOUND_ALLOW };

export interface TestService {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** Base URL of the REST interface once `listen()` was called, e.g. http://127.0.0.1:41234/sharing/rest */
  restUrl: string;
  orgId: string;
  partnerOrgId: string;
  /** Listen on an ephemeral loopback port (for clients that speak real HTTP). */
  listen(): Promise<string>;
  /** A token for a demo account (password: the demo password). */
  tokenFor(username: string): Promise<string>;
  /** POST a REST operation in-process (form-encoded, f=json); the parsed answer. Throws unless HTTP 200. */
  post(path: string, params?: Record<string, string>, token?: string): Promise<any>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  clock?: Clock;
  demoData?: boolean;
  config?: Partial<Config>;
}

export async function startService(opts: TestServiceOptions = {}): Promise<TestService> {
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
  const db = await openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(db);
  const app = await buildApp({ db, config, clock: opts.clock });
  const seeded = await bootstrap(app.portal);
  const service: TestService = {
    app,
    db,
    config,
    restUrl: '',
    orgId: seeded.orgIds[0],
    partnerOrgId: seeded.orgIds[1],
    async listen() {
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
    async close() {
      await app.close();
      await db.close();
      await schema?.drop();
    },
  };
  return service;
}
