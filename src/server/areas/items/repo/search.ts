/**
 * SQL of item search (searchPage.ts, searchLists.ts): the statements a page and its total are read
 * with. Their texts are tuned (docs/performance.md): a change here is a change of plan.
 */
import type { Queryable } from '../../../store/db.ts';

/**
 * The matching items: `items i` with any joins (`JOIN users o ON …`), the condition, and the
 * parameters they use.
 */
export interface SearchMatches {
  joins: string;
  where: string;
  params: unknown[];
  /** A SELECT … FROM with `i` for the table, for the whole rows of a page (WHERE is added). */
  select: string;
}

/** The counter of migration 019, as text (bigint). */
export async function searchGeneration(db: Queryable): Promise<string> {
  const [row] = await db.query<{ generation: string }>('SELECT generation::text AS generation FROM item_search_generation WHERE id = 1');
  return row.generation;
}

/** The matching ids and their rank in the order, at most `upTo`. */
export const matchIdsSql = (m: SearchMatches, orderBy: string, upTo: number) =>
  `SELECT i.id, row_number() OVER (ORDER BY ${orderBy}) AS r FROM items i ${m.joins} WHERE ${m.where} ORDER BY ${orderBy} LIMIT ${upTo}`;

/**
 * The ids `idsSql` selects (`id` and its rank `r`), in order, as one text with a line break after
 * each; null when there are none.
 */
export async function orderedIdsText(db: Queryable, idsSql: string, params: unknown[]): Promise<string | null> {
  const [{ ids }] = await db.query<{ ids: string | null }>(`SELECT string_agg(x.id, E'\\n' ORDER BY x.r) || E'\\n' AS ids FROM (${idsSql}) x`, params);
  return ids;
}

/** The whole rows of `ids`, in that order (one JSON text, as nextMatches reads them). */
export async function rowsByIds<T extends { id: string }>(db: Queryable, select: string, ids: string[]): Promise<T[]> {
  if (!ids.length) return [];
  const [found] = await db.query<{ page: string | null }>(`SELECT json_agg(page)::text AS page FROM (${select} WHERE i.id = ANY($1::text[])) page`, [ids]);
  const byId = new Map((found.page === null ? [] : (JSON.parse(found.page) as T[])).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * In one statement (each statement costs its own planning and round trip): the next `few` + 1
 * matches in order from `offset` counted, the first `limit` of them as whole rows of `m.select`.
 */
export async function nextMatches<T>(db: Queryable, m: SearchMatches, orderBy: string, offset: number, limit: number, few: number) {
  // The whole rows are read for the page's ids only (the rows past it are counted, not read), and
  // come back as one JSON text: parsing one field is cheaper than parsing a row's forty.
  const [found] = await db.query<{ next: number; page: string | null }>(
    `WITH x AS MATERIALIZED (SELECT i.id, row_number() OVER (ORDER BY ${orderBy}) AS match_rank FROM items i ${m.joins}
                              WHERE ${m.where} ORDER BY ${orderBy} LIMIT ${few + 1} OFFSET ${offset})
     SELECT (SELECT count(*)::int FROM x) AS next,
            (SELECT json_agg(page ORDER BY x.match_rank)::text
               FROM x JOIN (${m.select} WHERE i.id IN (SELECT id FROM x WHERE match_rank <= ${offset + limit})) page ON page.id = x.id) AS page`,
    m.params,
  );
  const rows = found.page === null ? [] : (JSON.parse(found.page) as T[]);
  return { rows, next: found.next };
}

/** The matches counted, stopping at `upTo` when given. */
export async function countMatches(db: Queryable, m: SearchMatches, upTo?: number): Promise<number> {
  const matches = `SELECT 1 FROM items i ${m.joins} WHERE ${m.where}${upTo === undefined ? '' : ` LIMIT ${upTo}`}`;
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${matches}) x`, m.params);
  return n;
}

const TABLE_BLOCKS = `(pg_relation_size('items') / current_setting('block_size')::int)::int`;

/** The items table's size in blocks. */
export async function itemTableBlocks(db: Queryable): Promise<number> {
  const [{ blocks }] = await db.query<{ blocks: number }>(`SELECT ${TABLE_BLOCKS} AS blocks`);
  return blocks;
}

/**
 * The matches in a sample of `percent` of the table's blocks (TABLESAMPLE SYSTEM with a fixed seed:
 * the same blocks while the table keeps its size), and the table's size in blocks.
 */
export async function sampledMatches(db: Queryable, m: SearchMatches, percent: number): Promise<{ sampled: number; blocks: number }> {
  const [row] = await db.query<{ sampled: number; blocks: number }>(
    `SELECT count(*)::int AS sampled, ${TABLE_BLOCKS} AS blocks FROM items i TABLESAMPLE SYSTEM (${percent}) REPEATABLE (0) ${m.joins} WHERE ${m.where}`,
    m.params,
  );
  return row;
}

/** How many blocks holding a live row the sample of `percent` chose. */
export async function sampledBlocks(db: Queryable, percent: number): Promise<number> {
  const [{ chosen }] = await db.query<{ chosen: number }>(
    `SELECT count(DISTINCT (i.ctid::text::point)[0])::int AS chosen FROM items i TABLESAMPLE SYSTEM (${percent}) REPEATABLE (0)`,
  );
  return chosen;
}
