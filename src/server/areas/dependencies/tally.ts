/**
 * How many items of an organization have each dependent count (migration 024's
 * item_dependent_tally): the organization view's `total` without counting its rows. The table
 * holds signed additions, one row per statement and count it changed (no counter row that every
 * writer of an organization would wait on); reading sums them, and folding replaces an
 * organization's rows by one per count when they have piled up.
 */
import type { Db } from '../../store/db.ts';

/** Rows summed for one answer above which they are folded first: a sum of a few hundred rows stays a small read. */
const FOLD_ABOVE = 500;

/**
 * Folds the additions of `orgId` (every organization: null) into one row per count, in one
 * statement (atomic to readers). Not inside a transaction: the embedded database then vacuums the
 * table, as it has no autovacuum and a sum would otherwise still step over every folded row's index entry.
 */
export async function foldTally(db: Db, orgId: string | null): Promise<void> {
  // Rows another writer adds meanwhile are not in this statement's snapshot: they stay, and still count.
  await db.query(
    `WITH gone AS (DELETE FROM item_dependent_tally WHERE $1::text IS NULL OR org_id = $1 RETURNING org_id, dependents, items)
     INSERT INTO item_dependent_tally (org_id, dependents, items)
     SELECT org_id, dependents, sum(items) FROM gone GROUP BY org_id, dependents HAVING sum(items) <> 0`,
    [orgId],
  );
  if (db.kind === 'pglite') await db.exec('VACUUM item_dependent_tally');
}

/** How many items of `orgId` have `dependents` in [min, max] (max null: no upper bound), the open uploads included. */
export async function itemsWithDependents(db: Db, orgId: string, min: number, max: number | null): Promise<number> {
  const [first] = await db.query<{ total: number; rows: number }>(
    `SELECT COALESCE(sum(items), 0)::int AS total, count(*)::int AS rows FROM item_dependent_tally
      WHERE org_id = $1 AND dependents >= $2 AND ($3::int IS NULL OR dependents <= $3)`,
    [orgId, min, max],
  );
  // Folded for the next reader: this sum is already exact.
  if (first.rows > FOLD_ABOVE) await foldTally(db, orgId);
  return first.total;
}
