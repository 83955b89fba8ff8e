/** Migrations are safe to run again; the embedded database keeps its data across restarts. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startService, type TestService } from '../../../test/support/service.ts';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { bootstrap } from '../seed/bootstrap.ts';
import { openDb, type Db } from './db.ts';
import { migrate } from './migrate.ts';

describe('migrate', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it('applies nothing the second time and keeps the data', async () => {
    const recorded = await svc.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.map((r) => r.name).every((n) => n.endsWith('.sql'))).toBe(true);

    expect(await migrate(svc.db)).toEqual([]);
    expect(await migrate(svc.db)).toEqual([]);
    expect(await svc.db.query('SELECT name FROM schema_migrations ORDER BY name')).toEqual(recorded);

    const users = await svc.db.query<{ username: string }>('SELECT username FROM users ORDER BY username');
    expect(users.map((u) => u.username)).toEqual(['admin', 'partner_admin', 'publisher1', 'user1', 'viewer1']);
    expect((await svc.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })).json().token).toEqual(
      expect.any(String),
    );
  });

  it('seeds only once: bootstrap on a seeded database creates nothing', async () => {
    expect(await bootstrap(svc.app.portal)).toEqual({ created: false, orgIds: [] });
    const [{ n }] = await svc.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    expect(n).toBe(2);
  });
});

// Restarting is about the embedded database on disk; a PostgreSQL run has no data directory to reopen.
describe.skipIf(!!process.env.DATABASE_URL)('the embedded database across restarts', () => {
  let dataDir: string;
  let db: Db | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'portal-store-test-'));
  });
  afterAll(async () => {
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const config = (): Config => ({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    adminUsername: 'admin',
    adminPassword: DEMO_PASSWORD,
    adminPasswordGiven: false,
    demoData: true,
    allowPrivateOutbound: false,
    passwordLogN: 10,
  });

  /** What main.ts does at start: open, migrate, build, seed. */
  async function start() {
    db = await openDb({ dataDir });
    const applied = await migrate(db);
    const app = await buildApp({ db, config: config() });
    const seeded = await bootstrap(app.portal);
    return { app, applied, seeded };
  }

  async function stop(app: Awaited<ReturnType<typeof start>>['app']) {
    await app.close();
    await db!.close();
    db = undefined;
  }

  it('keeps organizations, members, tokens and changes; the second start creates nothing', async () => {
    const first = await start();
    expect(first.applied.length).toBeGreaterThan(0);
    expect(first.seeded.created).toBe(true);
    const { token } = (
      await first.app.inject({ method: 'POST', url: '/sharing/rest/generateToken', payload: { username: 'admin', password: DEMO_PASSWORD, f: 'json' } })
    ).json();
    const changed = await first.app.inject({
      method: 'POST',
      url: '/sharing/rest/portals/self/updateUserRole',
      payload: { username: 'user1', role: 'org_publisher', token, f: 'json' },
    });
    expect(changed.json()).toEqual({ success: true, username: 'user1' });
    const usersBefore = await db!.query('SELECT id, org_id, username, role, role_id FROM users ORDER BY username');
    await stop(first.app);

    const second = await start();
    expect(second.applied).toEqual([]);
    expect(second.seeded).toEqual({ created: false, orgIds: [] });
    expect(await db!.query('SELECT id, org_id, username, role, role_id FROM users ORDER BY username')).toEqual(usersBefore);
    const [{ n }] = await db!.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
    expect(n).toBe(2);
    // The token issued before the restart still works.
    const me = (await second.app.inject({ method: 'GET', url: `/sharing/rest/community/self?f=json&token=${token}` })).json();
    expect(me).toMatchObject({ username: 'admin', orgId: first.seeded.orgIds[0] });
    const user1 = (await second.app.inject({ method: 'GET', url: `/sharing/rest/community/users/user1?f=json&token=${token}` })).json();
    expect(user1.role).toBe('org_publisher');
    await stop(second.app);
  });
});
