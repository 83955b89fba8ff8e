/**
 * How many items of an organization have each dependent count (migration 024's
 * item_dependent_tally): the organization view's `total` without counting its rows. The table
 * holds signed additions, one row per statement and count it changed (no counter row that every
 * writer of an organization would wait on); reading sums them, and folding replaces an
 * organization's rows by one per count when they have piled up.
 */
import type { Db } from '../../store/db.ts';
import { foldTallyRows, tallyOfDependents, vacuumTally } from './repo.ts';

/** Rows summed for one answer above which they are folded first: a sum of a few hundred rows stays a small read. */
const FOLD_ABOVE = 500;

/**
 * Folds the additions of `orgId` (every organization: null) into one row per count, in one
 * statement (atomic to readers). Not inside a transaction: the embedded database then vacuums the
 * table, as it has no autovacuum and a sum would otherwise still step over every folded row's index entry.
 */
export async function foldTally(db: Db, orgId: string | null): Promise<void> {
  await foldTallyRows(db, orgId);
  if (db.kind === 'pglite') await vacuumTally(db);
}

/** How many items of `orgId` have `dependents` in [min, max] (max null: no upper bound), the open uploads included. */
export async function itemsWithDependents(db: Db, orgId: string, min: number, max: number | null): Promise<number> {
  const first = await tallyOfDependents(db, orgId, min, max);
  // Folded for the next reader: this sum is already exact.
  if (first.rows > FOLD_ABOVE) await foldTally(db, orgId);
  return first.total;
}
