/**
 * The member named in the path, whose items a transfer moves, as the target of the reassign
 * operations (http/target.ts). Loading answers the usual 400 for a member that does not exist,
 * before any authority is asked, as the area always has. decide() then admits an administrator of
 * the member's organization holding portal:admin:reassignItems (their own items included), and the
 * member themself with portal:user:reassignItems (REASSIGN_OPERATIONS), with the refusals the area
 * has always worded.
 */
import type { Target } from '../../http/target.ts';
import { pathMemberTarget, type UserRow } from '../users/service.ts';

const NOT_AN_ADMINISTRATOR = "Only an administrator of the owner's organization with portal:admin:reassignItems can transfer another member's content.";

export const ITEMS_OWNER: Target<UserRow> = pathMemberTarget({
  otherOrg: NOT_AN_ADMINISTRATOR,
  missing: () => NOT_AN_ADMINISTRATOR,
  ownerLacks: (privilege) => `Requires the privilege ${privilege} to transfer your own content.`,
});
