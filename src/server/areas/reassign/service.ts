/**
 * Transferring items to another member (spec §4.5, §4.8, §5; facts §3.4, §3.7): one function per
 * operation (Reassign Item, Can Reassign Item, Can Reassign Items, Reassign Items), the area's
 * whole surface. Who may call them is declared (REASSIGN_OPERATIONS) and decided by the routes'
 * target, ITEMS_OWNER, before these run: an administrator of the owner's organization holding
 * portal:admin:reassignItems, or the owner with portal:user:reassignItems.
 *
 * A transfer (transfer.ts), in one transaction with the item rows locked: the new owner and folder
 * ("/" the root; a folder that does not exist is created), the sharing the target may keep (group
 * shares always — eligibility requires them; organization or public access only with the target's
 * shareToOrg / shareToPublic, otherwise narrowed and an unshare event written), relationships the
 * previous owner created pass to the new owner (so they can manage them), the item's scheduled
 * tasks are deactivated, and the ownership-reassigned event with `reassignedTo`. An item is moved
 * whole or not at all.
 */
import { MESSAGE_CODES } from '../../../shared/contract/errors.ts';
import type { BlockedItem, ReassignItemResult } from '../../../shared/contract/reassign.ts';
import type { PortalContext } from '../../context.ts';
import type { Caller } from '../../http/auth.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import type { Queryable } from '../../store/db.ts';
import { itemNotFound } from '../items/service.ts';
import { findUser, type UserRow } from '../users/service.ts';
import { evaluateItems } from './eligibility.ts';
import { refusedDetails, transferItems, type Moved, type Parties } from './transfer.ts';

/**
 * The owner named in the path (authorized by the operation's target, ITEMS_OWNER) and the member
 * named to receive their items.
 */
async function transferParties(q: Queryable, source: UserRow, targetUsername: string): Promise<Parties> {
  const target = await findUser(q, targetUsername);
  if (!target) throw badParam('targetUsername', `names no member ('${targetUsername}')`, `User '${targetUsername}' does not exist or is inaccessible.`);
  if (target.id === source.id) throw badParam('targetUsername', `must differ from the current owner ('${source.username}')`);
  return { source, target };
}

/** The CONT_0291 error (spec §4.5, §7): one detail per refused item. */
function reassignRefused(blocked: BlockedItem[]): ApiError {
  const first = blocked[0];
  const message =
    blocked.length === 1
      ? `The item '${first.itemId}' cannot be reassigned to the target user: ${first.reason}`
      : `${blocked.length} items cannot be reassigned to the target user.`;
  return new ApiError(403, message, blocked, MESSAGE_CODES.reassignBlocked);
}

/** One item addressed in the path: a missing one is the usual 400 CONT_0001; a refused one CONT_0291. */
function singleRefusal(blocked: BlockedItem) {
  return blocked.reasons.length === 1 && blocked.reasons[0].code === 'itemNotFound' ? itemNotFound(blocked.itemId) : reassignRefused([blocked]);
}

/** What a transfer is asked: the owner in the path (already authorized), the new owner, and where to. */
export interface TransferRequest {
  source: UserRow;
  targetUsername: string;
  targetFolderName: string;
}

/** The local extras of a moved item's answer: its tasks deactivated and the sharing narrowed. */
const movedExtras = (m: Moved) => ({ tasksDeactivated: m.tasksDeactivated, ...(m.unsharedFrom.length ? { unsharedFrom: m.unsharedFrom } : {}) });

/** Reassign Item: `{success, itemId}`, or the item's 400 / CONT_0291. */
export async function reassignItem(ctx: PortalContext, caller: Caller, request: TransferRequest, itemId: string) {
  const parties = await transferParties(ctx.db, request.source, request.targetUsername);
  const { moved, refused } = await transferItems(ctx, caller, parties, [itemId], request.targetFolderName);
  if (refused.length) throw singleRefusal(refused[0]);
  return { success: true, itemId, ...movedExtras(moved[0]) };
}

/** Can Reassign Item: `{success:true, itemId}`, or the errors Reassign Item would give; nothing changes. */
export async function canReassignItem(ctx: PortalContext, source: UserRow, targetUsername: string, itemId: string) {
  const parties = await transferParties(ctx.db, source, targetUsername);
  const refused = refusedDetails(await evaluateItems(ctx.db, parties.source, parties.target, [itemId]), parties.source);
  if (refused.length) throw singleRefusal(refused[0]);
  return { success: true, itemId };
}

/** Can Reassign Items: every item may go, or 403 CONT_0291 with one detail per refused item. */
export async function canReassignItems(ctx: PortalContext, source: UserRow, targetUsername: string, itemIds: readonly string[]) {
  const parties = await transferParties(ctx.db, source, targetUsername);
  const evaluations = await evaluateItems(ctx.db, parties.source, parties.target, itemIds);
  const refused = refusedDetails(evaluations, parties.source);
  if (refused.length) throw reassignRefused(refused);
  return { results: evaluations.map((e) => ({ itemId: e.itemId, success: true })) };
}

/** Reassign Items: every eligible item moves; a refused item's entry carries its CONT_0291 error. */
export async function reassignItems(ctx: PortalContext, caller: Caller, request: TransferRequest, itemIds: readonly string[]) {
  const parties = await transferParties(ctx.db, request.source, request.targetUsername);
  const { moved, refused } = await transferItems(ctx, caller, parties, itemIds, request.targetFolderName);
  const movedById = new Map(moved.map((m) => [m.itemId, m]));
  const refusedById = new Map(refused.map((r) => [r.itemId, r]));
  const results: ReassignItemResult[] = [...new Set(itemIds)].map((itemId) => {
    const m = movedById.get(itemId);
    if (m) return { itemId, success: true, ...movedExtras(m) };
    const blocked = refusedById.get(itemId)!;
    const err = reassignRefused([blocked]).toBody();
    return { itemId, success: false, error: { code: err.code, messageCode: err.messageCode, message: err.message, details: [blocked] } };
  });
  return { results };
}
