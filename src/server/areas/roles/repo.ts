/** SQL for custom roles (the built-in Viewer and Data Editor included). */
import { BUILT_IN_ROLES, type BaseRole } from '../../../shared/privileges.ts';
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

/** The ids of the organization's roles named `name`, case aside (a name is unique in the organization). */
export async function roleIdsNamed(q: Queryable, orgId: string, name: string): Promise<string[]> {
  return (await q.query<{ id: string }>('SELECT id FROM roles WHERE org_id = $1 AND lower(name) = lower($2)', [orgId, name])).map((r) => r.id);
}

/** A new custom role, without privileges; the same name saved twice at once fails (23505, roles_org_name). */
export async function insertCustomRole(q: Queryable, orgId: string, id: string, name: string, description: string, now: number): Promise<void> {
  await q.query(`INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, '{}', false, $5, $5)`, [
    orgId,
    id,
    name,
    description,
    now,
  ]);
}

export async function setRoleNameAndDescription(q: Queryable, orgId: string, roleId: string, name: string, description: string, now: number): Promise<void> {
  await q.query('UPDATE roles SET name = $3, description = $4, modified = $5 WHERE org_id = $1 AND id = $2', [orgId, roleId, name, description, now]);
}

/** Whether the role is the organization's default role for new members. */
export async function isNewMemberDefaultRole(q: Queryable, orgId: string, roleId: string): Promise<boolean> {
  const [defaults] = await q.query('SELECT 1 FROM user_default_settings WHERE org_id = $1 AND role = $2', [orgId, roleId]);
  return Boolean(defaults);
}

export async function setRolePrivileges(q: Queryable, orgId: string, roleId: string, privileges: string[], now: number): Promise<void> {
  await q.query('UPDATE roles SET privileges = $3, modified = $4 WHERE org_id = $1 AND id = $2', [orgId, roleId, privileges, now]);
}

/** The base role (`users.role`) reported for every member holding the custom role. */
export async function setBaseRoleOfHolders(q: Queryable, orgId: string, roleId: string, baseRole: BaseRole, now: number): Promise<void> {
  await q.query('UPDATE users SET role = $3, modified = $4 WHERE org_id = $1 AND role_id = $2', [orgId, roleId, baseRole, now]);
}

/** How many members hold the role. */
export async function countRoleHolders(q: Queryable, orgId: string, roleId: string): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*) AS n FROM users WHERE org_id = $1 AND role_id = $2', [orgId, roleId]);
  return n;
}

export async function deleteRoleRecord(q: Queryable, orgId: string, roleId: string): Promise<void> {
  await q.query('DELETE FROM roles WHERE org_id = $1 AND id = $2', [orgId, roleId]);
}
