/**
 * One page of an item search and its `total`, at a cost that follows the page rather than the number
 * of matches:
 *
 * 1. One statement reads the next FEW + 1 matches in order from `start` (with no sortField through
 *    the index items_default_order of migration 016, stopping there) and the page's whole rows. When
 *    the matches end within FEW, the total is known: start + their number. Selective terms end here.
 * 2. Otherwise a sample of the table's blocks (TABLESAMPLE SYSTEM with a fixed seed: the same blocks
 *    while the table keeps its size, so the estimate holds from page to page) estimates the matches.
 *    An estimate of at least ten times EXACT_TOTAL_LIMIT is taken as proof of more than the limit: it
 *    is the total (a broad term; nothing is counted).
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
import { LIMITS } from '../../../shared/limits.ts';
import type { Queryable } from '../../store/db.ts';

/** Up to this many matches the total is exact. */
export const EXACT_TOTAL_LIMIT = 1000;
/** The matches read in order from `start` (one more than this): as many as the largest page. */
const FEW = LIMITS.maxPageSize;
/** Table blocks a sample reads (about 20 items each): 0.7 % of 100,000 items. */
const SAMPLE_BLOCKS = 40;
/** Fewer matches than this in the sample say too little to estimate from. */
const MIN_SAMPLE_MATCHES = 30;

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

/** A sort key: an expression over the matching rows (`i`, and `o` when joined) and its direction ("DESC NULLS LAST", …). */
export type SortKey = readonly [expression: string, direction: string];

export interface SearchPage<T> {
  rows: T[];
  total: number;
  estimated: boolean;
}

export async function searchPage<T>(db: Queryable, m: SearchMatches, order: readonly SortKey[], offset: number, limit: number): Promise<SearchPage<T>> {
  if (limit === 0) return { rows: [], total: await countMatches(db, m), estimated: false };
  const { rows, next } = await nextMatches<T>(db, m, order, offset, limit);
  const exact = (total: number) => ({ rows, total, estimated: false });
  if (next <= FEW && (next > 0 || offset === 0)) return exact(offset + next);
  const more = next > limit;
  const estimated = (estimate: number) => {
    const atLeast = Math.max(EXACT_TOTAL_LIMIT + 1, more ? offset + limit + 1 : 0);
    const atMost = rows.length ? Infinity : offset;
    return { rows, total: Math.min(atMost, Math.max(atLeast, twoSignificantDigits(estimate))), estimated: true };
  };
  const estimate = next > FEW ? await sampleEstimate(db, m) : undefined;
  if (estimate?.whole) return exact(estimate.matches);
  if (estimate && estimate.matches >= 10 * EXACT_TOTAL_LIMIT) return estimated(estimate.matches);
  const counted = await countMatches(db, m, EXACT_TOTAL_LIMIT + 1);
  if (counted <= EXACT_TOTAL_LIMIT) return exact(counted);
  return estimate ? estimated(estimate.matches) : exact(await countMatches(db, m));
}

/**
 * Step 1 in one statement (each statement costs its own planning and round trip): the next FEW + 1
 * matches in order from `offset`, the first `limit` of them as whole rows of `m.select`.
 */
async function nextMatches<T>(db: Queryable, m: SearchMatches, order: readonly SortKey[], offset: number, limit: number) {
  const orderBy = order.map(([e, d]) => `${e} ${d}`).join(', ');
  // The whole rows are read for the page's ids only (the rows past it are counted, not read), and
  // come back as one JSON text: parsing one field is cheaper than parsing a row's forty.
  const [found] = await db.query<{ next: number; page: string | null }>(
    `WITH x AS MATERIALIZED (SELECT i.id, row_number() OVER (ORDER BY ${orderBy}) AS match_rank FROM items i ${m.joins}
                              WHERE ${m.where} ORDER BY ${orderBy} LIMIT ${FEW + 1} OFFSET ${offset})
     SELECT (SELECT count(*)::int FROM x) AS next,
            (SELECT json_agg(page ORDER BY x.match_rank)::text
               FROM x JOIN (${m.select} WHERE i.id IN (SELECT id FROM x WHERE match_rank <= ${offset + limit})) page ON page.id = x.id) AS page`,
    m.params,
  );
  const rows = found.page === null ? [] : (JSON.parse(found.page) as T[]);
  return { rows, next: found.next };
}

