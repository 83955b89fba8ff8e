/**
 * Whether items may go to a target member (spec §4.5, §4.8; facts §3.4, §3.7). Every reason an
 * item is refused is collected, not only the first, so the console can name each fix:
 *
 * - the target is in the item's organization, enabled, holds portal:user:receiveItems and may own
 *   content (portal:user:createItem);
 * - the target is a member of every group the item is shared to, and a manager (owner or
 *   manager) of every view-only one, so the item keeps all its group shares;
 * - an item related to another by a type that needs one owner at both ends (e.g. Service2Data)
 *   moves only with that item (named in the same request) or to that item's owner;
 * - a view whose source is itself a view cannot change owner;
 * - an item still uploading or processing cannot change owner.
 *
 * Items are read with a few set-based queries, so checking 100 costs about what checking one does.
 */
import { RESERVED_TYPE_KEYWORDS, type BlockedItem, type BlockReason } from '../../../shared/contract/reassign.ts';
import { findRelationshipType } from '../../../shared/relationships.ts';
import { mayOwnContent, mayReceiveItems } from '../../http/policies.ts';
import type { Queryable } from '../../store/db.ts';
import { findItems, type ItemRow } from '../items/service.ts';
import { userPrivileges, type UserRow } from '../users/service.ts';
import { groupFactsOf, lockItems, relationshipFactsOf, type GroupFacts, type RelationshipFacts } from './repo.ts';

export interface Blocker {
  code: BlockReason;
  message: string;
  groupId?: string;
  groupTitle?: string;
  relatedItemId?: string;
}

export interface Evaluation {
  itemId: string;
  row?: ItemRow;
  blockers: Blocker[];
}

const VIEW = 'view service';
const isView = (keywords: string[]) => keywords.some((k) => k.toLowerCase() === VIEW);

/** What refuses the target for an item of organization `orgId`, whatever the item. */
export function targetBlockers(target: UserRow, orgId: string): Blocker[] {
  const out: Blocker[] = [];
  if (target.org_id !== orgId) out.push({ code: 'targetOtherOrg', message: `${target.username} is not a member of the item's organization.` });
  if (target.disabled) out.push({ code: 'targetDisabled', message: `${target.username}'s account is disabled.` });
  const member = { privileges: new Set(userPrivileges(target)) };
  if (!mayReceiveItems(member))
    out.push({ code: 'targetCannotReceive', message: `${target.username}'s role lacks the privilege to receive content (portal:user:receiveItems).` });
  if (!mayOwnContent(member)) out.push({ code: 'targetCannotOwn', message: `${target.username}'s role cannot own content (portal:user:createItem).` });
  return out;
}

/**
 * Evaluates each id (duplicates answered once, in the order given). `lock` locks the items' rows
 * for the rest of the transaction, so the answer still holds when the transfer is written.
 */
export async function evaluateItems(q: Queryable, source: UserRow, target: UserRow, itemIds: readonly string[], lock = false): Promise<Evaluation[]> {
  const ids = [...new Set(itemIds)];
  if (lock) await lockItems(q, ids);
  const rows = await findItems(q, ids);
  const byId = new Map(rows.filter((r) => r.owner_id === source.id).map((r) => [r.id, r]));
  const groups = await groupFacts(q, [...new Set([...byId.values()].flatMap((r) => r.group_ids))], target.id);
  const relationships = await relationshipFacts(q, [...byId.keys()]);
  const forTarget = new Map<string, Blocker[]>();
  const requested = new Set(byId.keys());

  const evaluations: Evaluation[] = ids.map((itemId) => {
    const row = byId.get(itemId);
    if (!row) return { itemId, blockers: [{ code: 'itemNotFound', message: `Item '${itemId}' does not exist or is not owned by ${source.username}.` }] };
    if (!forTarget.has(row.org_id)) forTarget.set(row.org_id, targetBlockers(target, row.org_id));
    const blockers = [...forTarget.get(row.org_id)!];
    if (row.status !== 'completed')
      blockers.push({ code: 'itemNotReady', message: `The item is still ${row.status === 'partial' ? 'being uploaded' : 'processing'}.` });
    for (const gid of row.group_ids) {
      const g = groups.get(gid);
      if (!g) continue;
      if (!g.member_type) {
        blockers.push({
          code: 'targetNotInGroup',
          message: `${target.username} is not a member of the group '${g.title}' the item is shared to.`,
          groupId: g.id,
          groupTitle: g.title,
        });
      } else if (g.is_view_only && g.member_type === 'member') {
        blockers.push({
          code: 'targetNotGroupManager',
          message: `'${g.title}' is a view-only group: ${target.username} must be one of its managers to keep the item in it.`,
          groupId: g.id,
          groupTitle: g.title,
        });
      }
    }
    blockers.push(...relationshipBlockers(row, relationships, target, requested));
    return { itemId, row, blockers };
  });
  return settlePartners(evaluations, oneOwnerPairs(relationships, requested));
}

