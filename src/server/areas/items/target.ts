/**
 * What a member's content paths (content/users/<u>, …/<folderId>, …/items/<id>) act on, as their
 * operations' targets (http/target.ts): decided with ITEM_OPERATIONS, the owner acting on their own
 * and an administrator of their organization holding portal:admin:viewItems on anyone's. Loading
 * answers the area's 400s (no such member; an item the caller cannot see or that is not the path
 * member's) before any authority is asked, and each refusal keeps the area's words.
 */
import type { Target } from '../../http/target.ts';
import { pathMemberTarget, type UserRow } from '../users/service.ts';
import { itemNotFound, visibleItem } from './access.ts';
import type { ItemRow } from './repo.ts';

const NOT_THEIR_CONTENT = "Only the owner or an administrator (portal:admin:viewItems) can list a member's content.";
const NOT_THEIR_ITEM = "Only the owner or an administrator (portal:admin:viewItems) can read an item's sharing.";

/** The member whose content the path lists. */
export const CONTENT_OWNER: Target<UserRow> = pathMemberTarget({ otherOrg: NOT_THEIR_CONTENT, missing: () => NOT_THEIR_CONTENT });

/** The path member's item whose record and sharing the path reads. */
export const MEMBER_ITEM: Target<ItemRow> = {
  refusals: { otherOrg: NOT_THEIR_ITEM, missing: () => NOT_THEIR_ITEM },
  async load({ caller, path, portal }) {
    const row = await visibleItem(portal.db, path.itemId, caller);
    if (row.owner_username.toLowerCase() !== path.username.toLowerCase()) throw itemNotFound(path.itemId);
    return { value: row, orgId: row.org_id, ownerId: row.owner_id };
  },
};
