/** What other areas do to an item's scheduled tasks, inside their own transaction. */
import type { Queryable } from '../../store/db.ts';

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
  const reason = options.reason ?? 'The item was reassigned to another owner; its tasks were deactivated.';
  const rows = await tx.query<{ id: string }>(
    `UPDATE tasks SET active = false, state = 'paused', state_reason = $3, next_run_at = NULL, modified = $4
      WHERE org_id = $1 AND item_id = $2 AND active
      RETURNING id`,
    [orgId, itemId, reason, options.now ?? Date.now()],
  );
  return rows.length;
}
