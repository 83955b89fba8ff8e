/**
 * Transferring items, without React: the pre-check and the run (the API sends them in requests of
 * at most 100 items, the service's limit), an outcome per item, and the fix to suggest for each
 * reason an item is refused. Shared by the transfer wizard and the undo of a transfer (the same pre-check for both).
 */
import { dependencyKeys } from '../api/queries/dependencies.ts';
import { itemKeys } from '../api/queries/items.ts';
import { blockedItemsOf, canReassignItemsInBatches, describeError, reassignItemsInBatches, type BlockedItem, type BlockReason } from '../api/index.ts';

/** What any transfer of items makes stale (the wizard's and the delete-member plan's). */
export const TRANSFER_INVALIDATES = [
  // Owners (and a sharing the new owner could not keep) show in the dependency answers: in the background, as a browser graph rebuilds.
  { queryKey: dependencyKeys.all, background: true },
  itemKeys.all,
];

/**
 * The transfer wizard's address for some of one owner's items (ticked in Content, or the item
 * page's "Change owner"): pages reach the wizard through the router, never by importing it.
 */
export function transferItemsHref(owner: string, itemIds: readonly string[]): string {
  return `/content/transfer?from=${encodeURIComponent(owner)}&items=${itemIds.map(encodeURIComponent).join(',')}`;
}

export type CheckOutcome =
  { itemId: string; status: 'ok' } | { itemId: string; status: 'blocked'; blocked: BlockedItem } | { itemId: string; status: 'error'; message: string };

/** canReassignItems for every id; a request that fails outright marks its items as not checked. */
export async function precheck(owner: string, ids: readonly string[], target: string, onProgress: (done: number) => void): Promise<CheckOutcome[]> {
  const batches = await canReassignItemsInBatches(owner, ids, target, { onProgress: (p) => (p.batchesDone ? onProgress(p.done) : undefined) });
  return batches.flatMap(({ item: batch, ...answer }): CheckOutcome[] => {
    if (answer.ok) return batch.map((itemId) => ({ itemId, status: 'ok' }));
    const blocked = blockedItemsOf(answer.error);
    if (!blocked) return batch.map((itemId) => ({ itemId, status: 'error', message: describeError(answer.error) }));
    const byId = new Map(blocked.map((b) => [b.itemId, b]));
    return batch.map((itemId) => (byId.has(itemId) ? { itemId, status: 'blocked', blocked: byId.get(itemId)! } : { itemId, status: 'ok' }));
  });
}

export interface RunOutcome {
  itemId: string;
  ok: boolean;
  message?: string;
  tasksDeactivated: number;
  unsharedFrom: string[];
}

/** reassignItems for every id; each item answers for itself. */
export async function runTransfer(
  owner: string,
  ids: readonly string[],
  target: string,
  folder: string,
  onProgress: (done: number) => void,
): Promise<RunOutcome[]> {
  const batches = await reassignItemsInBatches(owner, ids, target, folder, { onProgress: (p) => (p.batchesDone ? onProgress(p.done) : undefined) });
  return batches.flatMap(({ item: batch, ...answer }): RunOutcome[] => {
    if (!answer.ok) return batch.map((itemId) => ({ itemId, ok: false, message: describeError(answer.error), tasksDeactivated: 0, unsharedFrom: [] }));
    const byId = new Map(answer.value.results.map((r) => [r.itemId, r]));
    return batch.map((itemId) => {
      const r = byId.get(itemId);
      if (r?.success) return { itemId, ok: true, tasksDeactivated: r.tasksDeactivated ?? 0, unsharedFrom: r.unsharedFrom ?? [] };
      return {
        itemId,
        ok: false,
        message: r?.error?.details?.[0]?.reason ?? r?.error?.message ?? 'The service did not answer for this item.',
        tasksDeactivated: 0,
        unsharedFrom: [],
      };
    });
  });
}

export interface Fix {
  text: string;
  /** A console page where the fix is made. */
  href?: string;
}

/** What to do about one reason an item was refused. */
export function fixFor(reason: { code: BlockReason; groupId?: string; groupTitle?: string; relatedItemId?: string }, target: string): Fix {
  switch (reason.code) {
    case 'targetNotInGroup':
      return {
        text: `Add ${target} to the group “${reason.groupTitle}”, or unshare the item from it.`,
        href: reason.groupId ? `/groups/${reason.groupId}` : undefined,
      };
    case 'targetNotGroupManager':
      return {
        text: `Make ${target} a manager of the view-only group “${reason.groupTitle}”.`,
        href: reason.groupId ? `/groups/${reason.groupId}` : undefined,
      };
    case 'targetCannotReceive':
      return { text: `Give ${target} a role that may receive content (Members → Change role).`, href: `/members?q=${encodeURIComponent(target)}` };
    case 'targetCannotOwn':
      return { text: `Give ${target} a role that may create content (Members → Change role).`, href: `/members?q=${encodeURIComponent(target)}` };
    case 'targetOtherOrg':
      return { text: 'Pick a member of this organization.' };
    case 'targetDisabled':
      return { text: `Enable ${target}'s account, or pick another member.` };
    case 'targetIsOwner':
      return { text: 'Pick another member than the owner.' };
    case 'relatedItemStays':
      return { text: `Transfer the related item ${reason.relatedItemId ?? ''} in the same run (select both).`.replace('  ', ' ') };
    case 'viewOfView':
      return { text: 'A view of a view stays with its owner: create the view again from the source layer as the new owner.' };
    case 'itemNotReady':
      return { text: 'Wait until the upload or processing has finished, then check again.' };
    case 'itemNotFound':
      return { text: 'The item is gone or already has another owner: check again to refresh.' };
  }
}
