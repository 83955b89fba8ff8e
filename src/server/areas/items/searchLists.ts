/**
 * A search's ordered matches, kept while nothing they depend on has changed.
 *
 * Paging through a large result set by `start` and answering its exact `total` both need every
 * match: a deep page walks every row before it, a count reads every match. Doing that once per
 * result set instead of once per page is what makes every page cost about a primary-key read: the
 * matching ids are read once in order (one statement), kept here, and each page is a slice of them
 * read by primary key.
 *
 * A list is valid while the counter of migration 019 stands still: it moves in the same transaction
 * as any change to items, their shares, group memberships or usernames, and it is read before the
 * list is built, so a list can never be kept under a newer counter than the rows it was read from.
 * The key is the query's SQL and its parameters, which carry the caller's id, organization and
 * view-all privilege: two callers who may see different items never share a list.
 *
 * Memory: ids are kept as one text with line breaks and their offsets (about 37 bytes an item), at
 * most MAX_LIST_MATCHES a list and MAX_CACHED_CHARS in all, least recently used dropped first.
 */
import type { Queryable } from '../../store/db.ts';
import { orderedIdsText } from './repo/search.ts';

/** A list stops here: beyond it a search falls back to reading in order and estimating (searchPage.ts). */
export const MAX_LIST_MATCHES = 200_000;
/** Characters of ids kept across all lists of one database (about 32 MB). */
const MAX_CACHED_CHARS = 32 * 1024 * 1024;

export interface MatchList {
  /** The matches in order (at most MAX_LIST_MATCHES). */
  count: number;
  /** Whether every match is in the list (otherwise there are more than MAX_LIST_MATCHES). */
  complete: boolean;
  /** The ids from position `from` (0-based), at most `n`. */
  slice(from: number, n: number): string[];
}

interface Kept {
  generation: string;
  text: string;
  /** Start offsets of each id in `text`, and one past the end. */
  starts: Uint32Array;
  complete: boolean;
}

class KeptLists {
  private readonly lists = new Map<string, Kept>();
  private chars = 0;

  get(key: string, generation: string): Kept | undefined {
    const kept = this.lists.get(key);
    if (!kept) return undefined;
    this.lists.delete(key);
    if (kept.generation !== generation) {
      this.chars -= kept.text.length;
      return undefined;
    }
    this.lists.set(key, kept); // most recently used last
    return kept;
  }

  set(key: string, kept: Kept): void {
    const old = this.lists.get(key);
    if (old) {
      this.lists.delete(key);
      this.chars -= old.text.length;
    }
    if (kept.text.length > MAX_CACHED_CHARS) return;
    this.lists.set(key, kept);
    this.chars += kept.text.length;
    for (const [k, v] of this.lists) {
      if (this.chars <= MAX_CACHED_CHARS) break;
      this.lists.delete(k);
      this.chars -= v.text.length;
    }
  }
}

const perDatabase = new WeakMap<Queryable, KeptLists>();

const asList = (k: Kept): MatchList => ({
  count: k.starts.length - 1,
  complete: k.complete,
  slice(from, n) {
    const out: string[] = [];
    const end = Math.min(k.starts.length - 1, from + n);
    for (let i = Math.max(0, from); i < end; i++) out.push(k.text.slice(k.starts[i], k.starts[i + 1] - 1));
    return out;
  },
});

/** The kept list for `key` if it is still valid, without reading anything else. */
export function keptList(db: Queryable, key: string, generation: string): MatchList | undefined {
  const kept = perDatabase.get(db)?.get(key, generation);
  return kept && asList(kept);
}

/** Counts of first pages' result sets (no list read for them), kept the same way; at most 1,000 kept. */
const countsPerDatabase = new WeakMap<Queryable, Map<string, { generation: string; count: number }>>();
const MAX_KEPT_COUNTS = 1000;

export function keptCount(db: Queryable, key: string, generation: string): number | undefined {
  const kept = countsPerDatabase.get(db)?.get(key);
  return kept?.generation === generation ? kept.count : undefined;
}

export function keepCount(db: Queryable, key: string, generation: string, count: number): number {
  let counts = countsPerDatabase.get(db);
  if (!counts) countsPerDatabase.set(db, (counts = new Map<string, { generation: string; count: number }>()));
  counts.delete(key);
  counts.set(key, { generation, count });
  const oldest = counts.keys().next();
  if (counts.size > MAX_KEPT_COUNTS && !oldest.done) counts.delete(oldest.value);
  return count;
}

/**
 * Reads the matching ids in order (one statement: `idsSql` selects `id` and its rank `r` in the
 * order, with LIMIT MAX_LIST_MATCHES + 1) and keeps them under `key` for `generation`.
 */
export async function buildList(db: Queryable, key: string, generation: string, idsSql: string, params: unknown[]): Promise<MatchList> {
  const text = (await orderedIdsText(db, idsSql, params)) ?? '';
  const starts: number[] = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  if (!text) starts.length = 1;
  const complete = starts.length - 1 <= MAX_LIST_MATCHES;
  const kept: Kept = {
    generation,
    text: complete ? text : text.slice(0, starts[MAX_LIST_MATCHES]),
    starts: Uint32Array.from(complete ? starts : starts.slice(0, MAX_LIST_MATCHES + 1)),
    complete,
  };
  let lists = perDatabase.get(db);
  if (!lists) perDatabase.set(db, (lists = new KeptLists()));
  lists.set(key, kept);
  return asList(kept);
}
