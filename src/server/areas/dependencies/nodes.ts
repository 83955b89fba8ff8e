/**
 * Items of a dependency answer as the caller may see them: the rule of items/access.ts canViewItem
 * applied to each, and what a person needs to judge the impact (owner, sharing as the wire has it,
 * content status). Items the caller may not see are only counted by the answers.
 */
import type { DependencyNode } from '../../../shared/contract/dependencies.ts';
import type { Caller } from '../../http/auth.ts';
import type { Queryable } from '../../store/db.ts';
import { seesAllOrgItems } from '../../http/policies.ts';
import { canViewItem, type ItemRow } from '../items/service.ts';
import { nodeRowsOf, walkStart, type NodeRow } from './repo.ts';

export type NodeFields = Omit<DependencyNode, 'depth'>;

export type { NodeRow };

/** A node row as a walk step's statement gives it, as one JSON array (migration 037 builds it in this order). */
export type NodeTuple = [
  id: string,
  org_id: string,
  owner_id: string,
  owner_username: string,
  title: string,
  type: string,
  url: string | null,
  access: NodeRow['access'],
  content_status: NodeRow['content_status'],
  status: NodeRow['status'],
  created: number,
  modified: number,
  group_ids: string[],
];

export function nodeRowOf([
  id,
  org_id,
  owner_id,
  owner_username,
  title,
  type,
  url,
  access,
  content_status,
  status,
  created,
  modified,
  group_ids,
]: NodeTuple): NodeRow {
  return { id, org_id, owner_id, owner_username, title, type, url, access, content_status, status, created, modified, group_ids };
}

export function nodeOf(row: NodeRow): NodeFields {
  return {
    id: row.id,
    title: row.title,
    type: row.type,
    owner: row.owner_username,
    // As items/access.ts toItem has it: private with group shares is "shared" on the wire.
    access: row.access === 'private' && row.group_ids.length ? 'shared' : row.access,
    contentStatus: row.content_status,
    url: row.url,
    modified: Number(row.modified),
  };
}

/**
 * The rows of `ids`, split into those the caller may see (by id) and the others (id → their
 * organization: only ever counted, and only within it). An id naming no item is in neither.
 */
export async function visibleRows(
  q: Queryable,
  ids: readonly string[],
  caller: Caller | null,
  callerGroups: ReadonlySet<string>,
): Promise<{ visible: Map<string, NodeRow>; hidden: Map<string, string> }> {
  const visible = new Map<string, NodeRow>();
  const hidden = new Map<string, string>();
  if (!ids.length) return { visible, hidden };
  const rows = await nodeRowsOf(q, ids);
  for (const row of rows) {
    if (mayViewNode(row, caller, callerGroups)) visible.set(row.id, row);
    else hidden.set(row.id, row.org_id);
  }
  return { visible, hidden };
}

/** The first step of a walk as its statement answers it (edges.ts stepOf or, for dependents, stepOfDependents reads it): null columns when it was not taken. */
export interface FirstStepRow {
  edges: unknown[][] | null;
  /** A dependents step's rows (repo.ts DependentsStepRow); null for what items use, whose step is `edges`. */
  rows: string | null;
  nodes: unknown[][] | null;
}

/** What the walk's first step takes, to be taken in the statement that reads the item asked about. */
export interface FirstStepAsk {
  direction: 'uses' | 'usedBy';
  maxRows: number;
  /** Whether the walk reads which dependents nothing uses (edges.ts stepOfDependents withLeaves). */
  withLeaves: boolean;
}

/**
 * The node row of the item asked about, if the caller may see it, and the caller's groups (as
 * items/service.ts groupIdsOf reads them), in one statement: the walk decides every item's
 * visibility with them. No row: no such item, or one the caller may not see (one answer for both).
 * With `first`, the same statement takes the walk's first step from it when the caller may see it
 * (for dependents, its organization's only, its service key looked up if it has a URL): a
 * statement fewer per answer. The statement is migration 047's dependency_walk_start (a plan kept
 * for the connection), which takes the step only for an item the caller may see (mayViewNode's
 * rule): taken for a hidden one, it would make that refusal slower than an unknown id's.
 */
export async function startOfWalk(
  q: Queryable,
  id: string,
  caller: Caller | null,
  first?: FirstStepAsk,
): Promise<{ row: NodeRow | undefined; groups: ReadonlySet<string>; firstStep: FirstStepRow | null }> {
  const found = await walkStart(q, {
    itemId: id,
    userId: caller?.userId ?? null,
    orgId: caller?.orgId ?? null,
    seesOrgItems: seesAllOrgItems(caller),
    direction: first?.direction ?? null,
    maxRows: first?.maxRows ?? 0,
  });
  if (!found) return { row: undefined, groups: new Set(), firstStep: null };
  const { caller_groups, step_edges, step_rows, step_nodes, stepped, ...row } = found;
  const groups = new Set(caller_groups);
  // The step as the statement took it (none for an item the caller may not see): the walk uses it only with a row.
  return {
    row: mayViewNode(row, caller, groups) ? row : undefined,
    groups,
    firstStep: stepped ? { edges: step_edges, rows: step_rows, nodes: step_nodes } : null,
  };
}

/** Whether the caller may see the item of a node row: the one rule for every item a dependency answer meets. */
export function mayViewNode(row: NodeRow, caller: Caller | null, callerGroups: ReadonlySet<string>): boolean {
  // canViewItem reads access, owner, organization and group shares: the node row has them all.
  // An upload still open (not committed) is its owner's only, as search has it.
  return canViewItem(row as ItemRow, caller, callerGroups) && (row.status !== 'partial' || row.owner_id === caller?.userId);
}
