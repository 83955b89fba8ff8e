import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.ts';

/** int8 columns (epoch-ms timestamps, counts) come back as numbers, as with the pg adapter. */
const parsers = { [types.INT8]: (value: string) => Number(value) };

/**
 * PGlite runs Postgres in single-user mode: one connection, so every statement is serialised.
 * `dataDir` of ":memory:" keeps the database in memory (tests).
 */
export async function openPglite(dataDir: string): Promise<Db> {
  let pg: PGlite;
  if (dataDir === ':memory:') {
    pg = await PGlite.create({ parsers });
  } else {
    const dir = path.resolve(dataDir, 'pgdata');
    await mkdir(dir, { recursive: true });
    pg = await PGlite.create(dir, { parsers });
  }
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params?: readonly unknown[]) {
      const res = await q.query<T>(sql, params as unknown[] | undefined);
      return res.rows;
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    tx: (fn) => pg.transaction((t) => fn(wrap(t))),
    exec: async (sql) => {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
}
