/**
 * Upkeep of the embedded database, which has no autovacuum and no checkpointer of its own (the
 * retention sweep runs these after its passes; jobs/retention.ts says when). Below every area: the
 * tables named are whichever the sweeps removed rows from.
 */
import type { Db } from './dbInterface.ts';

/** VACUUM (ANALYZE) of `tables`, or of the whole database when none are named. */
export async function vacuumAnalyze(db: Db, tables?: readonly string[]): Promise<void> {
  if (!tables) await db.exec('VACUUM (ANALYZE)');
  else await db.exec(`VACUUM (ANALYZE) ${tables.join(', ')}`);
}

/** A checkpoint, so the write-ahead log is recycled instead of growing to max_wal_size. */
export async function checkpoint(db: Db): Promise<void> {
  await db.exec('CHECKPOINT');
}
