/**
 * A recycled item at its owner's content path (`content/users/:username/items/:itemId/restore`,
 * `…/canRestore`), as the target of the operations on it (http/target.ts). Loading answers "does not
 * exist" for an item not in the bin, another organization's, or one the path's member does not own;
 * decide() then lets the owner act, and anyone else of the organization only with the declared
 * privilege (RECYCLE_BIN_OPERATIONS), refused with the words the bin has always answered.
 */
import type { Caller } from '../../http/auth.ts';
import type { Authority } from '../../http/authority.ts';
import { decide, type Loaded, type Refusals, type Target } from '../../http/target.ts';
import { itemNotFound } from '../items/service.ts';
import { findRecycled, type RecycledRow } from './repo.ts';

function refusalsOf(authority: Authority): Refusals {
  const refusal = `Only the owner or an administrator (${authority.kind === 'ownerOr' ? authority.privileges.join(', ') : ''}) can restore this item.`;
  return { otherOrg: refusal, missing: () => refusal, notDefaultAdmin: refusal };
}

/** `row` as the item at `username`'s content path, or "does not exist" for the caller. */
function recycledAtPath(row: RecycledRow | undefined, caller: Caller, username: string, itemId: string): Loaded<RecycledRow> {
  if (!row || row.org_id !== caller.orgId || row.owner_username.toLowerCase() !== username.toLowerCase()) throw itemNotFound(itemId);
  return { value: row, orgId: row.org_id, ownerId: row.owner_id };
}

/** The recycled item the path names, decided with the operation's `authority`. */
export function recycledTarget(authority: Authority): Target<RecycledRow> {
  return {
    refusals: refusalsOf(authority),
    async load({ caller, path, portal }) {
      return recycledAtPath(await findRecycled(portal.db, path.itemId), caller, path.username, path.itemId);
    },
  };
}

/**
 * The same target decided where the operation is the item's own `delete` (permanentDelete=true of
 * an item already in the bin, areas/items/manage.ts): whether the bin is concerned is known only once
 * the item is found there, so the bin decides on the row it has locked, as operation() would.
 */
export function authorizedRecycled(row: RecycledRow | undefined, caller: Caller, username: string, itemId: string, authority: Authority): RecycledRow {
  const loaded = recycledAtPath(row, caller, username, itemId);
  decide(authority, caller, loaded, refusalsOf(authority));
  return loaded.value;
}
