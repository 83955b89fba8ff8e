/** What other areas do to an item's scheduled tasks, inside their own transaction. */
import type { Queryable } from '../../store/db.ts';
import { pauseActiveTasksOfItems } from './repo.ts';

export interface DeactivateOptions {
  /** Why the tasks stopped, shown with each task (default: the item was reassigned). */
  reason?: string;
  now?: number;
}

/**
 * Deactivate every active task of an item (reassigning an item deactivates its tasks: the new
 * owner must review and re-enable them). Returns how many were deactivated; each keeps the reason.
 */
export async function deactivateItemTasks(tx: Queryable, orgId: string, itemId: string, options: DeactivateOptions = {}): Promise<number> {
  return (await deactivateTasksOfItems(tx, orgId, [itemId], options)).get(itemId) ?? 0;
}

/** The same for several items in one statement: how many tasks each item had deactivated (absent: none). */
export async function deactivateTasksOfItems(
  tx: Queryable,
  orgId: string,
  itemIds: readonly string[],
  options: DeactivateOptions = {},
): Promise<Map<string, number>> {
  const reason = options.reason ?? 'The item was reassigned to another owner; its tasks were deactivated.';
  const paused = await pauseActiveTasksOfItems(tx, orgId, itemIds, reason, options.now ?? Date.now());
  const counts = new Map<string, number>();
  for (const itemId of paused) counts.set(itemId, (counts.get(itemId) ?? 0) + 1);
  return counts;
}
