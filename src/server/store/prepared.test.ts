/** Prepared reads on the embedded database: the first calls of one statement arriving together. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';

let db: Db;
beforeAll(async () => {
  db = await openPglite(':memory:', { template: false });
});
afterAll(() => db.close());

it('prepares a statement once when its first calls come at the same time (a second PREPARE would fail)', async () => {
  const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => db.queryPrepared<{ n: number }>('together', 'SELECT $1::int + 1 AS n', [i])));
  expect(answers.map((rows) => rows[0].n)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  // A statement that cannot be prepared fails each call with the database's message, and is not remembered as prepared.
  await expect(db.queryPrepared('broken', 'SELECT nope FROM nowhere', [])).rejects.toThrow(/nowhere/);
  await expect(db.queryPrepared('broken', 'SELECT nope FROM nowhere', [])).rejects.toThrow(/nowhere/);
});

it('keeps answers across reads, a UNION of SELECTs in parentheses too, and not across a write', async () => {
  const generation = () => db.writeGeneration!();
  const before = generation();
  await db.query('SELECT 1 AS n');
  await db.query(`(SELECT 'a' AS kind LIMIT 1) UNION ALL (SELECT 'b' AS kind LIMIT 1)`);
  await db.query(`  ( ( SELECT 2 AS n ) )`);
  expect(generation()).toBe(before);
  await db.query('CREATE TEMP TABLE kept_check (n int)');
  expect(generation()).toBeGreaterThan(before);
});
