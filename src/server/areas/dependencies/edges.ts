/**
 * One step of the reference graph, read from the index (migration 020) and the relationships
 * table: the references into a set of items (their dependents) or out of it (what they use). An id
 * reference names the item with that id (of any organization); a URL reference names every item of
 * the using item's organization whose service key is that URL; a relationship's origin uses its
 * destination. An item naming itself (a layer item whose URL is its own service) is no edge.
 *
 * A step reads at most `maxRows` references and folds them into one edge per (from, to, kind) with
 * their count, in the database: data that names one item 2,000 times is one edge, and no step
 * reads more than its bound however the data repeats (issue 35). It reads them already folded per
 * (item, target, kind) (migration 039), each row standing for its count, so the adversarial ring's
 * steps read dozens of rows, not thousands. The same statement reads the node
 * rows of the items the step meets for the first time (those not in `known`), so that a level of
 * the walk is one query: reading their visibility apart doubled the queries of a level, and at a
 * hot layer's few hundred dependents the planning and round trips were most of the answer's time.
 * The statements are functions of migration 037, whose plans the connection keeps: planned anew
 * at each step, planning cost the embedded database about as much as running them.
 */
import type { DependencyEdge } from '../../../shared/contract/dependencies.ts';
import type { ReferenceKind } from '../../../shared/references/references.ts';
import type { Queryable } from '../../store/db.ts';
import { nodeRowOf, type NodeTuple } from './nodes.ts';
import { dependentsStep, urlReferenceRowsOf, usesStep, type DependentsStepRow, type NodeRow, type StepRow } from './repo.ts';

/** An edge as the step's statement gives it: [from, to, kind, count, example, relationship type]. */
type EdgeTuple = [string, string, ReferenceKind, number, string, string | null];
/** A dependent's node row as a dependents step gives it after each of its edges (its owner's username apart). */
type HolderTuple = [string, string | null, string, string, string | null, string, string | null, string, number, number, string[], number | null];

/** A URL the item uses, with the items it resolved to (none: no service item has that key). */
export interface UrlReference {
  from: string;
  url: string;
  kind: ReferenceKind;
  value: string;
  /** Ids of the items with that service key. */
  resolved: string[];
}

/** One step's edges, whether its bound on rows left references unread, and the items it met first. */
export interface Step {
  edges: DependencyEdge[];
  cut: boolean;
  /** Node rows of the ends the walk goes on to that were not `known`, by id (an id naming no item has none). */
  met: Map<string, NodeRow>;
  /**
   * Dependents met that no item of their organization uses (the index's count, migration 023):
   * a step from them would find nothing, and the walk takes none. Empty for what items use.
   */
  leaves: Set<string>;
}

const NO_STEP = (): Step => ({ edges: [], cut: false, met: new Map(), leaves: new Set() });

/** The example is the path and value joined by U+0001 (in neither: a JSON Pointer and a string of item data as indexed). */
function toEdge([from, to, kind, count, example, relationshipType]: EdgeTuple): DependencyEdge {
  const cut = example.indexOf('\u0001');
  return {
    from,
    to,
    kind,
    count,
    path: example.slice(0, cut),
    value: example.slice(cut + 1),
    ...(relationshipType !== null ? { relationshipType } : {}),
  };
}

/** Row `i` of columns. */
const rowAt = <T>(columns: readonly (readonly unknown[])[], i: number) => columns.map((c) => c[i]) as T;

/** A step's row read into edges, node rows and leaves; `cut` when it read more than maxRows reference rows. */
export function stepOf(row: StepRow, maxRows: number): Step {
  const columns = row.edges;
  const edges = columns ? columns[0].map((_, i) => toEdge(rowAt<EdgeTuple>(columns, i))) : [];
  const met = new Map<string, NodeRow>();
  const leaves = new Set<string>();
  if (row.nodes) {
    const fields = row.nodes.slice(0, 13);
    const dependents = row.nodes[13] as (number | null)[] | null;
    (fields[0] as string[]).forEach((id, i) => {
      met.set(id, nodeRowOf(rowAt<NodeTuple>(fields, i)));
      if (dependents?.[i] === 0) leaves.add(id);
    });
  }
  const read = edges.reduce((sum, e) => sum + e.count, 0);
  return { edges, cut: read > maxRows, met, leaves };
}

