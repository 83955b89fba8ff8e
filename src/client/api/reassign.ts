/**
 * Reassigning items: the checks (canReassign, canReassignItems) and the transfers (reassign,
 * reassignItems). A refused target or item comes back as an ApiError with messageCode CONT_0291
 * whose `details` are the blocked items (see blockedItemsOf).
 */
import type { BlockedItem, CanReassignItemsResult, ReassignItemsAnswer } from '../../shared/contract/reassign.ts';
import { LIMITS } from '../../shared/limits.ts';
import { inBatches, type BatchOptions, type BatchOutcome } from './batches.ts';
import { ApiError } from './errors.ts';
import { request } from './request.ts';

export type { BlockedItem, BlockReason, ReassignItemResult, ReassignItemsAnswer } from '../../shared/contract/reassign.ts';
// From its zod-free module: this one's values are zod schemas, not needed before a form is shown.
export { RESERVED_TYPE_KEYWORDS } from '../../shared/typeKeywords.ts';

export const REASSIGN_BLOCKED = 'CONT_0291';

const seg = encodeURIComponent;
const userContent = (username: string) => `content/users/${seg(username)}`;

/** `POST content/users/<owner>/canReassignItems` (at most 100 ids) → {results} when every item may go. */
export function canReassignItems(owner: string, items: readonly string[], targetUsername: string): Promise<CanReassignItemsResult> {
  return request<CanReassignItemsResult>(`${userContent(owner)}/canReassignItems`, { items, targetUsername }, { method: 'POST' });
}

/** `POST content/users/<owner>/reassignItems` (at most 100 ids) → a result per item. */
export function reassignItems(owner: string, items: readonly string[], targetUsername: string, targetFolderName = '/'): Promise<ReassignItemsAnswer> {
  return request<ReassignItemsAnswer>(`${userContent(owner)}/reassignItems`, { items, targetUsername, targetFolderName }, { method: 'POST' });
}

/** Items in one canReassignItems / reassignItems request: the portal refuses more. */
export const ITEMS_PER_REASSIGN_REQUEST = LIMITS.itemsPerReassignRequest;

/** canReassignItems for any number of ids, 100 a request; an outcome per request (a refusal is that request's error). */
export function canReassignItemsInBatches(
  owner: string,
  items: readonly string[],
  targetUsername: string,
  options: BatchOptions = {},
): Promise<BatchOutcome<string, CanReassignItemsResult>[]> {
  return inBatches(items, ITEMS_PER_REASSIGN_REQUEST, (batch) => canReassignItems(owner, batch, targetUsername), options);
}

/** reassignItems for any number of ids, 100 a request; an outcome per request. */
export function reassignItemsInBatches(
  owner: string,
  items: readonly string[],
  targetUsername: string,
  targetFolderName = '/',
  options: BatchOptions = {},
): Promise<BatchOutcome<string, ReassignItemsAnswer>[]> {
  return inBatches(items, ITEMS_PER_REASSIGN_REQUEST, (batch) => reassignItems(owner, batch, targetUsername, targetFolderName), options);
}

/** `POST content/users/<owner>/items/<id>/reassign` → {success, itemId}. */
export function reassignItem(
  owner: string,
  itemId: string,
  targetUsername: string,
  targetFolderName = '/',
): Promise<{ success: boolean; itemId: string; tasksDeactivated?: number }> {
  return request(`${userContent(owner)}/items/${seg(itemId)}/reassign`, { targetUsername, targetFolderName }, { method: 'POST' });
}

/** The blocked items of a CONT_0291 error, or null when the error is something else. */
export function blockedItemsOf(err: unknown): BlockedItem[] | null {
  if (!(err instanceof ApiError) || err.messageCode !== REASSIGN_BLOCKED) return null;
  return err.details.filter((d): d is BlockedItem => !!d && typeof d === 'object' && typeof (d as BlockedItem).itemId === 'string');
}
