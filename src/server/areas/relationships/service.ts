/**
 * Relationship rules (spec §2 Relationship, §4.11): a defined type, an origin and a destination
 * whose item types fit it, both visible to the caller, ownership where the type's rules ask for it;
 * only the member who created a relationship deletes it; deleting an item deletes its
 * relationships (foreign keys cascade).
 */
import { findRelationshipType, pairProblem, RELATIONSHIP_TYPES, type RelationshipType } from '../../../shared/relationships.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam, forbidden } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { canViewItem, visibleItem, groupIdsOf, SELECT_ITEM, type ItemRow } from '../items/service.ts';
import { deleteRelationshipRow, findOriginSummary, insertRelationship, lockRelationship, relatedItemRows } from './repo.ts';

export function relationshipType(name: string, param = 'relationshipType'): RelationshipType {
  const rel = findRelationshipType(name);
  if (!rel) {
    throw badParam(
      param,
      `'${name}' is not a defined relationship type (known: ${RELATIONSHIP_TYPES.map((r) => r.name).join(', ')})`,
      'Invalid relationship type.',
    );
  }
  return rel;
}

export interface RelationshipInput {
  type: string;
  originId: string;
  destinationId: string;
}

/** Checks every rule, then stores the relationship (an existing identical one is kept). */
export async function addRelationship(
  q: Queryable,
  caller: Caller,
  input: RelationshipInput,
  now: number,
): Promise<{ rel: RelationshipType; origin: ItemRow; destination: ItemRow }> {
  const rel = relationshipType(input.type);
  if (input.originId === input.destinationId) throw badParam('destinationItemId', 'must differ from originItemId', 'Unable to add the relationship.');
  const origin = await visibleItem(q, input.originId, caller);
  const destination = await visibleItem(q, input.destinationId, caller);
  const problem = pairProblem(rel, origin.type, destination.type);
  if (problem) throw new ApiError(400, 'Unable to add the relationship: invalid origin or destination item type.', [problem]);
  if (rel.mustOwnOrigin && origin.owner_id !== caller.userId) throw forbidden(`A ${rel.name} relationship can only be added by the owner of the origin item.`);
  if (rel.mustOwnDestination && destination.owner_id !== caller.userId)
    throw forbidden(`A ${rel.name} relationship can only be added by the owner of the destination item.`);
  await insertRelationship(q, {
    orgId: caller.orgId,
    type: rel.name,
    originId: origin.id,
    destinationId: destination.id,
    createdBy: caller.userId,
    created: now,
  });
  const relationship = { relationshipType: rel.name, originItemId: origin.id, destinationItemId: destination.id };
  await recordEvent(q, {
    orgId: origin.org_id,
    source: 'relationship',
    operation: 'add',
    subjectId: origin.id,
    actor: actorOf(caller),
    when: now,
    history: { op: 'addRelationship', owner: origin.owner_username, title: origin.title, data: { after: relationship } },
  });
  return { rel, origin, destination };
}

export async function deleteRelationship(q: Queryable, caller: Caller, input: RelationshipInput, now = Date.now()): Promise<void> {
  const rel = relationshipType(input.type);
  const row = await lockRelationship(q, rel.name, input.originId, input.destinationId);
  if (!row)
    throw new ApiError(400, 'Relationship does not exist or is inaccessible.', [
      `No ${rel.name} relationship from '${input.originId}' to '${input.destinationId}'.`,
    ]);
  if (row.created_by !== caller.userId) throw forbidden('Only the member who created a relationship can delete it.');
  await deleteRelationshipRow(q, row.id);
  const origin = await findOriginSummary(q, input.originId);
  const relationship = { relationshipType: rel.name, originItemId: input.originId, destinationItemId: input.destinationId };
  await recordEvent(q, {
    orgId: origin?.org_id ?? caller.orgId,
    source: 'relationship',
    operation: 'delete',
    subjectId: input.originId,
    actor: actorOf(caller),
    when: now,
    history: { op: 'deleteRelationship', owner: origin?.owner, title: origin?.title, data: { before: relationship } },
  });
}

export interface RelatedQuery {
  types: string[];
  direction: 'forward' | 'reverse' | 'both';
  offset: number;
  limit: number;
  order: 'asc' | 'desc';
}

/** Items related to `itemId` the caller may see, newest relationship last (or first with desc). */
export async function relatedItems(
  q: Queryable,
  caller: Caller | null,
  itemId: string,
  query: RelatedQuery,
): Promise<{ total: number; rows: (ItemRow & { rel_types: string[] })[] }> {
  await visibleItem(q, itemId, caller);
  const types = query.types.map((t) => relationshipType(t, 'relationshipTypes').name);
  const forward = query.direction !== 'reverse';
  const reverse = query.direction !== 'forward';
  const rows = await relatedItemRows<ItemRow>(q, SELECT_ITEM, { itemId, forward, reverse, types, desc: query.order === 'desc' });
  const groups = caller ? await groupIdsOf(q, caller.userId) : new Set<string>();
  // One item related twice (two types) is listed once, with every type that relates it.
  const typesOf = new Map<string, string[]>();
  for (const r of rows) typesOf.set(r.id, [...(typesOf.get(r.id) ?? []), r.rel_type]);
  const seen = new Set<string>();
  const visible = rows.filter((r) => canViewItem(r, caller, groups) && !seen.has(r.id) && seen.add(r.id));
  return { total: visible.length, rows: visible.slice(query.offset, query.offset + query.limit).map((r) => ({ ...r, rel_types: typesOf.get(r.id) ?? [] })) };
}
