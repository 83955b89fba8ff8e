/**
 * The embedded database's template (store/template.ts): built from the migrations with a manifest
 * of them; a new database starts from it only while the manifest matches the current migrations —
 * one older than the newest migration is migrated forward, anything else is refused with a reason.
 * One initdb for the whole file: a template of all migrations but the newest, then the current
 * one built on it.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { buildTemplate } from './buildTemplate.ts';
import { migrationEntries, pgliteVersion, TEMPLATE_LAYOUT, templateStatus, type TemplateManifest } from './template.ts';

// The template is an embedded-database matter; a PostgreSQL run has nothing to add here.
describe.skipIf(!!process.env.DATABASE_URL)('the embedded database template', () => {
  let work: string;
  let olderMigrations: string; // every migration but the newest
  let older: string; // template built from those
  let current: string; // template of the current migrations, built on `older`
  let allNames: string[];
  let newest: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'portal-template-test-'));
    allNames = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
    newest = allNames.at(-1)!;
    olderMigrations = path.join(work, 'migrations-older');
    await mkdir(olderMigrations);
    for (const name of allNames.slice(0, -1)) await cp(path.join(MIGRATIONS_DIR, name), path.join(olderMigrations, name));
    older = path.join(work, 'template-older');
    current = path.join(work, 'template-current');
    await buildTemplate(older, olderMigrations);
    await buildTemplate(current, MIGRATIONS_DIR, { from: older });
  }, 180_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  /** The migration names recorded in a database. */
  const recorded = async (db: Awaited<ReturnType<typeof openPglite>>) =>
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);

  it('lists the current migrations with their hashes and the PGlite version in its manifest', async () => {
    const manifest: TemplateManifest = JSON.parse(await readFile(path.join(current, 'manifest.json'), 'utf8'));
    expect(manifest.migrations).toEqual(await migrationEntries());
    expect(manifest.migrations.map((m) => m.name)).toEqual(allNames);
    expect(manifest.migrations.every((m) => /^[0-9a-f]{64}$/.test(m.sha256))).toBe(true);
    expect(manifest.pglite).toBe(pgliteVersion());
    expect(await templateStatus(current)).toMatchObject({ usable: true, behind: [] });
  });

  it('gives a new data directory the migrated schema: nothing left to migrate, tables ready', async () => {
    const dataDir = path.join(work, 'data-current');
    const log: string[] = [];
    const db = await openPglite(dataDir, { templateDir: current, log: (m) => log.push(m) });
    try {
      expect(log).toEqual([`New embedded database from the template in ${current}`]);
      expect(await recorded(db)).toEqual(allNames);
      expect(await migrate(db)).toEqual([]);
      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
      expect(n).toBe(0); // the schema only: seeding is the service's first-start step
      // The layout every copy unpacks: the service's database only, and 1 MB segments of WAL.
      expect(await db.query('SELECT datname FROM pg_database ORDER BY datname')).toEqual([{ datname: 'postgres' }]);
      expect(await db.query("SELECT current_setting('wal_segment_size') AS size")).toEqual([{ size: '1MB' }]);
      await db.query('CREATE TABLE template_write_check (x int)');
      await db.query('INSERT INTO template_write_check VALUES (1)');
    } finally {
      await db.close();
    }
    // Reopened, it is the same database (the copy is a complete data directory, not a one-off load).
    const again = await openPglite(dataDir, { templateDir: current, log: (m) => log.push(m) });
    try {
      expect(log).toHaveLength(1); // an existing database: nothing said, nothing copied
      expect(await recorded(again)).toEqual(allNames);
      expect(await again.query('SELECT x FROM template_write_check')).toEqual([{ x: 1 }]);
    } finally {
      await again.close();
    }
  });

  it('loads into an in-memory database (tests) from its tarball', async () => {
    const log: string[] = [];
    const db = await openPglite(':memory:', { templateDir: current, log: (m) => log.push(m) });
    try {
      expect(log[0]).toContain('from the template');
      expect(await migrate(db)).toEqual([]);
      expect(await recorded(db)).toEqual(allNames);
    } finally {
      await db.close();
    }
  });

  it('a template without the newest migration is used and migrated forward, and says so', async () => {
    expect(await templateStatus(older)).toMatchObject({ usable: true, behind: [newest] });
    const log: string[] = [];
    const db = await openPglite(path.join(work, 'data-older'), { templateDir: older, log: (m) => log.push(m) });
    try {
      expect(log).toEqual([`New embedded database from the template in ${older}; migrations it lacks follow: ${newest}`]);
      expect(await recorded(db)).toEqual(allNames.slice(0, -1));
      expect(await migrate(db)).toEqual([newest]);
      expect(await recorded(db)).toEqual(allNames);
    } finally {
      await db.close();
    }
  });

  it('is refused when a migration it holds was edited, removed or renamed, or another PGlite built it', async () => {
    const edited = path.join(work, 'migrations-edited');
    await cp(MIGRATIONS_DIR, edited, { recursive: true });
    await writeFile(path.join(edited, allNames[2]), `${await readFile(path.join(edited, allNames[2]), 'utf8')}\n-- changed\n`);
    expect(await templateStatus(current, edited)).toEqual({ usable: false, reason: `migration ${allNames[2]} changed since the database template was built` });

    const removed = path.join(work, 'migrations-removed');
    await cp(MIGRATIONS_DIR, removed, { recursive: true });
    await rm(path.join(removed, allNames[1]));
    expect(await templateStatus(current, removed)).toMatchObject({ usable: false, reason: expect.stringContaining(allNames[1]) });

    // Fewer migrations now than the template holds (a branch switched back): not a prefix either.
    expect(await templateStatus(current, olderMigrations)).toMatchObject({ usable: false, reason: expect.stringContaining(newest) });

    const otherPglite = path.join(work, 'template-other-pglite');
    await cp(current, otherPglite, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(otherPglite, 'manifest.json'), 'utf8'));
    await writeFile(path.join(otherPglite, 'manifest.json'), JSON.stringify({ ...manifest, pglite: '0.0.1' }));
    expect(await templateStatus(otherPglite)).toEqual({
      usable: false,
      reason: `the database template was built by PGlite 0.0.1, this is ${pgliteVersion()}`,
    });
  });

  it('is refused when built in an older layout (rebuilt rather than used)', async () => {
    const manifestFile = path.join(current, 'manifest.json');
    const manifest = await readFile(manifestFile, 'utf8');
    try {
      const { layout: _, ...before } = JSON.parse(manifest) as TemplateManifest;
      await writeFile(manifestFile, JSON.stringify(before));
      expect(await templateStatus(current)).toEqual({
        usable: false,
        reason: `the database template in ${current} has an older layout (1, now ${TEMPLATE_LAYOUT})`,
      });
    } finally {
      await writeFile(manifestFile, manifest);
    }
  });

  it('is refused when missing or incomplete; DB_TEMPLATE_DIR=off turns it off', async () => {
    expect(await templateStatus(path.join(work, 'nowhere'))).toMatchObject({ usable: false, reason: expect.stringContaining('no database template') });
    const incomplete = path.join(work, 'template-incomplete');
    await cp(current, incomplete, { recursive: true });
    await rm(path.join(incomplete, 'pgdata', 'PG_VERSION'));
    expect(await templateStatus(incomplete)).toMatchObject({ usable: false, reason: expect.stringContaining('incomplete') });
    expect(await templateStatus('off')).toEqual({ usable: false, reason: 'DB_TEMPLATE_DIR=off' });
    await expect(buildTemplate(path.join(work, 'from-incomplete'), MIGRATIONS_DIR, { from: incomplete })).rejects.toThrow(/incomplete/);
    expect(existsSync(path.join(work, 'from-incomplete'))).toBe(false);
  });

  it('a copy interrupted before (a leftover partial folder, an empty pgdata) does not stop a new database', async () => {
    const dataDir = path.join(work, 'data-interrupted');
    await mkdir(path.join(dataDir, 'pgdata.partial', 'base'), { recursive: true });
    await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
    const db = await openPglite(dataDir, { templateDir: current });
    try {
      expect(await recorded(db)).toEqual(allNames);
    } finally {
      await db.close();
    }
    expect(existsSync(path.join(dataDir, 'pgdata.partial'))).toBe(false);
  });
});
