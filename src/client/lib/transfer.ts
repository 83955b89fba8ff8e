/**
 * Transferring items, without React: the pre-check and the run, each in batches of at most 100
 * items (the service's limit per request), and the fix to suggest for each reason an item is
 * refused. Shared by the transfer wizard and the undo of a transfer (the same pre-check for both).
 */
import { blockedItemsOf, canReassignItems, describeError, reassignItems, type BlockedItem, type BlockReason } from '../api/index.ts';
import { LIMITS } from '../../shared/limits.ts';

export const BATCH = LIMITS.itemsPerReassignRequest;

/**
 * The transfer wizard's address for some of one owner's items (ticked in Content, or the item
 * page's "Change owner"): pages reach the wizard through the router, never by importing it.
 */
export function transferItemsHref(owner: string, itemIds: readonly string[]): string {
  return `/content/transfer?from=${encodeURIComponent(owner)}&items=${itemIds.map(encodeURIComponent).join(',')}`;
}

export function batches<T>(all: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

export type CheckOutcome =
  { itemId: string; status: 'ok' } | { itemId: string; status: 'blocked'; blocked: BlockedItem } | { itemId: string; status: 'error'; message: string };

/** canReassignItems for every id, 100 at a time; a batch that fails outright marks its items as not checked. */
export async function precheck(owner: string, ids: readonly string[], target: string, onProgress: (done: number) => void): Promise<CheckOutcome[]> {
  const out: CheckOutcome[] = [];
  for (const batch of batches(ids)) {
    try {
      await canReassignItems(owner, batch, target);
      out.push(...batch.map((itemId) => ({ itemId, status: 'ok' as const })));
    } catch (err) {
      const blocked = blockedItemsOf(err);
      if (!blocked) {
        out.push(...batch.map((itemId) => ({ itemId, status: 'error' as const, message: describeError(err) })));
      } else {
        const byId = new Map(blocked.map((b) => [b.itemId, b]));
        out.push(
          ...batch.map((itemId): CheckOutcome => (byId.has(itemId) ? { itemId, status: 'blocked', blocked: byId.get(itemId)! } : { itemId, status: 'ok' })),
        );
      }
    }
    onProgress(out.length);
  }
  return out;
}

export interface RunOutcome {
  itemId: string;
  ok: boolean;
  message?: string;
  tasksDeactivated: number;
  unsharedFrom: string[];
}

/** reassignItems for every id, 100 at a time; each item answers for itself. */
export async function runTransfer(
  owner: string,
  ids: readonly string[],
  target: string,
  folder: string,
  onProgress: (done: number) => void,
): Promise<RunOutcome[]> {
  const out: RunOutcome[] = [];
  for (const batch of batches(ids)) {
    try {
      const { results } = await reassignItems(owner, batch, target, folder);
      const byId = new Map(results.map((r) => [r.itemId, r]));
      for (const itemId of batch) {
        const r = byId.get(itemId);
        if (r?.success) out.push({ itemId, ok: true, tasksDeactivated: r.tasksDeactivated ?? 0, unsharedFrom: r.unsharedFrom ?? [] });
        else
          out.push({
            itemId,
            ok: false,
            message: r?.error?.details?.[0]?.reason ?? r?.error?.message ?? 'The service did not answer for this item.',
            tasksDeactivated: 0,
            unsharedFrom: [],
          });
      }
    } catch (err) {
      out.push(...batch.map((itemId) => ({ itemId, ok: false, message: describeError(err), tasksDeactivated: 0, unsharedFrom: [] })));
    }
    onProgress(out.length);
  }
  return out;
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
