/**
 * One page of an item search and its `total`, at a cost that follows the page rather than the number
 * of matches:
 *
 * 1. One statement reads the next FEW + 1 matches in order from `start` (with no sortField through
 *    the index items_default_order of migration 016, stopping there). When they end within FEW, the
 *    total is known: start + their number.
 * 2. Otherwise the same statement counts the matches among a sample of the table's blocks
 *    (TABLESAMPLE SYSTEM with a fixed seed: the same blocks while the table keeps its size, so the
 *    estimate holds from page to page). A sample estimating at least ten times EXACT_TOTAL_LIMIT
 *    is taken as proof of more than the limit: the estimate is the total (a broad term; nothing is
 *    counted).
 * 3. Otherwise the matches are counted up to EXACT_TOTAL_LIMIT + 1: the count is the total at or
 *    below the limit; above, the estimate (or the full count when the sample held too few matches
 *    to estimate from).
 *
 * An estimate is rounded to two significant digits and kept within what is known (more than the
 * limit; at least start + num when another page follows; at most the start of an empty page).
 * `num=0`, the way to ask "how many", always counts every match. Why: counting the 20,000 matches of
 * a broad term among 100,000 items reads most of the table (40 ms on the embedded database, against
 * 0.3 ms for a primary-key read), while their first page takes 1 ms.
 *
 * The public documentation describes search as an index that may lag behind changes and as "fuzzy,
 * making it ideal for human interaction, but not necessarily ideal for looking for specific records
 * programmatically". `nextStart` stays exact, so a client paging by it sees every match. An estimated
 * total is flagged with the local extra `totalEstimated: true` (docs/rest-operations.md).
 */
import type { Queryable } from '../../store/db.ts';

/** Up to this many matches the total is exact. */
export const EXACT_TOTAL_LIMIT = 1000;
/** The matches read in order from `start`: the largest page. */
const FEW = 100;
/** Table blocks a sample reads (about 20 items each): 0.7 % of 100,000 items. */
const SAMPLE_BLOCKS = 40;
/** Fewer matches than this in the sample say too little to estimate from. */
const MIN_SAMPLE_MATCHES = 30;

/** The matching rows: what follows FROM and WHERE, with the parameters they use. */
export interface SearchMatches {
  from: string;
  where: string;
  params: unknown[];
}

/** A sort key: an expression over the rows of `from` and its direction ("DESC NULLS LAST", …). */
export type SortKey = readonly [expression: string, direction: string];

export interface SearchPage {
  ids: string[];
  total: number;
  estimated: boolean;
}

export async function searchPage(db: Queryable, m: SearchMatches, order: readonly SortKey[], offset: number, limit: number): Promise<SearchPage> {
  if (limit === 0) return { ids: [], total: await countMatches(db, m), estimated: false };
  const percent = await samplePercent(db);
  const { next, sampled, blocks } = await nextMatches(db, m, order, offset, percent);
  const ids = next.slice(0, limit);
  const exact = (total: number) => ({ ids, total, estimated: false });
  if (next.length <= FEW && (next.length > 0 || offset === 0)) return exact(offset + next.length);
  const more = next.length > limit;
  const estimated = (estimate: number) => {
    const atLeast = Math.max(EXACT_TOTAL_LIMIT + 1, more ? offset + limit + 1 : 0);
    const atMost = ids.length ? Infinity : offset;
    return { ids, total: Math.min(atMost, Math.max(atLeast, twoSignificantDigits(estimate))), estimated: true };
  };
  keepTableSize(db, blocks);
  // A whole table was read by the sample.
  if (percent >= 100 && sampled !== null) return exact(sampled);
  const estimate = sampled === null || sampled < MIN_SAMPLE_MATCHES ? undefined : (sampled * blocks) / (await chosenBlocks(db, percent, blocks));
  if (estimate !== undefined && estimate >= 10 * EXACT_TOTAL_LIMIT) return estimated(estimate);
  const counted = await countMatches(db, m, EXACT_TOTAL_LIMIT + 1);
  if (counted <= EXACT_TOTAL_LIMIT) return exact(counted);
  return estimate === undefined ? exact(await countMatches(db, m)) : estimated(estimate);
}

/**
 * Steps 1 and 2 in one statement (each statement costs its own planning and round trip): the next
 * FEW + 1 matches in order from `offset`, and, only when there are that many (a one-time filter skips
 * it otherwise), the matches among the sampled blocks, with the table's size.
 */
