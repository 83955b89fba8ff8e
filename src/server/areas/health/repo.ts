/** The health check's one statement. */
import type { Queryable } from '../../store/db.ts';

/** Resolves when the database answers a trivial statement; rejects when it cannot. */
export async function pingDatabase(q: Queryable): Promise<void> {
  await q.query('SELECT 1');
}
