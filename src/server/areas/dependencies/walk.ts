/**
 * content/items/<id>/dependencies and …/dependents: a breadth-first walk of the reference graph
 * from one item, one batched query per step, so each item is met once at its smallest depth and a
 * cycle ends the walk where it closes. Bounded by maxDepth (1 without `transitive`) and
 * DEPENDENCY_LIMITS.maxNodes; when a bound stops it, the answer says `truncated`.
 *
 * Access: the item asked about must be one the caller may see (the same refusal as reading it).
 * The walk goes on through items the caller may not see (what breaks still breaks), but those are
 * only counted in `hidden`: no id, title or edge of theirs is in the answer. A visible item found
 * only through a hidden one is listed at its depth with no edge into it.
 */
import {
  DEPENDENCY_LIMITS,
  type DependencyAnswer,
  type DependencyEdge,
  type DependencyParams,
  type DependencyUrl,
} from '../../../shared/contract/dependencies.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import type { Queryable } from '../../store/db.ts';
import { itemNotFound } from '../items/access.ts';
import { groupIdsOf } from '../items/service.ts';
import { edgesInto, edgesOutOf, urlReferencesOf } from './edges.ts';
import { nodeOf, visibleRows } from './nodes.ts';

export type Direction = DependencyAnswer['direction'];

interface Walked {
  /** Item id → smallest depth (the start at 0). */
  depth: Map<string, number>;
  edges: DependencyEdge[];
  truncated: boolean;
}

async function walk(q: Queryable, start: string, direction: Direction, maxDepth: number, transitive: boolean): Promise<Walked> {
  const maxNodes = DEPENDENCY_LIMITS.maxNodes;
  const step = direction === 'usedBy' ? edgesInto : edgesOutOf;
  const next = (e: DependencyEdge) => (direction === 'usedBy' ? e.from : e.to);
  const depth = new Map<string, number>([[start, 0]]);
  const edges: DependencyEdge[] = [];
  let truncated = false;
  let frontier = [start];
  for (let d = 1; d <= maxDepth && frontier.length; d++) {
    const found: string[] = [];
    for (const e of await step(q, frontier)) {
      const id = next(e);
      if (!depth.has(id)) {
        // The start is not counted: maxNodes items besides it.
        if (depth.size > maxNodes) {
          truncated = true;
          continue;
        }
        depth.set(id, d);
        found.push(id);
      }
      edges.push(e);
    }
    frontier = found;
  }
  // A transitive walk that maxDepth stopped with further to go (a direct answer is no bounded walk).
  if (!truncated && frontier.length && transitive) truncated = (await step(q, frontier)).some((e) => !depth.has(next(e)));
  return { depth, edges, truncated };
}

export async function dependencyAnswer(
  ctx: PortalContext,
  caller: Caller | null,
  itemId: string,
  direction: Direction,
  p: DependencyParams,
): Promise<DependencyAnswer> {
  const q = ctx.db;
  // The caller's groups are read once: for the item asked about (the rule visibleItem applies) and for the walk's items.
  const groups = caller ? await groupIdsOf(q, caller.userId) : new Set<string>();
  // Its listed columns only: a web map's data can be megabytes, which the answer never shows.
  const item = (await visibleRows(q, [itemId], caller, groups)).visible.get(itemId);
  if (!item) throw itemNotFound(itemId);
  const maxDepth = p.transitive ? p.maxDepth : 1;
  const walked = await walk(q, item.id, direction, maxDepth, p.transitive);
  const others = [...walked.depth.keys()].filter((id) => id !== item.id);
  const { visible, hidden } = await visibleRows(q, others, caller, groups);
  const shown = (id: string) => id === item.id || visible.has(id);

  const items = [...visible.values()]
    .map((row) => ({ ...nodeOf(row), depth: walked.depth.get(row.id)! }))
    .sort((a, b) => a.depth - b.depth || a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  const edges = walked.edges.filter((e) => shown(e.from) && shown(e.to));
  const urls = direction === 'uses' ? await unresolvedUrls(q, item.id, walked, maxDepth, visible, caller, groups) : [];
  return {
    itemId: item.id,
    direction,
    transitive: p.transitive,
    items,
    edges,
    urls,
    hidden: hidden.size,
    truncated: walked.truncated,
    graph: { source: 'portal' },
  };
}

/**
 * The URLs the walked items use (those whose references were followed: depth below maxDepth) that
 * name no item the caller may see. A URL naming its own holder (a layer item's own service) is none.
 */
async function unresolvedUrls(
  q: Queryable,
  start: string,
  walked: Walked,
  maxDepth: number,
  visible: ReadonlyMap<string, unknown>,
  caller: Caller | null,
  groups: ReadonlySet<string>,
): Promise<DependencyUrl[]> {
  const holders = [start, ...[...visible.keys()].filter((id) => walked.depth.get(id)! < maxDepth)];
  const refs = (await urlReferencesOf(q, holders)).filter((u) => !u.resolved.includes(u.from));
  // Items a URL names that the walk did not reach (it stopped at maxNodes): their visibility is read here.
  const unwalked = [...new Set(refs.flatMap((u) => u.resolved))].filter((id) => !walked.depth.has(id));
  const alsoVisible = (await visibleRows(q, unwalked, caller, groups)).visible;
  const seen = (id: string) => id === start || visible.has(id) || alsoVisible.has(id);
  return refs.filter((u) => !u.resolved.some(seen)).map((u) => ({ from: u.from, url: u.url, kind: u.kind, value: u.value }));
}
