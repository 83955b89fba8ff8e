import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from './dbInterface.ts';
import { projectPath } from '../projectPaths.ts';

/** The advisory lock every starting process takes to migrate, one at a time. */
const MIGRATION_LOCK = 727274;

export const MIGRATIONS_DIR = `${projectPath('src', 'server', 'store', 'migrations')}/`;

/**
 * Apply the plain-SQL migrations in file-name order, each once, each in its own transaction.
 * Several processes starting together on one PostgreSQL serialise on an advisory lock.
 */
export async function migrate(db: Db, migrationsDir = MIGRATIONS_DIR): Promise<string[]> {
  // CREATE TABLE IF NOT EXISTS is not safe against itself: two processes on an empty schema can
  // both pass the check and one fails on pg_type's unique index. Create it under the same lock.
  await db.tx(async (q) => {
    await q.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at bigint NOT NULL)`);
  });
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  // Recorded migrations are committed for good: skip them without a transaction each (a restart,
  // or a database copied from the template, then opens without a dozen round trips).
  const recorded = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const applied: string[] = [];
  for (const name of files.filter((f) => !recorded.has(f))) {
    const sql = await readFile(path.join(migrationsDir, name), 'utf8');
    await db.tx(async (q) => {
      await q.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      const done = await q.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.length) return;
      // Migration files hold several statements; run them one by one inside this transaction.
      for (const statement of splitStatements(sql)) await q.query(statement);
      await q.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [name, Date.now()]);
      applied.push(name);
    });
  }
  return applied;
}

/** Split on semicolons at line ends; migrations keep to that style (no functions with bodies). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
