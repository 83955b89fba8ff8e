/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set, else the
 * embedded PGlite in DATA_DIR. The interface both adapters implement is in dbInterface.ts.
 */
import type { Db } from './dbInterface.ts';

export type { Db, Queryable } from './dbInterface.ts';
export { DatabaseUnavailableError } from './dbInterface.ts';

export interface DbConfig {
  dataDir: string;
  databaseUrl?: string;
  /** Embedded database: where to say how a new one was created (from the template or by initdb). */
  log?: (message: string) => void;
}

export async function openDb(config: DbConfig): Promise<Db> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(config.databaseUrl, { log: config.log });
  }
  const { openPglite } = await import('./pglite.ts');
  return openPglite(config.dataDir, { log: config.log });
}