/** The matches counted, stopping at `upTo` when given. */
async function countMatches(db: Queryable, m: SearchMatches, upTo?: number): Promise<number> {
  const matches = `SELECT 1 FROM items i ${m.joins} WHERE ${m.where}${upTo === undefined ? '' : ` LIMIT ${upTo}`}`;
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${matches}) x`, m.params);
  return n;
}

const TABLE_BLOCKS = `(pg_relation_size('items') / current_setting('block_size')::int)::int`;

/**
 * What a database's sample needs to know, kept per database: the table's size in blocks as last
 * seen (the sample's percentage follows from it), and how many blocks the sample chose at the
 * percentage and size it last ran with.
 */
interface SampleState {
  blocks: number;
  chosen?: { percent: number; blocks: number; count: number };
}
const sampleStates = new WeakMap<Queryable, SampleState>();

/**
 * Step 2: the matches estimated from a sample of the table's blocks (TABLESAMPLE SYSTEM with a fixed
 * seed: the same blocks while the table keeps its size, so the estimate holds from page to page).
 * `whole` when the table is small enough for the sample to read all of it (the count is then exact);
 * undefined when the sample held too few matches to estimate from.
 */
async function sampleEstimate(db: Queryable, m: SearchMatches): Promise<{ matches: number; whole: boolean } | undefined> {
  let state = sampleStates.get(db);
  if (!state) {
    const [{ blocks }] = await db.query<{ blocks: number }>(`SELECT ${TABLE_BLOCKS} AS blocks`);
    state = { blocks };
    sampleStates.set(db, state);
  }
  // A constant percentage (so the planner knows how many rows the sample holds), to three
  // significant digits: it changes only when the table grows by a thousandth.
  const percent = state.blocks <= SAMPLE_BLOCKS ? 100 : Number(((100 * SAMPLE_BLOCKS) / state.blocks).toPrecision(3));
  const [{ sampled, blocks }] = await db.query<{ sampled: number; blocks: number }>(
    `SELECT count(*)::int AS sampled, ${TABLE_BLOCKS} AS blocks FROM items i TABLESAMPLE SYSTEM (${percent}) REPEATABLE (0) ${m.joins} WHERE ${m.where}`,
    m.params,
  );
  state.blocks = blocks;
  if (percent >= 100) return { matches: sampled, whole: true };
  if (sampled < MIN_SAMPLE_MATCHES) return undefined;
  return { matches: (sampled * blocks) / (await chosenBlocks(db, state, percent, blocks)), whole: false };
}

/**
 * How many blocks the sample chose. SYSTEM sampling takes each block with the same chance, so their
 * number varies around SAMPLE_BLOCKS (±16 % at 40); scaling by the real number removes that error.
 * It depends only on the percentage and the table's size (the seed is fixed): counted again only
 * when either changes.
 */
async function chosenBlocks(db: Queryable, state: SampleState, percent: number, blocks: number): Promise<number> {
  if (state.chosen?.percent === percent && state.chosen.blocks === blocks) return state.chosen.count;
  const [{ chosen }] = await db.query<{ chosen: number }>(
    `SELECT count(DISTINCT (i.ctid::text::point)[0])::int AS chosen FROM items i TABLESAMPLE SYSTEM (${percent}) REPEATABLE (0)`,
  );
  // A block without a live row is not seen; the expectation stands in when none is.
  state.chosen = { percent, blocks, count: chosen || (percent * blocks) / 100 };
  return state.chosen.count;
}

function twoSignificantDigits(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}
