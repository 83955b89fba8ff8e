/** SQL for organizations. */
import type { Queryable } from '../../store/db.ts';

export interface OrgRow {
  id: string;
  name: string;
  url_key: string;
  description: string;
  access: 'private' | 'public';
  is_verified: boolean;
  settings: Record<string, unknown>;
  created: number;
  modified: number;
}

export async function findOrg(q: Queryable, id: string): Promise<OrgRow | undefined> {
  const [row] = await q.query<OrgRow>('SELECT * FROM organizations WHERE id = $1', [id]);
  return row;
}

/** The organization anonymous callers see at `portals/self`: the first one created. */
export async function defaultOrg(q: Queryable): Promise<OrgRow | undefined> {
  const [row] = await q.query<OrgRow>('SELECT * FROM organizations ORDER BY created, id LIMIT 1');
  return row;
}

export async function insertOrg(q: Queryable, org: { id: string; name: string; urlKey: string; description?: string; now: number }): Promise<void> {
  await q.query(`INSERT INTO organizations (id, name, url_key, description, created, modified) VALUES ($1, $2, $3, $4, $5, $5)`, [
    org.id,
    org.name,
    org.urlKey,
    org.description ?? '',
    org.now,
  ]);
}

/**
 * First start: several processes may start together on one PostgreSQL, and one of them creates the
 * first organizations. Held until the transaction ends.
 */
export async function lockFirstStartSeeding(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(727275)');
}

/** How many organizations there are (none before the first start has seeded). */
export async function countOrgs(q: Queryable): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*) AS n FROM organizations');
  return n;
}

/** Writes an organization's editable fields (settings as a whole object). */
export async function updateOrg(
  q: Queryable,
  org: Pick<OrgRow, 'id' | 'name' | 'description' | 'access' | 'settings' | 'is_verified'>,
  now: number,
): Promise<void> {
  await q.query('UPDATE organizations SET name = $2, description = $3, access = $4, settings = $5, modified = $6, is_verified = $7 WHERE id = $1', [
    org.id,
    org.name,
    org.description,
    org.access,
    JSON.stringify(org.settings),
    now,
    org.is_verified,
  ]);
}
