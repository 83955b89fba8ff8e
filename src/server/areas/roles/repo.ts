/** SQL for custom roles (the built-in Viewer and Data Editor included). */
import { BUILT_IN_ROLES } from '../../../shared/privileges.ts';
import type { Queryable } from '../../store/db.ts';

export interface RoleRow {
  org_id: string;
  id: string;
  name: string;
  description: string;
  privileges: string[];
  built_in: boolean;
  created: number;
  modified: number;
}

export async function findRole(q: Queryable, orgId: string, roleId: string): Promise<RoleRow | undefined> {
  const [row] = await q.query<RoleRow>('SELECT * FROM roles WHERE org_id = $1 AND id = $2', [orgId, roleId]);
  return row;
}

/** Every organization gets the built-in roles when it is created. */
export async function insertBuiltInRoles(q: Queryable, orgId: string, now: number): Promise<void> {
  for (const role of BUILT_IN_ROLES) {
    await q.query(
      `INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified)
       VALUES ($1, $2, $3, $4, $5, true, $6, $6)`,
      [orgId, role.id, role.name, role.description, [...role.privileges], now],
    );
  }
}

export async function listRolesPage(
  q: Queryable,
  orgId: string,
  offset: number,
  limit: number,
): Promise<{ total: number; rows: (RoleRow & { member_count: number })[] }> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*) AS n FROM roles WHERE org_id = $1', [orgId]);
  const rows = await q.query<RoleRow & { member_count: number }>(
    `SELECT r.*, (SELECT count(*) FROM users u WHERE u.org_id = r.org_id AND u.role_id = r.id) AS member_count
       FROM roles r WHERE r.org_id = $1
      ORDER BY r.built_in DESC, lower(r.name), r.id
      LIMIT ${limit} OFFSET ${offset}`,
    [orgId],
  );
  return { total: n, rows };
}
