/**
 * The embedded database's initial state, built once and copied into every new data directory.
 *
 * Initialising a PGlite database (initdb) takes seconds and leaves the process holding hundreds of
 * megabytes it never gives back (WebAssembly memory does not shrink). A template — an initialised
 * data directory with the migrations applied, and nothing else — is built at build time
 * (scripts/build-db-template.ts, run by `npm start` when stale). A new DATA_DIR gets a copy of it;
 * in-memory databases (tests) load its tarball.
 *
 * The template carries a manifest of the migrations it holds (name and SHA-256 of each file). It is
 * used only if those are the current migrations, or the first of them unchanged (the newer ones are
 * then applied by migrate() as on any older database). Anything else — a migration edited, removed
 * or renamed, a different PGlite — and the template is ignored, with the reason logged.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUILT_FILES } from '../config.ts';
import { MIGRATIONS_DIR } from './migrate.ts';

/** DB_TEMPLATE_DIR=off starts new databases by initdb (for comparison: bench/startup.bench.ts). */
export const DEFAULT_TEMPLATE_DIR = BUILT_FILES.templateDir;

export interface MigrationEntry {
  name: string;
  sha256: string;
}

/**
 * How the template is made (buildTemplate.ts); a template of another layout is rebuilt, not used.
 * 2: 1 MB WAL segments, without the template0/template1 databases.
 * 3: and only the WAL segments a checkpoint keeps at min_wal_size 2 MB (3 of 1 MB instead of 7).
 */
export const TEMPLATE_LAYOUT = 3;

export interface TemplateManifest {
  layout?: number;
  /** The PGlite version that wrote the data directory (its on-disk format follows the Postgres inside). */
  pglite: string;
  migrations: MigrationEntry[];
  builtAt: string;
}

export type TemplateStatus = { usable: true; dir: string; manifest: TemplateManifest; behind: string[] } | { usable: false; reason: string };

/** The migrations in apply order, each with a hash of its text. */
export async function migrationEntries(dir = MIGRATIONS_DIR): Promise<MigrationEntry[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      sha256: createHash('sha256')
        .update(await readFile(path.join(dir, name)))
        .digest('hex'),
    })),
  );
}

export function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  // The package's exports map hides package.json; read it next to the resolved entry point.
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (require(path.join(dir, 'package.json')) as { version: string }).version;
}

/**
 * Whether the template in `templateDir` may seed a new database for the migrations in
 * `migrationsDir`. `behind` lists the current migrations the template lacks (applied after copying).
 */
export async function templateStatus(templateDir = DEFAULT_TEMPLATE_DIR, migrationsDir = MIGRATIONS_DIR): Promise<TemplateStatus> {
  if (templateDir === 'off') return { usable: false, reason: 'DB_TEMPLATE_DIR=off' };
  let manifest: TemplateManifest;
  try {
    manifest = JSON.parse(await readFile(path.join(templateDir, 'manifest.json'), 'utf8')) as TemplateManifest;
  } catch {
    return { usable: false, reason: `no database template in ${templateDir}` };
  }
  if (!existsSync(path.join(templateDir, 'pgdata', 'PG_VERSION')) || !existsSync(path.join(templateDir, 'pgdata.tar'))) {
    return { usable: false, reason: `the database template in ${templateDir} is incomplete` };
  }
  if (manifest.layout !== TEMPLATE_LAYOUT) {
    return { usable: false, reason: `the database template in ${templateDir} has an older layout (${manifest.layout ?? 1}, now ${TEMPLATE_LAYOUT})` };
  }
  const version = pgliteVersion();
  if (manifest.pglite !== version) {
    return { usable: false, reason: `the database template was built by PGlite ${manifest.pglite}, this is ${version}` };
  }
  const current = await migrationEntries(migrationsDir);
  for (const [i, held] of manifest.migrations.entries()) {
    const now = current[i];
    if (!now || now.name !== held.name) {
      return { usable: false, reason: `the database template holds migration ${held.name}, which is not among the current ones in that place` };
    }
    if (now.sha256 !== held.sha256) {
      return { usable: false, reason: `migration ${held.name} changed since the database template was built` };
    }
  }
  return { usable: true, dir: templateDir, manifest, behind: current.slice(manifest.migrations.length).map((m) => m.name) };
}

const execFileAsync = promisify(execFile);

/**
 * Copy a folder (to a path that does not exist yet). The system's `cp -R` copies the template's
 * ~1,200 files in about 70 ms where Node's fs.cp, which walks them in JavaScript, takes 400–600 ms
 * of a first start; fs.cp remains where there is no `cp` (Windows) or it fails.
 */
async function copyFolder(from: string, to: string): Promise<void> {
  if (process.platform !== 'win32') {
    try {
      await execFileAsync('cp', ['-R', from, to]);
      return;
    } catch {
      await rm(to, { recursive: true, force: true });
    }
  }
  await cp(from, to, { recursive: true });
}

/**
 * Copy the template's data directory to `pgdataDir` (which must not hold a database). Copied beside it and
 * renamed, so that an interrupted copy never looks like a database.
 */
export async function copyTemplate(templateDir: string, pgdataDir: string): Promise<void> {
  const partial = `${pgdataDir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(path.dirname(pgdataDir), { recursive: true });
  await copyFolder(path.join(templateDir, 'pgdata'), partial);
  // A pgdata folder without PG_VERSION is an initialisation that never finished, not a database.
  if (!existsSync(path.join(pgdataDir, 'PG_VERSION'))) await rm(pgdataDir, { recursive: true, force: true });
  await rename(partial, pgdataDir);
}

/**
 * A Blob whose arrayBuffer() is one copy of bytes kept beside it. PGlite reads a loadDataDir tarball
 * with arrayBuffer(), which for a plain Blob of the 19 MB template pulls it through a stream and
 * concatenates the chunks: about 150 ms of CPU of each in-memory database's ~550 (every test service
 * opens one). A copy, so that nothing PGlite does to its bytes reaches the next database; the Blob's
 * own content is the same bytes, for any other reader.
 */
class BytesBlob extends Blob {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    super([bytes]);
    this.#bytes = bytes;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes.slice().buffer);
  }
}

const tarballs = new Map<string, Promise<Blob>>();

/** The template as a tarball for PGlite's loadDataDir (in-memory databases); read once per process. */
export function templateTarball(templateDir: string): Promise<Blob> {
  let tar = tarballs.get(templateDir);
  if (!tar) {
    tar = readFile(path.join(templateDir, 'pgdata.tar')).then((bytes) => new BytesBlob(bytes));
    tarballs.set(templateDir, tar);
  }
  return tar;
}

/** Drop the cached tarball of a template that has just been rebuilt. */
export function forgetTarball(templateDir: string): void {
  tarballs.delete(templateDir);
}
