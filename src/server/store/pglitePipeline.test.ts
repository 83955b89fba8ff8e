import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelined, STATEMENTS_KEPT, type PipelinedQuery } from './pglitePipeline.ts';
import { createPglite, wrapPglite } from './pglite.ts';

let pg: PGlite;
let query: PipelinedQuery;

beforeAll(async () => {
  pg = await createPglite(':memory:');
  await pg.exec(`CREATE TABLE t (id text PRIMARY KEY, n int, big int8, ok boolean, doc jsonb, raw bytea, tags text[], at timestamptz)`);
  query = pipelined(pg)!;
});
afterAll(() => pg.close());

const ROW = ['a', 7, 9_007_199_254_740_000, true, '{"k":[1,"two"]}', Buffer.from([0, 1, 255]), ['x', 'y,z', 'q"uote'], new Date('2026-11-30T01:02:03.004Z')];
const INSERT = 'INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *';

describe('pipelined PGlite queries', () => {
  it('is available on this PGlite', () => {
    expect(query).toBeTypeOf('function');
  });

  it('encodes parameters and parses results exactly as PGlite query() does', async () => {
    const mine = await query(INSERT, ROW, false);
    await pg.exec('DELETE FROM t');
    const theirs = await pg.query(INSERT, ROW);
    expect(mine.rows).toEqual(theirs.rows);
    expect(mine.fields).toEqual(theirs.fields);
    expect(mine.affectedRows).toBe(1);
    // An object for a jsonb parameter is JSON, a string is JSON text: as PGlite's serializers do.
    const doc = await query<{ doc: unknown }>('SELECT $1::jsonb AS doc', [{ a: [1, null] }], false);
    expect(doc.rows[0].doc).toEqual({ a: [1, null] });
    const nulls = await query('SELECT $1::text AS a, $2::int AS b', [null, undefined], false);
    expect(nulls.rows).toEqual([{ a: null, b: null }]);
  });

  it('reads the same statement again with other values (kept parameter types)', async () => {
    const sql = 'SELECT n + $1 AS m FROM t WHERE id = $2';
    expect((await query(sql, [1, 'a'], false)).rows).toEqual([{ m: 8 }]);
    expect((await query(sql, [10, 'a'], false)).rows).toEqual([{ m: 17 }]);
    expect((await query(sql, [1, 'none'], false)).rows).toEqual([]);
  });

  it("fails with PostgreSQL's error, naming the query, and the database goes on", async () => {
    const error = await query(INSERT, ROW, false).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: '23505', constraint: 't_pkey', query: INSERT });
    await expect(query('SELECT nope FROM t WHERE id = $1', ['a'], false)).rejects.toMatchObject({ code: '42703' });
    expect((await query('SELECT count(*)::int AS n FROM t WHERE id = $1', ['a'], false)).rows).toEqual([{ n: 1 }]);
  });

  it('runs inside a transaction, which still rolls back as a whole', async () => {
    const db = wrapPglite(pg);
    await expect(
      db.tx(async (tx) => {
        await tx.query('UPDATE t SET n = $1 WHERE id = $2', [100, 'a']);
        expect(await tx.query('SELECT n FROM t WHERE id = $1', ['a'])).toEqual([{ n: 100 }]);
        await tx.query(INSERT, ROW);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT n FROM t WHERE id = $1', ['a'])).toEqual([{ n: 7 }]);
  });

  it('keeps statements of concurrent callers apart from an open transaction', async () => {
    const db = wrapPglite(pg);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.tx(async (t) => {
      await t.query('UPDATE t SET n = $1 WHERE id = $2', [55, 'a']);
      await held;
      await t.query('UPDATE t SET n = $1 WHERE id = $2', [7, 'a']);
    });
    // Outside the transaction: waits for it, so never sees its first update.
    const outside = db.query<{ n: number }>('SELECT n FROM t WHERE id = $1', ['a']);
    release();
    await tx;
    expect(await outside).toEqual([{ n: 7 }]);
  });

  it('prepares a text once, and again when a table changed under its plan', async () => {
    await pg.exec(`CREATE TABLE s (id text PRIMARY KEY, n int); INSERT INTO s VALUES ('a', 1)`);
    const sql = 'SELECT * FROM s WHERE id = $1';
    expect((await query(sql, ['a'], false)).rows).toEqual([{ id: 'a', n: 1 }]);
    const named = async () => (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [sql])).rows[0].n;
    expect(await named()).toBe(1);
    await query(sql, ['a'], false);
    expect(await named()).toBe(1);
    // DDL through the pipeline (migrations, tests) forgets the kept statements first.
    await query(`ALTER TABLE s ADD COLUMN m int NOT NULL DEFAULT 2`, [], false);
    expect((await query(sql, ['a'], false)).rows).toEqual([{ id: 'a', n: 1, m: 2 }]);
    expect(await named()).toBe(1);
    // DDL some other way: PostgreSQL refuses the kept plan once (as with any named statement); the
    // next call prepares it anew.
    await pg.exec(`ALTER TABLE s ADD COLUMN k int NOT NULL DEFAULT 3`);
    await expect(query(sql, ['a'], false)).rejects.toMatchObject({ code: '0A000' });
    expect((await query(sql, ['a'], false)).rows).toEqual([{ id: 'a', n: 1, m: 2, k: 3 }]);
    expect(await named()).toBe(1);
  });

  it('prepares a text once when its first callers come together', async () => {
    const sql = 'SELECT $1::int * 2 AS v';
    const answers = await Promise.all([1, 2, 3, 4].map((v) => query(sql, [v], false)));
    expect(answers.map((a) => a.rows)).toEqual([[{ v: 2 }], [{ v: 4 }], [{ v: 6 }], [{ v: 8 }]]);
    const [{ n }] = (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [sql])).rows;
    expect(n).toBe(1);
  });

  it('keeps at most STATEMENTS_KEPT texts prepared, closing the least recently used', async () => {
    for (let i = 0; i < STATEMENTS_KEPT + 20; i++) expect((await query(`SELECT $1::int + ${i} AS v`, [1], false)).rows).toEqual([{ v: i + 1 }]);
    // One more preparation closes the names evicted so far.
    await query('SELECT $1::int AS last', [1], false);
    const [{ n }] = (await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'pipelined\\_%'`)).rows;
    expect(n).toBeLessThanOrEqual(STATEMENTS_KEPT);
    expect((await query('SELECT $1::int + 0 AS v', [5], false)).rows).toEqual([{ v: 5 }]);
  });
});
