/**
 * One page of an item search and its `total`, exact, at a cost that follows the page rather than
 * the number of matches once a result set has been read:
 *
 * 1. A result set kept by searchLists.ts (its ordered ids, valid until the next change to what a
 *    search sees: migration 019's counter) answers any page — deep ones included — as a slice of
 *    ids read by primary key, and its total is the list's length.
 * 2. Otherwise a first page (start within the first 100) reads the next FEW + 1 matches in order
 *    from `start` (with no sortField through the index items_default_order of migration 016,
 *    stopping there) and the page's whole rows in one statement. When the matches end within FEW,
 *    the total is known: start + their number. Selective terms end here, and nothing is kept.
 * 3. Otherwise a first page's matches are counted (exact; the count is kept the same way), and a
 *    deeper page — or the same first page asked again — reads the matching ids in order once (one
 *    statement, at most MAX_LIST_MATCHES) and keeps them: the total is exact, and the following
 *    pages are step 1.
 *
 * Only beyond MAX_LIST_MATCHES (200,000 matches), or when the order or condition reads view counts
 * (which change on every view without moving the counter), does the earlier estimate apply: a
 * sample of the table's blocks (TABLESAMPLE SYSTEM with a fixed seed: the same blocks while the
 * table keeps its size) — at least ten times EXACT_TOTAL_LIMIT is the total; otherwise the matches
 * are counted up to EXACT_TOTAL_LIMIT + 1, exact at or below it and the estimate above. An estimate
 * is rounded to two significant digits, flagged with the local extra `totalEstimated: true` and
 * kept within what is known (more than the limit; at least start + num when another page follows;
 * at most the start of an empty page). `num=0` always counts every match; `nextStart` is exact.
 *
 * Why keep lists: a deep page by `start` walks every match before it, and counting 20,000 matches
 * among 100,000 items reads most of the table (40 ms on the embedded database, against 0.3 ms for a
 * primary-key read); clients page through one result set with the same query (nextStart), so the
 * work is done once per result set instead of once per page. The first call of a large result set
 * pays for one count, the first deep page for reading its ids in order (docs/performance.md has the
 * figures).
 */
import { LIMITS } from '../../../shared/limits.ts';
import type { Queryable } from '../../store/db.ts';
import {
  countMatches,
  itemTableBlocks,
  matchIdsSql,
  nextMatches,
  rowsByIds,
  sampledBlocks,
  sampledMatches,
  searchGeneration,
  type SearchMatches,
} from './repo/search.ts';
import { buildList, keepCount, keptCount, keptList, MAX_LIST_MATCHES } from './searchLists.ts';

export type { SearchMatches };

/** Up to this many matches an estimated total (more than MAX_LIST_MATCHES, or view counts) is counted exactly. */
export const EXACT_TOTAL_LIMIT = 1000;
/** The matches read in order from `start` (one more than this): as many as the largest page. */
const FEW = LIMITS.maxPageSize;
/** Table blocks a sample reads (about 20 items each): 0.7 % of 100,000 items. */
const SAMPLE_BLOCKS = 40;
/** Fewer matches than this in the sample say too little to estimate from. */
const MIN_SAMPLE_MATCHES = 30;

/** A sort key: an expression over the matching rows (`i`, and `o` when joined) and its direction ("DESC NULLS LAST", …). */
export type SortKey = readonly [expression: string, direction: string];

export interface SearchPage<T> {
  rows: T[];
  total: number;
  estimated: boolean;
}

export async function searchPage<T extends { id: string }>(
  db: Queryable,
  m: SearchMatches,
  order: readonly SortKey[],
  offset: number,
  limit: number,
): Promise<SearchPage<T>> {
  const orderBy = order.map(([e, d]) => `${e} ${d}`).join(', ');
  // View counts change on every item view without moving the counter: such lists are not kept.
  const keepable = !/\bi\.num_views\b/.test(`${m.where} ${orderBy}`);
  const generation = keepable ? await searchGeneration(db) : undefined;
  const key = JSON.stringify([m.joins, m.where, orderBy, m.params]);
  let list = generation === undefined ? undefined : keptList(db, key, generation);
  if (limit === 0) {
    const kept = list?.complete ? list.count : generation === undefined ? undefined : keptCount(db, key, generation);
    return { rows: [], total: kept ?? (await countMatches(db, m)), estimated: false };
  }
  const build = () => buildList(db, key, generation!, matchIdsSql(m, orderBy, MAX_LIST_MATCHES + 1), m.params);
  // A first page asked again before anything changed (its count is kept: it was asked before), of a
  // result set small enough to keep whole: its ordered ids are read once and kept, so this and every
  // later page is a slice read by primary key rather than a walk of the order checking each row's
  // access (a group's page checked every share). A larger one keeps its exact count (step 3).
  const askedBefore = !list && offset < FEW && generation !== undefined ? keptCount(db, key, generation) : undefined;
  if (askedBefore !== undefined && askedBefore <= MAX_LIST_MATCHES) list = await build();
  if (!list && offset < FEW) {
    // A first page reads its rows in order and stops: selective searches end here, exact.
    const { rows, next } = await nextMatches<T>(db, m, orderBy, offset, limit, FEW);
    if (next <= FEW && (next > 0 || offset === 0)) return { rows, total: offset + next, estimated: false };
    if (generation === undefined) return estimatedTotal(db, m, rows, next, offset, limit);
    // The total alone: counting costs a fraction of reading every id in order, which waits for a deeper page.
    const total = keptCount(db, key, generation) ?? keepCount(db, key, generation, await countMatches(db, m));
    return { rows, total, estimated: false };
  }
  if (!list && generation !== undefined) list = await build();
  if (list && (list.complete || offset + limit <= list.count)) {
    const rows = await rowsByIds<T>(db, m.select, list.slice(offset, limit));
    if (list.complete) return { rows, total: list.count, estimated: false };
    return estimatedTotal(db, m, rows, FEW + 1, offset, limit);
  }
  const { rows, next } = await nextMatches<T>(db, m, orderBy, offset, limit, FEW);
  if (next <= FEW && next > 0) return { rows, total: offset + next, estimated: false };
  return estimatedTotal(db, m, rows, next, offset, limit);
}

/**
 * The total of a search too large to keep (more than MAX_LIST_MATCHES), or whose list is not kept:
 * steps 2 and 3 above.
 */
async function estimatedTotal<T>(db: Queryable, m: SearchMatches, rows: T[], next: number, offset: number, limit: number): Promise<SearchPage<T>> {
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
    state = { blocks: await itemTableBlocks(db) };
    sampleStates.set(db, state);
  }
  // A constant percentage (so the planner knows how many rows the sample holds), to three
  // significant digits: it changes only when the table grows by a thousandth.
  const percent = state.blocks <= SAMPLE_BLOCKS ? 100 : Number(((100 * SAMPLE_BLOCKS) / state.blocks).toPrecision(3));
  const { sampled, blocks } = await sampledMatches(db, m, percent);
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
  const chosen = await sampledBlocks(db, percent);
  // A block without a live row is not seen; the expectation stands in when none is.
  state.chosen = { percent, blocks, count: chosen || (percent * blocks) / 100 };
  return state.chosen.count;
}

function twoSignificantDigits(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}
