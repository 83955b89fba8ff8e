/**
 * Migrations are safe to run again; seeding happens once; the embedded database keeps its data
 * across restarts. On PostgreSQL (DATABASE_URL) the migration checks run on a fresh schema; on
 * the embedded database they run on a fresh data directory, which the restart test then reopens
 * (one embedded database fewer to initialise).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, NO_OUTBOUND_ALLOW, startService, type TestService } from '../../../test/support/service.ts';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { bootstrap } from '../seed/bootstrap.ts';
import { freshPostgresSchema } from '../../../test/support/postgres.ts';
import { openDb, type Db } from './db.ts';
import { migrate } from './migrate.ts';
import { migrationEntries } from './template.ts';

const onPostgres = !!process.env.DATABASE_URL;

/** The current migrations' file names, in the order they apply. */
const migrationNames = async () => (await migrationEntries()).map((m) => m.name);

/** Running the migrations again applies nothing, records nothing new and keeps every row. */
async function expectMigrationsRerunSafely(db: Db, app: FastifyInstance) {
  const recorded = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
  expect(recorded.length).toBeGreaterThan(0);
  expect(recorded.map((r) => r.name).every((n) => n.endsWith('.sql'))).toBe(true);
  const users = await db.query('SELECT id, org_id, username, role, role_id, password_hash FROM users ORDER BY username');
  expect(users.map((u) => u.username)).toEqual(['admin', 'partner_admin', 'publisher1', 'user1', 'viewer1']);

  expect(await migrate(db)).toEqual([]);
  expect(await migrate(db)).toEqual([]);

  expect(await db.query('SELECT name FROM schema_migrations ORDER BY name')).toEqual(recorded);
  expect(await db.query('SELECT id, org_id, username, role, role_id, password_hash FROM users ORDER BY username')).toEqual(users);
  const signIn = await app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } });
  expect(signIn.json().token).toEqual(expect.any(String));
}

/** Seeding a seeded database creates nothing. */
async function expectSeedingOnce(db: Db, app: FastifyInstance) {
  expect(await bootstrap(app.portal)).toEqual({ created: false, orgIds: [] });
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
  expect(n).toBe(2);
}

describe.runIf(onPostgres)('on PostgreSQL', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('migrations re-run safely', () => expectMigrationsRerunSafely(svc.db, svc.app));
  it('seeds only once', () => expectSeedingOnce(svc.db, svc.app));
  it('several processes migrating one empty schema at once all succeed, and each migration is applied once', async () => {
    // Each pool stands for a starting instance; the race was CREATE TABLE IF NOT EXISTS on the
    // migrations table, which PostgreSQL does not serialise (a duplicate key on pg_type).
    const files = await migrationNames();
    for (let round = 0; round < 3; round++) {
      const schema = await freshPostgresSchema(process.env.DATABASE_URL!);
      const dbs = await Promise.all(Array.from({ length: 4 }, () => openDb({ dataDir: '', databaseUrl: schema.url })));
      try {
        const applied = await Promise.all(dbs.map((db) => migrate(db)));
        expect(applied.flat().sort()).toEqual(files);
        expect(await dbs[0].query('SELECT count(*)::int AS n FROM schema_migrations')).toEqual([{ n: files.length }]);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
        await schema.drop();
      }
    }
  });
  it('runs without JIT compilation on every pooled connection', async () => {
    const settings = await Promise.all(Array.from({ length: 4 }, () => svc.db.tx((q) => q.query<{ jit: string }>('SHOW jit'))));
    expect(settings.flat()).toEqual(Array(4).fill({ jit: 'off' }));
  });
});

// Restarting is about the embedded database on disk; a PostgreSQL run has no data directory to reopen.
describe.skipIf(onPostgres)('the embedded database', () => {
  let dataDir: string;
  let db: Db | undefined;
  let app: FastifyInstance | undefined;
  let firstStart: { applied: string[]; seeded: { created: boolean; orgIds: string[] } };
  let token: string;

  const config = (): Config => ({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminUsername: 'admin',
    adminPassword: DEMO_PASSWORD,
    adminPasswordGiven: false,
    demoData: true,
    outboundAllow: NO_OUTBOUND_ALLOW,
    localExtras: true,
    passwordLogN: 10,
  });

  /** What main.ts does at start: open, migrate, build, seed. */
  async function start() {
    db = await openDb({ dataDir });
    const applied = await migrate(db);
    app = await buildApp({ db, config: config() });
    const seeded = await bootstrap(app.portal);
    return { applied, seeded };
  }

  async function stop() {
    await app?.close();
    await db?.close();
    app = undefined;
    db = undefined;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-store-test-'));
    firstStart = await start();
  });
  afterAll(async () => {
    await stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the first start migrates and seeds', async () => {
    // Every migration is in the new database: applied now, or already in the template it was copied from.
    const names = await migrationNames();
    const recorded = await db!.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((r) => r.name)).toEqual(names);
    expect(names).toEqual(expect.arrayContaining(firstStart.applied));
    expect(firstStart.seeded.created).toBe(true);
    expect(firstStart.seeded.orgIds).toHaveLength(2);
  });

  it('migrations re-run safely', () => expectMigrationsRerunSafely(db!, app!));
  it('seeds only once', () => expectSeedingOnce(db!, app!));

  it('keeps organizations, members, tokens and changes across a restart; the second start creates nothing', async () => {
    token = (
      await app!.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })
    ).json().token;
    const changed = await app!.inject({
      method: 'POST',
      url: '/sharing/rest/portals/self/updateUserRole',
      payload: { username: 'user1', role: 'org_publisher', token, f: 'json' },
    });
    expect(changed.json()).toEqual({ success: true, username: 'user1' });
    const usersBefore = await db!.query('SELECT id, org_id, username, role, role_id FROM users ORDER BY username');
    await stop();

    const second = await start();
    expect(second.applied).toEqual([]);
    expect(second.seeded).toEqual({ created: false, orgIds: [] });
    expect(await db!.query('SELECT id, org_id, username, role, role_id FROM users ORDER BY username')).toEqual(usersBefore);
    const [{ n }] = await db!.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    expect(n).toBe(2);
    // The token issued before the restart still works, and sees the change made before it.
    const me = (await app!.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();
    expect(me).toMatchObject({ username: 'admin', orgId: firstStart.seeded.orgIds[0] });
    const user1 = (await app!.inject({ method: 'GET', url: `/sharing/rest/community/users/user1?f=json&token=${token}` })).json();
    expect(user1.role).toBe('org_publisher');
  });
});
