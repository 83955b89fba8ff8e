/**
 * Scheduled tasks of a transferred item are deactivated with the transfer (issue: "deactivates
 * the item's scheduled tasks if any exist"). Scheduled tasks are not stored by this service yet,
 * so an item has none to deactivate; this is the one place the transfer asks.
 */
import type { Queryable } from '../../store/db.ts';

export async function deactivateTasksOf(_q: Queryable, _orgId: string, _itemId: string): Promise<number> {
  return 0;
}
