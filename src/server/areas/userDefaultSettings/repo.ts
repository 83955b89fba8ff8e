/** SQL for an organization's new-member defaults. */
import type { UserDefaultSettings } from '../../../shared/contract/userDefaultSettings.ts';
import type { Queryable } from '../../store/db.ts';

export interface DefaultsRow {
  role: string | null;
  user_license_type: string | null;
  groups: string[];
  user_type: 'arcgisonly' | 'both' | null;
  apps: UserDefaultSettings['apps'];
  app_bundles: UserDefaultSettings['appBundles'];
}

export async function findDefaultsRow(q: Queryable, orgId: string): Promise<DefaultsRow | undefined> {
  const [row] = await q.query<DefaultsRow>('SELECT * FROM user_default_settings WHERE org_id = $1', [orgId]);
  return row;
}

/** Which of `groupIds` are groups of organization `orgId`. */
export async function orgGroupIdsAmong(q: Queryable, orgId: string, groupIds: string[]): Promise<Set<string>> {
  const rows = await q.query<{ id: string }>('SELECT id FROM groups WHERE org_id = $1 AND id = ANY($2::text[])', [orgId, groupIds]);
  return new Set(rows.map((r) => r.id));
}

/** The groups among `groupIds` that `userId` neither owns nor manages, by id. */
export async function groupsNotManagedBy(q: Queryable, groupIds: string[], userId: string): Promise<{ id: string; title: string }[]> {
  return q.query<{ id: string; title: string }>(
    `SELECT g.id, g.title FROM groups g
      WHERE g.id = ANY($1::text[])
        AND NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = $2 AND m.member_type IN ('owner', 'admin'))
      ORDER BY g.id`,
    [groupIds, userId],
  );
}

/** Writes organization `orgId`'s defaults, replacing any there were. */
export async function upsertDefaults(q: Queryable, orgId: string, d: UserDefaultSettings, now: number): Promise<void> {
  await q.query(
    `INSERT INTO user_default_settings (org_id, role, user_license_type, groups, user_type, apps, app_bundles, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (org_id) DO UPDATE SET role = $2, user_license_type = $3, groups = $4, user_type = $5, apps = $6, app_bundles = $7, modified = $8`,
    [orgId, d.role, d.userLicenseType, d.groups, d.userType, JSON.stringify(d.apps), JSON.stringify(d.appBundles), now],
  );
}

export async function deleteDefaultsRow(q: Queryable, orgId: string): Promise<void> {
  await q.query('DELETE FROM user_default_settings WHERE org_id = $1', [orgId]);
}
