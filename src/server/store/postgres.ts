import pg from 'pg';
import { DatabaseUnavailableError, type Db, type PreparedParam, type Queryable } from './dbInterface.ts';

// Epoch-ms timestamps and counts are int8: read them as numbers (they stay well below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/**
 * The URL with `-c jit=off` added to the connection's options (those the URL has stay). The
 * service's statements are short, and a plan whose estimate passes jit_above_cost (a search
 * filtering each row by a sub-query) spent 164 ms compiling to answer in 14 ms.
 */
function withoutJit(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `${url.searchParams.get('options') ?? ''} -c jit=off`.trim());
  return url.toString();
}

/** Socket errors of a connection that is gone or cannot be made. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server that is going away or not yet back: class 08 (connection), shutdown, starting up or recovering. */
const UNAVAILABLE_STATES = /^(08...|57P01|57P02|57P03)$/;
/** node-postgres's own errors for a connection that ended or never came (they carry no code). */
const DRIVER_MESSAGES = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection refused/i;

/** Whether `err` says the database is out of reach (rather than that a statement was wrong). */
function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return code === undefined && DRIVER_MESSAGES.test(err.message);
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DatabaseUnavailableError || !isConnectionError(err)) throw err;
    throw new DatabaseUnavailableError(`The database is unavailable: ${(err as Error).message}`, { cause: err });
  }
}

export async function openPostgres(databaseUrl: string, opts: { log?: (message: string) => void } = {}): Promise<Db> {
  // A connection that cannot be made within seconds fails the request (503) instead of holding it.
  const pool = new pg.Pool({ connectionString: withoutJit(databaseUrl), max: 10, connectionTimeoutMillis: 5_000 });
  // An idle pooled connection the server drops (a restart, a failover) emits `error` on the pool;
  // unhandled, that event ends the process. The pool has already discarded the connection and
  // opens new ones on demand, so the service goes on; requests meanwhile answer 503.
  let lastReport = 0;
  pool.on('error', (err) => {
    const now = Date.now();
    if (now - lastReport < 10_000) return;
    lastReport = now;
    (opts.log ?? console.warn)(`PostgreSQL: a pooled connection failed (${err.message}); new connections are opened as needed.`);
  });
  // Fail at start, with the driver's message, rather than on the first request.
  await pool.query('SELECT 1');
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    query<T>(sql: string, params?: readonly unknown[]) {
      return guarded(async () => (await q.query(sql, params as unknown[] | undefined)).rows as T[]);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    // node-postgres prepares a named statement once per pooled connection.
    queryPrepared<T>(name: string, sql: string, params: readonly PreparedParam[]) {
      return guarded(async () => (await pool.query({ name, text: sql, values: params as unknown[] })).rows as T[]);
    },
    async tx(fn) {
      const client = await guarded(() => pool.connect());
      // A checked-out connection has no pool listener: one dropped now would end the process.
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
      };
      client.on('error', onError);
      try {
        const q = wrap(client);
        await q.query('BEGIN');
        const result = await fn(q);
        await q.query('COMMIT');
        return result;
      } catch (err) {
        if (!broken && !(err instanceof DatabaseUnavailableError)) await client.query('ROLLBACK').catch(() => undefined);
        if (err instanceof DatabaseUnavailableError) broken ??= err;
        throw err;
      } finally {
        client.removeListener('error', onError);
        // A broken connection is closed, not handed to the next request.
        client.release(broken);
      }
    },
    exec: (sql) => guarded(async () => void (await pool.query(sql))),
    close: () => pool.end(),
  };
}