/** Code-unit order (the database's order of ids and kinds is not needed: only one order, always the same). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A dependents step's row (migration 047) read into a Step: its rows in the order read, each a
 * folded reference row standing for its count, taken while fewer than maxRows + 1 references were
 * taken (the last counting only those up to the bound), folded per (from, to, kind) with the least
 * example, each dependent's node row from the first of its rows. Edges in (from, to, kind) order.
 * `withLeaves`: whether the walk steps on from what it meets (without, `leaves` is empty).
 */
export function stepOfDependents(row: DependentsStepRow | undefined, maxRows: number, withLeaves = true): Step {
  if (!row?.rows) return NO_STEP();
  // The rows are JSON array elements as the database wrote them with the folded rows: one parse for the step.
  const rows = JSON.parse(`[${row.rows}]`) as [...EdgeTuple, ...HolderTuple][];
  const owners = new Map<string, string>();
  if (row.nodes) (row.nodes[0] as string[]).forEach((id, i) => owners.set(id, (row.nodes![1] as string[])[i]));
  const folded = new Map<string, DependencyEdge>();
  const met = new Map<string, NodeRow>();
  const leaves = new Set<string>();
  let before = 0;
  for (let i = 0; i < rows.length && before < maxRows + 1; i++) {
    const [from, to, kind, n, example, relationshipType, ...node] = rows[i];
    const edge = toEdge([from, to, kind, Math.min(n, maxRows + 1 - before), example, relationshipType]);
    before += n;
    const key = `${from}\n${to}\n${kind}`;
    const same = folded.get(key);
    if (!same) folded.set(key, edge);
    else {
      same.count += edge.count;
      if (byCodeUnits(`${edge.path}\u0001${edge.value}`, `${same.path}\u0001${same.value}`) < 0) Object.assign(same, { path: edge.path, value: edge.value });
    }
    const [org_id, owner_id, title, type, url, access, content_status, status, created, modified, group_ids, dependents] = node;
    // No owner: the folded row's holder is gone (its rows go with it); no node row, as for an id naming no item.
    const owner_username = owner_id === null ? undefined : owners.get(owner_id);
    if (met.has(from) || owner_username === undefined) continue;
    met.set(from, { id: from, org_id, owner_id, owner_username, title, type, url, access, content_status, status, created, modified, group_ids } as NodeRow);
    if (withLeaves && dependents === 0) leaves.add(from);
  }
  const edges = [...folded.values()].sort((a, b) => byCodeUnits(a.from, b.from) || byCodeUnits(a.to, b.to) || byCodeUnits(a.kind, b.kind));
  return { edges, cut: before > maxRows, met, leaves };
}

/**
 * The references whose target is one of `ids`: `from` is the dependent. With `orgId`, only
 * references held by items of that organization (another organization's items are no dependents
 * in this organization's answers). `met`: the node rows of every dependent it read (the walk skips
 * those it met before: the rows come with the edges, no lookup to save). `withUrl`: the ids that
 * may be services (items with a URL): only their service keys are looked up for URL references.
 * `withLeaves`: whether `leaves` is wanted (the walk steps on from what it meets); without, it is
 * empty (a direct answer).
 * The statement is migration 047's dependency_step_into (a plan kept for the connection), which
 * answers its rows as written with the folded rows it reads (dependents' node rows included), read
 * from the index of migration 050 that holds them beside their target (an index-only scan).
 */
export async function edgesInto(
  q: Queryable,
  ids: readonly string[],
  maxRows: number,
  orgId: string | null,
  withUrl: readonly string[] = ids,
  withLeaves = true,
): Promise<Step> {
  if (!ids.length) return NO_STEP();
  return stepOfDependents(await dependentsStep(q, ids, maxRows, orgId, withUrl), maxRows, withLeaves);
}

/**
 * Every reference held by one of `ids` that names an item: `to` is what it uses. `met`: those used,
 * not in `known`. An id naming no item is met by the walk and left there (it has no node row).
 * The statement is migration 040's dependency_step_out_of.
 */
export async function edgesOutOf(q: Queryable, ids: readonly string[], maxRows: number, known: readonly string[] = []): Promise<Step> {
  if (!ids.length) return NO_STEP();
  return stepOf(await usesStep(q, ids, maxRows, known), maxRows);
}

/**
 * The URL references held by `ids` (at most `maxRows`, one per holder, URL and kind), each with the
 * items (of the holder's organization) it resolves to.
 */
export async function urlReferencesOf(q: Queryable, ids: readonly string[], maxRows: number): Promise<UrlReference[]> {
  if (!ids.length) return [];
  const rows = await urlReferenceRowsOf(q, ids, maxRows);
  return rows.map((r) => ({ from: r.from_id, url: r.url, kind: r.kind, value: r.value, resolved: r.resolved }));
}