async function nextMatches(db: Queryable, m: SearchMatches, order: readonly SortKey[], offset: number, percent: number) {
  const orderBy = order.map(([e, d]) => `${e} ${d}`).join(', ');
  // The percentage as a constant: the planner then knows how many rows the sample holds.
  const sampledFrom = m.from.replace(/^items i\b/, `items i TABLESAMPLE SYSTEM (${percent}) REPEATABLE (0)`);
  if (sampledFrom === m.from) throw new Error(`search: cannot sample ${m.from}`);
  const rows = await db.query<{ id: string | null; sampled: number | null; blocks: number | null }>(
    `WITH p AS MATERIALIZED (SELECT i.id, row_number() OVER (ORDER BY ${orderBy}) AS r FROM ${m.from}
                              WHERE ${m.where} ORDER BY ${orderBy} LIMIT ${FEW + 1} OFFSET ${offset}),
          c AS (SELECT count(*) AS n FROM p)
     SELECT p.id, s.sampled, s.blocks
       FROM c
       LEFT JOIN LATERAL (SELECT count(*)::int AS sampled, ${TABLE_BLOCKS} AS blocks FROM ${sampledFrom}
                           WHERE ${m.where} AND c.n > ${FEW}) s ON c.n > ${FEW}
       LEFT JOIN p ON true
      ORDER BY p.r`,
    m.params,
  );
  // One row per match, each with the sample; a single row without an id when there is none.
  return { next: rows.flatMap((r) => (r.id === null ? [] : [r.id])), sampled: rows[0].sampled, blocks: rows[0].blocks ?? 0 };
}

/** The matches counted, stopping at `upTo` when given. */
async function countMatches(db: Queryable, m: SearchMatches, upTo?: number): Promise<number> {
  const matches = `SELECT 1 FROM ${m.from} WHERE ${m.where}${upTo === undefined ? '' : ` LIMIT ${upTo}`}`;
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${matches}) x`, m.params);
  return n;
}

const TABLE_BLOCKS = `(pg_relation_size('items') / current_setting('block_size')::int)::int`;

/**
 * What a database's sample needs to know, kept per database: the table's size in blocks as last
 * seen (the sample's percentage follows from it), and how many blocks a percentage chose at a size.
 */
interface SampleState {
  blocks: number;
  chosen: Map<string, number>;
}
const sampleStates = new WeakMap<Queryable, SampleState>();

/** The percentage of the table's blocks that makes SAMPLE_BLOCKS blocks (100 for a small table). */
async function samplePercent(db: Queryable): Promise<number> {
  let state = sampleStates.get(db);
  if (!state) {
    const [{ blocks }] = await db.query<{ blocks: number }>(`SELECT ${TABLE_BLOCKS} AS blocks`);
    state = { blocks, chosen: new Map() };
    sampleStates.set(db, state);
  }
  // Three significant digits: the percentage changes only when the table grows by a thousandth.
  return state.blocks <= SAMPLE_BLOCKS ? 100 : Number(((100 * SAMPLE_BLOCKS) / state.blocks).toPrecision(3));
}

function keepTableSize(db: Queryable, blocks: number): void {
  const state = sampleStates.get(db);
  if (state && blocks) state.blocks = blocks;
}

/**
 * How many blocks the sample chose. SYSTEM sampling takes each block with the same chance, so their
 * number varies around SAMPLE_BLOCKS (±16 % at 40); scaling by the real number removes that error.
 * It depends only on the percentage and the table's size (the seed is fixed): counted once for each
 * and kept.
 */
async function chosenBlocks(db: Queryable, percent: number, blocks: number): Promise<number> {
  const state = sampleStates.get(db);
  const key = `${percent}@${blocks}`;
  const kept = state?.chosen.get(key);
  if (kept !== undefined) return kept;
  const [{ chosen }] = await db.query<{ chosen: number }>(
    `SELECT count(DISTINCT (i.ctid::text::point)[0])::int AS chosen FROM items i TABLESAMPLE SYSTEM (${percent}) REPEATABLE (0)`,
  );
  // A block without a live row is not seen; the expectation stands in when none is.
  const result = chosen || (percent * blocks) / 100;
  if (state) {
    if (state.chosen.size > 16) state.chosen.clear();
    state.chosen.set(key, result);
  }
  return result;
}

function twoSignificantDigits(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}
