import { existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import { PGlite, types } from '@electric-sql/pglite';
// Trigram indexes for item search (migration 013).
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, PreparedParam, Queryable } from './dbInterface.ts';
import { pipelined } from './pglitePipeline.ts';

/** int8 columns (epoch-ms timestamps, counts) come back as numbers, as with the pg adapter. */
const parsers = { [types.INT8]: (value: string) => Number(value) };

/** The buffer pool's bounds, in MB. */
const BUFFER_POOL_MB = { min: 4, max: 32 };

/**
 * The buffer pool for the database in `pgdata`: 4 MB up to 256 MB of table and index files, then a
 * sixty-fourth of them, at most 32 MB. A small organization's pages fit the OS page cache and cost a
 * copy each; a large one's hot pages (the indexes a dependents walk or a list reads, turn after turn)
 * no longer fit 4 MB: at 100,000 items (607 MB of files) the organization's unused-items view read
 * 3.5× a primary-key read with 4 MB and 2.5× with 8 MB (bench:dependencies). A new database starts
 * at the minimum; the pool grows at the next start once the files have.
 */
export async function bufferPoolFor(pgdata: string | undefined): Promise<number> {
  if (!pgdata) return BUFFER_POOL_MB.min;
  const bytes = await filesBytes(path.join(pgdata, 'base')).catch(() => 0);
  return Math.min(BUFFER_POOL_MB.max, Math.max(BUFFER_POOL_MB.min, Math.ceil(bytes / 64 / 2 ** 20)));
}

async function filesBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? await filesBytes(p) : e.isFile() ? (await stat(p)).size : 0;
  }
  return total;
}

/**
 * Settings for a small service (the defaults are sized for a server of its own). WebAssembly memory
 * only grows, so every buffer Postgres touches once stays resident for the life of the process, and
 * the whole buffer pool is touched as it is set up (each MB of shared_buffers is a MB of RSS from the
 * first start): shared_buffers 128 MB → 4 MB (512 pages: the demo database is about 11 MB of files, and
 * a page outside the pool is a read from the OS page cache through PGlite's file system; a larger
 * database gets more, bufferPoolFor),
 * wal_buffers → 512 kB, per-sort work_mem 4 MB → 2 MB,
 * VACUUM's maintenance_work_mem (the retention sweep vacuums) 64 MB → 16 MB, temp_buffers 8 MB → 1 MB,
 * and shared memory sized for one connection's worth of backends rather than 100. The files stay in
 * the operating system's page cache, so a small buffer pool costs little. Measurements: docs/performance.md.
 */
export const SMALL_SERVICE_SETTINGS = [
  `shared_buffers=${BUFFER_POOL_MB.min}MB`,
  'wal_buffers=512kB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=1MB',
  'max_connections=8',
];

/**
 * Postgres compiled to WebAssembly is 9 MB of code. V8 compiles it all with its baseline compiler
 * (Liftoff) and recompiles hot functions with its optimising one (TurboFan) in the background,
 * holding both. Baseline code only: about 40 MB less resident memory, no background compilation
 * competing with requests after a start, and on this machine no slower for the service's queries
 * (docs/performance.md). Functions are also validated when first compiled rather than all 9 MB at
 * instantiation (--wasm-lazy-validation): most of Postgres never runs in this service, and the module
 * is PGlite's own build, not untrusted input. Set before the first PGlite compiles its module; the
 * flags are read then.
 */
let compilerChosen = false;
function chooseWasmCompiler() {
  if (compilerChosen) return;
  compilerChosen = true;
  v8.setFlagsFromString('--liftoff-only');
  v8.setFlagsFromString('--wasm-lazy-validation');
}

export interface PgliteOptions {
  /** Seed a new database from the built template (store/template.ts) when it is current. Default true. */
  template?: boolean;
  /** Where to say how a new database was created (first start). */
  log?: (message: string) => void;
  templateDir?: string;
  /** Extra initdb arguments for a database created from nothing (the template's build). */
  initDbArgs?: string[];
  /** Settings for this open only, after the small service's (the template's build). */
  settings?: string[];
}

