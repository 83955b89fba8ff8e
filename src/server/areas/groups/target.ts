/**
 * The group the path's `:groupId` names, as the target of the operations that act on it
 * (http/target.ts). Loading answers 400 "Group does not exist or is inaccessible." for a group the
 * caller cannot see, before any authority is asked, as the area always has; decide() then lets the
 * owner act — and the group's managers where ArcGIS lets them — and anyone else only by the declared
 * authority in the group's organization, with the refusal each operation has always worded.
 */
import type { Target } from '../../http/target.ts';
import type { GroupRow } from './repo.ts';
import { visibleGroup } from './visible.ts';

/**
 * `refusal`: the 403 detail for a caller the authority does not admit (another organization or a
 * missing privilege alike). `managersAct`: the group's managers act as its owner does (update,
 * add and remove members); without it only the owner does (delete, protection, managers).
 */
export function groupTarget(refusal: string, options: { managersAct?: boolean } = {}): Target<GroupRow> {
  return {
    refusals: { otherOrg: refusal, missing: () => refusal },
    async load({ caller, path, portal }) {
      const row = await visibleGroup(portal.db, path.groupId, caller);
      // The row carries the caller's own membership, which is all decide() asks of `managers`.
      const managers = options.managersAct && row.my_member_type === 'admin' ? [caller.userId] : [];
      return { value: row, orgId: row.org_id, ownerId: row.owner_id, managers };
    },
  };
}

/**
 * join and leave act on the caller's own membership of the group (authority `own`): the caller owns
 * it whichever organization the group is in. Loading still refuses a group they cannot see; whether
 * they may join it (their privileges, its membership access) is a membership rule the service keeps.
 */
export const MEMBERSHIP_TARGET: Target<GroupRow> = {
  refusals: { otherOrg: 'Group does not exist or is inaccessible.' },
  async load({ caller, path, portal }) {
    const row = await visibleGroup(portal.db, path.groupId, caller);
    return { value: row, orgId: row.org_id, ownerId: caller.userId };
  },
};
