/** SQL of the ExecuteReport task: the organization's members, items and groups, one row each. */
import type { Queryable } from '../../../store/db.ts';

/** bigint columns (times, sizes) come back as strings from node-postgres. */
type Bigint = number | string;

export interface MemberReportRow {
  username: string;
  full_name: string | null;
  email: string | null;
  role: string | null;
  role_name: string | null;
  disabled: boolean;
  created: Bigint;
  last_login: Bigint | null;
}

export interface ItemReportRow {
  id: string;
  title: string;
  type: string;
  owner: string;
  access: string;
  size: Bigint | null;
  created: Bigint;
  modified: Bigint;
}

export interface GroupReportRow {
  id: string;
  title: string;
  owner: string | null;
  access: string;
  members: number;
  created: Bigint;
}

/** The members with their custom role's name, by username. */
export async function membersReportRows(q: Queryable, orgId: string): Promise<MemberReportRow[]> {
  return q.query<MemberReportRow>(
    `SELECT u.username, u.full_name, u.email, u.role, r.name AS role_name, u.disabled, u.created, u.last_login
         FROM users u LEFT JOIN roles r ON r.org_id = u.org_id AND r.id = u.role_id
        WHERE u.org_id = $1 ORDER BY lower(u.username)`,
    [orgId],
  );
}

/** The items with their owner's username, oldest first. */
export async function itemsReportRows(q: Queryable, orgId: string): Promise<ItemReportRow[]> {
  return q.query<ItemReportRow>(
    `SELECT i.id, i.title, i.type, u.username AS owner, i.access, i.size, i.created, i.modified
         FROM items i JOIN users u ON u.id = i.owner_id WHERE i.org_id = $1 ORDER BY i.created, i.id`,
    [orgId],
  );
}

/** The groups with their owner's username and member count, by title. */
export async function groupsReportRows(q: Queryable, orgId: string): Promise<GroupReportRow[]> {
  return q.query<GroupReportRow>(
    `SELECT g.id, g.title, u.username AS owner, g.access, (SELECT count(*)::int FROM group_members m WHERE m.group_id = g.id) AS members, g.created
       FROM groups g LEFT JOIN users u ON u.id = g.owner_id WHERE g.org_id = $1 ORDER BY lower(g.title), g.id`,
    [orgId],
  );
}
