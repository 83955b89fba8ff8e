/**
 * Building the embedded database's template (see template.ts for what it is and when it is used).
 * Apart from template.ts because building needs PGlite itself, which the service's start path
 * loads only after deciding whether to copy a template.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_DIR, migrate } from './migrate.ts';
import { createPglite, wrapPglite } from './pglite.ts';
import {
  copyTemplate,
  DEFAULT_TEMPLATE_DIR,
  forgetTarball,
  migrationEntries,
  pgliteVersion,
  TEMPLATE_LAYOUT,
  templateStatus,
  type TemplateManifest,
} from './template.ts';
import { trimEnd } from '../../shared/trim.ts';

/**
 * Build a template from the migrations in `migrationsDir` into `templateDir`: a fresh database
 * (initdb), migrated, closed, with its manifest. `from` starts instead from an existing usable
 * template and applies the migrations it lacks (as on any database of that age). Written to a
 * sibling folder and swapped in whole.
 */
/**
 * initdb's template0 and template1 are only read by CREATE DATABASE, which the service never runs:
 * without them a copy of the template has about half the files and bytes (1,243 files, 43 MB before)
 * that every new database, and every test's in-memory one, unpacks.
 */
async function dropTemplateDatabases(pg: PGlite): Promise<void> {
  for (const name of ['template0', 'template1']) {
    // Not in one exec: DROP DATABASE refuses to run inside the implicit transaction of a batch.
    await pg.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await pg.exec(`DROP DATABASE ${name}`);
  }
}

export async function buildTemplate(
  templateDir = DEFAULT_TEMPLATE_DIR,
  migrationsDir = MIGRATIONS_DIR,
  opts: { from?: string } = {},
): Promise<TemplateManifest> {
  if (templateDir === 'off') throw new Error('DB_TEMPLATE_DIR=off: no template to build');
  const building = `${trimEnd(templateDir, '/')}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  try {
    if (opts.from) {
      const status = await templateStatus(opts.from, migrationsDir);
      if (!status.usable) throw new Error(`cannot build on the template in ${opts.from}: ${status.reason}`);
      await copyTemplate(opts.from, path.join(building, 'pgdata'));
    }
    const migrations = await migrationEntries(migrationsDir);
    // 1 MB WAL segments instead of 16: the segment is copied whole into every new database.
    // WAL kept to two segments: a checkpoint recycles the segments it no longer needs as future ones,
    // up to min_wal_size (80 MB) and the distance the migrations wrote, and every new database would
    // get a copy of them (7 MB of the tarball's 19 when they were kept).
    const pg = await createPglite(building, { template: false, initDbArgs: ['--wal-segsize=1'], settings: ['min_wal_size=2MB', 'max_wal_size=2MB'] }); // its data in building/pgdata
    try {
      if (!opts.from) await dropTemplateDatabases(pg);
      await migrate(wrapPglite(pg), migrationsDir);
      // A checkpoint first: a copy then opens without replaying the migrations' WAL.
      await pg.exec('CHECKPOINT');
      const tar = await pg.dumpDataDir('none');
      await writeFile(path.join(building, 'pgdata.tar'), new Uint8Array(await tar.arrayBuffer()));
    } finally {
      await pg.close();
    }
    const manifest: TemplateManifest = { layout: TEMPLATE_LAYOUT, pglite: pgliteVersion(), migrations, builtAt: new Date().toISOString() };
    await writeFile(path.join(building, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await rm(templateDir, { recursive: true, force: true });
    await rename(building, templateDir);
    forgetTarball(templateDir);
    return manifest;
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}
