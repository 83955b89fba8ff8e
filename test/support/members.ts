/**
 * Members and custom roles written straight into a test's database — faster than the operations
 * and free of their rules (a member with any role, a role with any privileges). A member signs in
 * with the demo password: the password hash is copied from user1.
 */
import { randomUUID } from 'node:crypto';
import { baseRoleForPrivileges } from '../../src/shared/privileges.ts';
import type { Db } from '../../src/server/store/db.ts';

const hex = () => randomUUID().replaceAll('-', '');

/** A custom role of `orgId` holding exactly `privileges`; answers its id. */
export async function insertRole(db: Db, orgId: string, privileges: readonly string[], name = `Test role ${hex().slice(0, 8)}`): Promise<string> {
  const id = `r${hex().slice(0, 15)}`;
  await db.query('INSERT INTO roles (org_id, id, name, description, privileges, built_in, created, modified) VALUES ($1, $2, $3, $4, $5, false, 0, 0)', [
    orgId,
    id,
    name,
    '',
    privileges,
  ]);
  return id;
}

/** A member of `orgId` (role `org_user` unless given); answers the member's id. */
export async function insertMember(db: Db, username: string, orgId: string, role = 'org_user', roleId: string | null = null): Promise<string> {
  const id = hex();
  await db.query(
    `INSERT INTO users (id, org_id, username, password_hash, full_name, email, role, role_id, created, modified)
     SELECT $1, $2, $3, password_hash, $3, $4, $5, $6, 0, 0 FROM users WHERE username = 'user1'`,
    [id, orgId, username, `${username}@example.com`, role, roleId],
  );
  return id;
}

/**
 * A member whose custom role holds `privileges`, with the base role ArcGIS shows for such a role
 * (`org_admin` as soon as it holds an administrative privilege); answers the username and role id.
 */
export async function insertCustomRoleMember(
  db: Db,
  orgId: string,
  privileges: readonly string[],
  username = `member.${hex().slice(0, 12)}`,
): Promise<{ username: string; roleId: string }> {
  const roleId = await insertRole(db, orgId, privileges, `Role of ${username}`);
  await insertMember(db, username, orgId, baseRoleForPrivileges(privileges), roleId);
  return { username, roleId };
}