function relationshipBlockers(row: ItemRow, relationships: RelationshipFacts[], target: UserRow, batch: ReadonlySet<string>): Blocker[] {
  const out: Blocker[] = [];
  for (const r of relationships) {
    if (r.origin_id !== row.id && r.destination_id !== row.id) continue;
    if (r.type === 'Service2Service' && r.destination_id === row.id && isView(r.destination_keywords) && isView(r.origin_keywords)) {
      out.push({
        code: 'viewOfView',
        message: `The item is a view of the view '${r.origin_id}'; a view of a view cannot change owner.`,
        relatedItemId: r.origin_id,
      });
      continue;
    }
    const rel = findRelationshipType(r.type);
    if (!rel?.mustOwnOrigin || !rel.mustOwnDestination) continue;
    const [partner, partnerOwner] = r.origin_id === row.id ? [r.destination_id, r.destination_owner] : [r.origin_id, r.origin_owner];
    if (partnerOwner === target.id || batch.has(partner)) continue;
    out.push({
      code: 'relatedItemStays',
      message: `A ${rel.name} relationship ties the item to '${partner}', which must have the same owner: transfer both together.`,
      relatedItemId: partner,
    });
  }
  return out;
}

/**
 * An item that may move only with a partner in the same request is refused when the partner is
 * refused (repeated until nothing changes: chains of such relationships move whole or not at all).
 */
function settlePartners(evaluations: Evaluation[], pairs: [string, string][]): Evaluation[] {
  const byId = new Map(evaluations.map((e) => [e.itemId, e]));
  let changed = true;
  while (changed) {
    changed = false;
    for (const [a, b] of pairs) {
      for (const [self, partner] of [
        [a, b],
        [b, a],
      ]) {
        const mine = byId.get(self);
        if (!mine || mine.blockers.length || !byId.get(partner)?.blockers.length) continue;
        mine.blockers.push({
          code: 'relatedItemStays',
          message: `The related item '${partner}' cannot be transferred, and the two must have the same owner.`,
          relatedItemId: partner,
        });
        changed = true;
      }
    }
  }
  return evaluations;
}

/** Pairs of requested items tied by a relationship that needs one owner at both ends. */
function oneOwnerPairs(relationships: RelationshipFacts[], requested: ReadonlySet<string>): [string, string][] {
  return relationships
    .filter((r) => {
      const rel = findRelationshipType(r.type);
      return rel?.mustOwnOrigin && rel.mustOwnDestination && requested.has(r.origin_id) && requested.has(r.destination_id);
    })
    .map((r) => [r.origin_id, r.destination_id]);
}

async function groupFacts(q: Queryable, groupIds: string[], targetId: string): Promise<Map<string, GroupFacts>> {
  if (!groupIds.length) return new Map();
  const rows = await groupFactsOf(q, groupIds, targetId);
  return new Map(rows.map((g) => [g.id, g]));
}

async function relationshipFacts(q: Queryable, itemIds: string[]): Promise<RelationshipFacts[]> {
  if (!itemIds.length) return [];
  return relationshipFactsOf(q, itemIds);
}

/** The CONT_0291 detail of one refused item (spec §4.5), with the local reasons after `owner`. */
export function blockedDetail(e: Evaluation, sourceUsername: string): BlockedItem {
  const keywords = e.row?.type_keywords ?? [];
  return {
    itemId: e.itemId,
    type: e.row?.type ?? '',
    url: e.row?.url ?? null,
    reservedTypeKeywords: keywords.filter((k) => RESERVED_TYPE_KEYWORDS.some((r) => r.toLowerCase() === k.toLowerCase())),
    owner: e.row?.owner_username ?? sourceUsername,
    reason: e.blockers.map((b) => b.message).join(' '),
    reasons: e.blockers.map((b) => ({ ...b })),
  };
}
