/**
 * The one database interface the service uses. Two adapters implement it with the same SQL:
 * PGlite (embedded, in DATA_DIR) and node-postgres (PostgreSQL, for several service processes).
 * Kept apart from db.ts (which opens an adapter) so the adapters can implement it without
 * importing the module that imports them.
 */
export interface Queryable {
  /** Run one parameterised statement ($1, $2 …) and return its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** Parameter values a prepared hot-path statement may take. */
export type PreparedParam = string | number | boolean | null;

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Run a READ statement prepared once per connection under `name` (for the per-request hot path:
   * planning a join costs more than running it). Outside transactions only. On the embedded
   * database the rows are kept until the next write (see writeGeneration): do not mutate them.
   */
  queryPrepared<T = Record<string, unknown>>(name: string, sql: string, params: readonly PreparedParam[]): Promise<T[]>;
  /**
   * Embedded database only (one process owns it): a counter that moves whenever a statement that
   * may write starts or ends, so a read cached at generation N is known fresh while it is still N.
   * Undefined for PostgreSQL, where other processes write too.
   */
  readonly writeGeneration?: () => number;
  /** Run `fn` in one transaction: committed if it resolves, rolled back if it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Run a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database could not be reached, or dropped the connection in the middle of a statement (a
 * restart, a failover). Nothing of the statement is acknowledged: the caller may try again once it
 * is back. Requests answer 503; background runners log it and try again at their next pass.
 */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}