/** A PGlite instance on `dataDir` (":memory:" for in memory), created from the template when new. */
export async function createPglite(dataDir: string, opts: PgliteOptions = {}): Promise<PGlite> {
  chooseWasmCompiler();
  const { templateStatus, copyTemplate, templateTarball } = await import('./template.ts');
  const pgdata = dataDir === ':memory:' ? undefined : path.resolve(dataDir, 'pgdata');
  const settings = [
    ...SMALL_SERVICE_SETTINGS.filter((s) => !s.startsWith('shared_buffers=')),
    `shared_buffers=${await bufferPoolFor(pgdata)}MB`,
    ...(opts.settings ?? []),
  ];
  const options = { parsers, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])] };
  const isNew = !pgdata || !existsSync(path.join(pgdata, 'PG_VERSION'));
  if (isNew && opts.template !== false) {
    const status = await templateStatus(opts.templateDir);
    if (status.usable) {
      const behind = status.behind.length ? `; migrations it lacks follow: ${status.behind.join(', ')}` : '';
      opts.log?.(`New embedded database from the template in ${status.dir}${behind}`);
      if (!pgdata) return PGlite.create({ ...options, loadDataDir: await templateTarball(status.dir) });
      await copyTemplate(status.dir, pgdata);
      return PGlite.create(pgdata, options);
    }
    opts.log?.(`New embedded database by initdb (slow): ${status.reason}. \`npm start\` or \`npm run build:db-template\` builds the template.`);
  }
  const created = { ...options, initDbStartParams: opts.initDbArgs };
  if (!pgdata) return PGlite.create(created);
  await mkdir(pgdata, { recursive: true });
  return PGlite.create(pgdata, created);
}

/**
 * PGlite runs Postgres in single-user mode: one connection, so every statement is serialised.
 * `dataDir` of ":memory:" keeps the database in memory (tests).
 */
export async function openPglite(dataDir: string, opts: PgliteOptions = {}): Promise<Db> {
  return wrapPglite(await createPglite(dataDir, opts));
}

/** The Db interface over an open PGlite instance. */
export function wrapPglite(pg: PGlite): Db {
  // Bumped before and after anything that may write (see Db.writeGeneration).
  let generation = 0;
  const writing = async <T>(run: () => Promise<T>): Promise<T> => {
    generation++;
    try {
      return await run();
    } finally {
      generation++;
    }
  };
  const pipeline = pipelined(pg);
  const wrap = (q: Pick<PGlite, 'query'>, inTransaction: boolean): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      const run = async () => (pipeline ? await pipeline<T>(sql, params, inTransaction) : await q.query<T>(sql, params as unknown[] | undefined)).rows;
      // A read leaves the generation alone, also one that opens with a parenthesis (a UNION of
      // SELECTs, as the webhook dispatcher's poll is): counting it as a write emptied every kept
      // result (the token lookup, community/self's answer) at each poll.
      return READ.test(sql) ? run() : writing(run);
    },
  });
  const prepared = new Map<string, Promise<void>>();
  const results = new Map<string, { generation: number; rows: unknown[] }>();
  return {
    kind: 'pglite',
    ...wrap(pg, false),
    writeGeneration: () => generation,
    // Prepared statements are for reads only. PGlite's extended-protocol queries are planned anew
    // each time; a named statement executed through the simple protocol reuses its plan (measured:
    // 630 µs → 170 µs for the token join). One process owns this database, so a result is also kept
    // until the next write of any kind: it can never be stale. Callers must not mutate the rows.
    async queryPrepared<T>(name: string, sql: string, params: readonly PreparedParam[]) {
      if (!/^\w+$/.test(name)) throw new Error(`bad prepared statement name ${name}`);
      const args = params.length ? `(${params.map(sqlLiteral).join(', ')})` : '';
      const cacheKey = `${name}${args}`;
      const hit = results.get(cacheKey);
      if (hit && hit.generation === generation) return hit.rows as T[];
      const seen = generation;
      // One PREPARE per name, also when the first calls come together (a second would fail: exists).
      let ready = prepared.get(name);
      if (!ready) {
        prepared.set(name, (ready = pg.exec(`PREPARE ${name} AS ${sql}`).then(() => undefined)));
        ready.catch(() => prepared.delete(name));
      }
      await ready;
      const [result] = await pg.exec(`EXECUTE ${name}${args}`);
      // Kept only if no write started meanwhile.
      if (generation === seen) {
        if (results.size >= RESULT_CACHE_MAX) results.clear();
        results.set(cacheKey, { generation: seen, rows: result.rows });
      }
      return result.rows as T[];
    },
    tx: (fn) => writing(() => pg.transaction((t) => fn(wrap(t, true)))),
    exec: (sql) => writing(async () => void (await pg.exec(sql))),
    close: () => pg.close(),
  };
}

const RESULT_CACHE_MAX = 10_000;
const READ = /^[\s(]*select\b/i;

/** A literal for EXECUTE's arguments (standard_conforming_strings is on: only quotes need doubling). */
function sqlLiteral(v: PreparedParam): string {
  if (v === null) return 'NULL';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('non-finite number parameter');
    return String(v);
  }
  if (v.includes('\0')) throw new Error('NUL in string parameter');
  return `'${v.replaceAll("'", "''")}'`;
}
