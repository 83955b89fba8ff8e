/**
 * The dependency answers computed from the browser graph's records: the same shapes, bounds and
 * ordering as the portal's operations (src/server/areas/dependencies), so the pages cannot tell
 * them apart but for `graph.source`. Pure functions: no IndexedDB, no requests.
 *
 * What differs from the portal, and why (docs/dependencies.md "On other portals"):
 * - Only items the member can see are in the records (the search returns no others), so an
 *   answer never counts hidden items (`hidden` is always 0): what you cannot see is not counted.
 * - Explicit item relationships are not read for the whole organization (one request per item
 *   and relationship type), so only references in item data and URLs are edges.
 */
import {
  DEPENDENCY_LIMITS,
  type DependencyAnswer,
  type DependencyEdge,
  type DependencyGraphInfo,
  type DependencySummaryAnswer,
  type DependencySummaryEntry,
  type DependencyUrl,
} from '../../../shared/contract/dependencies.ts';
import { pageEnvelope } from '../../../shared/contract/wire.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { DependencySummaryReadParams } from '../../api/dependencies.ts';
import { ApiError } from '../../api/errors.ts';
import type { GraphSnapshot, ItemRecord } from './records.ts';

/** The records with their edges resolved both ways. */
export interface GraphIndex {
  snapshot: GraphSnapshot;
  /** Item id → references it holds that name a recorded item (`from` is the item). */
  out: ReadonlyMap<string, readonly DependencyEdge[]>;
  /** Item id → references naming it (`to` is the item). */
  into: ReadonlyMap<string, readonly DependencyEdge[]>;
  /** Item id → URL references it holds that name no recorded item. */
  unresolved: ReadonlyMap<string, readonly DependencyUrl[]>;
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

/**
 * Resolves every record's references: an id names the recorded item with that id; a URL names
 * every recorded item whose service key is that URL; an item naming itself (a layer item whose
 * URL is its own service) is no edge, as on the portal.
 */
export function indexGraph(snapshot: GraphSnapshot): GraphIndex {
  const byServiceKey = new Map<string, string[]>();
  for (const r of snapshot.records.values()) if (r.serviceKey) push(byServiceKey, r.serviceKey, r.id);
  const out = new Map<string, DependencyEdge[]>();
  const into = new Map<string, DependencyEdge[]>();
  const unresolved = new Map<string, DependencyUrl[]>();
  const folded = new Map<string, DependencyEdge>();
  for (const r of snapshot.records.values()) {
    for (const ref of r.references) {
      const targets = ref.item !== undefined ? (snapshot.records.has(ref.item) ? [ref.item] : []) : (byServiceKey.get(ref.url!) ?? []);
      if (ref.url !== undefined && !targets.length) push(unresolved, r.id, { from: r.id, url: ref.url, kind: ref.kind, value: ref.value });
      for (const to of targets) {
        if (to === r.id) continue;
        // One edge per (from, to, kind), counting the references, as the portal answers.
        const key = `${r.id}\n${to}\n${ref.kind}`;
        const seen = folded.get(key);
        if (seen) {
          seen.count++;
          // The example is the first by path.
          if (ref.path < seen.path) Object.assign(seen, { path: ref.path, value: ref.value });
          continue;
        }
        const edge: DependencyEdge = { from: r.id, to, kind: ref.kind, count: 1, path: ref.path, value: ref.value };
        folded.set(key, edge);
        push(out, r.id, edge);
        push(into, to, edge);
      }
    }
  }
  return { snapshot, out, into, unresolved };
}

export function graphInfoOf(snapshot: GraphSnapshot): DependencyGraphInfo {
  const { builtAt, itemsRead, itemsTotal } = snapshot.meta;
  return { source: 'browser', builtAt, itemsRead, itemsTotal };
}

/** As the portal refuses an item the caller cannot see (or that does not exist). */
export function itemNotFound(itemId: string): ApiError {
  return new ApiError({
    code: 400,
    messageCode: 'CONT_0001',
    message: 'Item does not exist or is inaccessible.',
    details: [`The item ${itemId} is not among the items you can see in this browser's dependency graph.`],
  });
}

export interface DependencyQuery {
  transitive?: boolean;
  /** With transitive: 1–DEPENDENCY_LIMITS.maxDepth (default the maximum). */
  maxDepth?: number;
}

/**
 * What the item uses ('uses') or what uses it ('usedBy'): a breadth-first walk, each item once at
 * its smallest depth, a cycle ending where it closes, bounded by maxDepth (1 without transitive)
 * and DEPENDENCY_LIMITS.maxNodes; `truncated` when a bound stopped it with more to go.
 */
export function dependencyAnswerOf(graph: GraphIndex, itemId: string, direction: 'uses' | 'usedBy', query: DependencyQuery = {}): DependencyAnswer {
  const start = itemId.toLowerCase();
  const records = graph.snapshot.records;
  if (!records.has(start)) throw itemNotFound(itemId);
  const transitive = query.transitive === true;
  const maxDepth = transitive ? clampDepth(query.maxDepth) : 1;
  const step = direction === 'usedBy' ? graph.into : graph.out;
  const next = (e: DependencyEdge) => (direction === 'usedBy' ? e.from : e.to);

  const depth = new Map<string, number>([[start, 0]]);
  const edges: DependencyEdge[] = [];
  let truncated = false;
  let frontier = [start];
  for (let d = 1; d <= maxDepth && frontier.length; d++) {
    const found: string[] = [];
    for (const id of frontier) {
      for (const e of step.get(id) ?? []) {
        const reached = next(e);
        if (!depth.has(reached)) {
          // The start is not counted: maxNodes items besides it.
          if (depth.size > DEPENDENCY_LIMITS.maxNodes) {
            truncated = true;
            continue;
          }
          depth.set(reached, d);
          found.push(reached);
        }
        if (edges.length >= DEPENDENCY_LIMITS.maxEdges) truncated = true;
        else edges.push(e);
      }
    }
    frontier = found;
  }
  // A transitive walk that maxDepth stopped with further to go (a direct answer is no bounded walk).
  if (!truncated && transitive && frontier.some((id) => (step.get(id) ?? []).some((e) => !depth.has(next(e))))) truncated = true;

  const items = [...depth.entries()]
    .filter(([id]) => id !== start)
    .map(([id, d]) => ({ ...nodeOf(records.get(id)!), depth: d }))
    .sort((a, b) => a.depth - b.depth || a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  // The URLs of the items whose references were followed (depth below maxDepth).
  const urls = direction === 'uses' ? [...depth.entries()].filter(([, d]) => d < maxDepth).flatMap(([id]) => graph.unresolved.get(id) ?? []) : [];
  return {
    itemId: start,
    direction,
    transitive,
    items,
    edges,
    urls,
    hidden: 0,
    truncated,
    graph: graphInfoOf(graph.snapshot),
  };
}

function clampDepth(maxDepth: number | undefined): number {
  if (maxDepth === undefined || !Number.isFinite(maxDepth)) return DEPENDENCY_LIMITS.maxDepth;
  return Math.min(DEPENDENCY_LIMITS.maxDepth, Math.max(1, Math.floor(maxDepth)));
}

function nodeOf(r: ItemRecord) {
  return {
    id: r.id,
    title: r.title,
    type: r.type,
    owner: r.owner,
    access: r.access,
    contentStatus: r.contentStatus,
    url: r.url,
    modified: r.modified,
  };
}

/** Asked as the portal is asked (api/dependencies.ts). */
export type SummaryQuery = DependencySummaryReadParams;

/**
 * The organization's view: `unused` (no dependents; oldest modified first) or `usedByMany` (at
 * least minDependents dependents; most first), filtered by owners (case-insensitive), exact types
 * and modifiedBefore, paged like search (start 1-based, nextStart -1 at the end).
 */
export function dependencySummaryOf(graph: GraphIndex, query: SummaryQuery): DependencySummaryAnswer {
  const start = Math.max(1, Math.floor(query.start ?? 1));
  const num = Math.min(LIMITS.maxPageSize, Math.max(0, Math.floor(query.num ?? LIMITS.defaultPageSize)));
  const minDependents = Math.max(1, Math.floor(query.minDependents ?? 2));
  const owners = query.owners?.length ? new Set(query.owners.map((o) => o.toLowerCase())) : undefined;
  const types = query.types?.length ? new Set(query.types) : undefined;
  const distinct = (edges: readonly DependencyEdge[] | undefined, pick: (e: DependencyEdge) => string) => new Set((edges ?? []).map(pick)).size;

  const entries: DependencySummaryEntry[] = [];
  for (const r of graph.snapshot.records.values()) {
    if (owners && !owners.has(r.owner.toLowerCase())) continue;
    if (types && !types.has(r.type)) continue;
    if (query.modifiedBefore !== undefined && !(r.modified < query.modifiedBefore)) continue;
    const dependents = distinct(graph.into.get(r.id), (e) => e.from);
    // A registered app is used by its sign-ins, which no item's data names (as the portal's view).
    if (query.view === 'unused' ? dependents > 0 || r.registeredApp : dependents < minDependents) continue;
    entries.push({ ...nodeOf(r), created: r.created, dependents, dependencies: distinct(graph.out.get(r.id), (e) => e.to) });
  }
  const byId = (a: DependencySummaryEntry, b: DependencySummaryEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  entries.sort(query.view === 'unused' ? (a, b) => a.modified - b.modified || byId(a, b) : (a, b) => b.dependents - a.dependents || byId(a, b));
  const results = entries.slice(start - 1, start - 1 + num);
  return { view: query.view, ...pageEnvelope(entries.length, { start, num }, results.length), results, graph: graphInfoOf(graph.snapshot) };
}
