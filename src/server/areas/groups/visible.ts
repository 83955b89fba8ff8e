/**
 * Who sees a group, and the group an id names for a caller who may see it: the rule every group
 * operation loads its group by (target.ts), which items' sharing and group lists ask too. Apart
 * from the service so that the group target can use it and the service still offer the target.
 */
import type { Caller } from '../../http/auth.ts';
import { ApiError } from '../../http/errors.ts';
import { seesAllOrgGroups, seesOrgGroups } from '../../http/policies.ts';
import type { Queryable } from '../../store/db.ts';
import { findGroup, type GroupRow } from './repo.ts';

/** Public groups: anyone. Org groups: members of the organization who may view its groups. Private: members; administrators who view all groups. */
export function canSeeGroup(row: GroupRow, caller: Caller | null): boolean {
  if (row.access === 'public') return true;
  if (!caller) return false;
  if (row.my_member_type) return true;
  if (caller.orgId !== row.org_id) return false;
  if (seesAllOrgGroups(caller)) return true;
  return row.access === 'org' && seesOrgGroups(caller);
}

const groupNotFound = (id: string) => new ApiError(400, 'Group does not exist or is inaccessible.', [`Group '${id}' does not exist or is inaccessible.`]);

export async function visibleGroup(q: Queryable, groupId: string, caller: Caller | null): Promise<GroupRow> {
  const row = await findGroup(q, groupId, caller?.userId ?? null);
  if (!row || !canSeeGroup(row, caller)) throw groupNotFound(groupId);
  return row;
}
