/**
 * Items of a dependency answer as the caller may see them: the rule of items/access.ts canViewItem
 * applied to each, and what a person needs to judge the impact (owner, sharing as the wire has it,
 * content status). Items the caller may not see are only counted by the answers.
 */
import type { DependencyNode } from '../../../shared/contract/dependencies.ts';
import type { Caller } from '../../http/auth.ts';
import type { Queryable } from '../../store/db.ts';
import { canViewItem, toItem } from '../items/access.ts';
import { SELECT_LISTED_ITEM, type ItemRow, type ListedItemRow } from '../items/repo.ts';

export type NodeFields = Omit<DependencyNode, 'depth'>;

export function nodeOf(row: ListedItemRow): NodeFields {
  const item = toItem(row);
  return {
    id: item.id,
    title: item.title,
    type: item.type,
    owner: item.owner,
    access: item.access,
    contentStatus: item.contentStatus,
    url: item.url,
    modified: item.modified,
  };
}

/** The listed rows of `ids`, split into those the caller may see (by id) and the count of the others. */
export async function visibleRows(
  q: Queryable,
  ids: readonly string[],
  caller: Caller | null,
  callerGroups: ReadonlySet<string>,
): Promise<{ visible: Map<string, ListedItemRow>; hidden: Set<string> }> {
  const visible = new Map<string, ListedItemRow>();
  const hidden = new Set<string>();
  if (!ids.length) return { visible, hidden };
  const rows = await q.query<ListedItemRow>(`${SELECT_LISTED_ITEM} WHERE i.id = ANY($1::text[])`, [ids]);
  for (const row of rows) {
    // canViewItem reads access, owner, organization and group shares: the listed row has them all.
    // An upload still open (not committed) is its owner's only, as search has it.
    const mayView = canViewItem(row as ItemRow, caller, callerGroups) && (row.status !== 'partial' || row.owner_id === caller?.userId);
    if (mayView) visible.set(row.id, row);
    else hidden.add(row.id);
  }
  return { visible, hidden };
}
