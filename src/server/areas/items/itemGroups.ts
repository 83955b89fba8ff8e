/**
 * Item Groups (`content/items/<id>/groups`, Sharing API "Groups" of an item): the groups an item is
 * shared with, as the caller sees them. `admin` — groups the caller owns or manages; `member` —
 * groups the caller belongs to; `other` — groups the caller can see without belonging to them
 * (public ones, the organization's, or all of them for an administrator who views groups).
 *
 * The item must be visible to the caller (else the same "does not exist or is inaccessible" as
 * reading it); a group the caller cannot see is left out, so the answer never names a private group
 * of another member or another organization's group that is not public.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { GroupRecord } from '../../../shared/contract/groups.ts';
import type { Caller } from '../../http/auth.ts';
import { operation, REST } from '../../http/operation.ts';
import type { Queryable } from '../../store/db.ts';
import { canSeeGroup, findGroup, toGroupRecord, type GroupRow } from '../groups/service.ts';
import { visibleItem } from './access.ts';
import { ITEM_OPERATIONS } from '../../../shared/contract/items.ts';

export interface ItemGroupsAnswer {
  admin: GroupRecord[];
  member: GroupRecord[];
  other: GroupRecord[];
}

const byTitle = (a: GroupRow, b: GroupRow) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id);

export async function itemGroups(q: Queryable, itemId: string, caller: Caller | null): Promise<ItemGroupsAnswer> {
  const item = await visibleItem(q, itemId, caller);
  const answer: ItemGroupsAnswer = { admin: [], member: [], other: [] };
  const rows: GroupRow[] = [];
  // One read per group: the group's row carries the caller's membership, which decides both whether
  // it is shown and under which heading.
  for (const groupId of item.group_ids) {
    const row = await findGroup(q, groupId, caller?.userId ?? null);
    if (row && canSeeGroup(row, caller)) rows.push(row);
  }
  for (const row of rows.sort(byTitle)) {
    const record = toGroupRecord(row, caller);
    if (row.my_member_type === 'owner' || row.my_member_type === 'admin') answer.admin.push(record);
    else if (row.my_member_type === 'member') answer.member.push(record);
    else answer.other.push(record);
  }
  return answer;
}

export function itemGroupsRoutes(app: FastifyInstance): void {
  operation(app, {
    method: 'read',
    path: `${REST}/content/items/:itemId/groups`,
    authority: ITEM_OPERATIONS.itemGroups,
    params: z.object({}),
    access: 'public',
    // As in the portal's other group answers, the member count is this portal's own addition.
    extras: ['admin.memberCount', 'member.memberCount', 'other.memberCount'],
    handler: ({ caller, path, portal }) => itemGroups(portal.db, path.itemId, caller),
  });
}
