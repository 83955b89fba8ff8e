/** SQL for members. */
import { recordEvent } from '../../store/events.ts';
import type { BaseRole } from '../../../shared/privileges.ts';
import { likePattern } from '../../http/search-query.ts';
import type { Db, Queryable } from '../../store/db.ts';

export interface UserRow {
  id: string;
  org_id: string;
  username: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  description: string | null;
  role: BaseRole;
  role_id: string | null;
  role_privileges: string[] | null;
  user_license_type_id: string;
  user_type: 'arcgisonly' | 'both';
  disabled: boolean;
  tags: string[];
  access: 'private' | 'org' | 'public';
  culture: string | null;
  region: string | null;
  units: 'english' | 'metric';
  preferred_view: string | null;
  last_login: number;
  created: number;
  modified: number;
}

const SELECT_USER = `
  SELECT u.*, r.privileges AS role_privileges
    FROM users u
    LEFT JOIN roles r ON r.org_id = u.org_id AND r.id = u.role_id`;

/** Exact, case-sensitive match: the name a member signs in with. */
export async function findUserForSignIn(q: Queryable, username: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(`${SELECT_USER} WHERE u.username = $1`, [username]);
  return row;
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(`${SELECT_USER} WHERE u.id = $1`, [id]);
  return row;
}

/** Case-insensitive lookup, as URLs name members. */
export async function findUser(q: Queryable, username: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(`${SELECT_USER} WHERE lower(u.username) = lower($1)`, [username]);
  return row;
}

/** A member's row as a token names it: with the token's expiry and binding (http/auth.ts resolves every request's caller from it). */
export type CallerRow = UserRow & { token_expires: number; token_client: string | null; token_referer: string | null };

/** One prepared statement per request: the token, its member and the member's custom role. */
const RESOLVE_CALLER = `
  SELECT u.*, r.privileges AS role_privileges, t.expires AS token_expires, t.client AS token_client, t.referer AS token_referer
    FROM tokens t
    JOIN users u ON u.id = t.user_id
    LEFT JOIN roles r ON r.org_id = u.org_id AND r.id = u.role_id
   WHERE t.token_hash = $1`;

/**
 * The member named by the token with this hash. A named prepared statement, so a request only binds
 * the hash; the embedded database keeps the answer until the next write (Db.queryPrepared): the
 * row must not be mutated.
 */
export async function callerRowOfToken(db: Db, hash: string): Promise<CallerRow | undefined> {
  const [row] = await db.queryPrepared<CallerRow>('resolve_caller', RESOLVE_CALLER, [hash]);
  return row;
}

/** The username of the organization's member with this id (a path naming a member by id: http/userPath.ts). */
export async function orgMemberUsernameById(q: Queryable, id: string, orgId: string): Promise<string | undefined> {
  const rows = await q.query<{ username: string }>('SELECT username FROM users WHERE id = $1 AND org_id = $2', [id, orgId]);
  return rows[0]?.username;
}

/** The username, as stored, of the organization's member with this username in any case (http/userPath.ts). */
export async function orgMemberUsernameByName(q: Queryable, username: string, orgId: string): Promise<string | undefined> {
  const rows = await q.query<{ username: string }>('SELECT username FROM users WHERE lower(username) = lower($1) AND org_id = $2', [username, orgId]);
  return rows[0]?.username;
}

export async function usernameTaken(q: Queryable, username: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [username]);
  return rows.length > 0;
}

export interface NewUser {
  id: string;
  orgId: string;
  username: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  description: string | null;
  role: BaseRole;
  roleId: string | null;
  userLicenseTypeId: string;
  userType: 'arcgisonly' | 'both';
  now: number;
}

export async function insertUser(q: Queryable, u: NewUser): Promise<void> {
  await q.query(
    `INSERT INTO users (id, org_id, username, password_hash, first_name, last_name, full_name, email, description,
                        role, role_id, user_license_type_id, user_type, created, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
    [
      u.id,
      u.orgId,
      u.username,
      u.passwordHash,
      u.firstName,
      u.lastName,
      u.fullName,
      u.email,
      u.description,
      u.role,
      u.roleId,
      u.userLicenseTypeId,
      u.userType,
      u.now,
    ],
  );
}

export async function setUserRole(q: Queryable, userId: string, role: BaseRole, roleId: string | null, now: number): Promise<void> {
  await q.query('UPDATE users SET role = $2, role_id = $3, modified = $4 WHERE id = $1', [userId, role, roleId, now]);
}

/** The profile columns Update User sets (update.ts), by column name. */
export const PROFILE_COLUMNS = [
  'full_name',
  'first_name',
  'last_name',
  'description',
  'tags',
  'access',
  'culture',
  'region',
  'units',
  'preferred_view',
] as const;
export type ProfileColumn = (typeof PROFILE_COLUMNS)[number];

/** Sets the given profile columns (names from PROFILE_COLUMNS only: they are written into the statement). */
export async function setUserProfile(q: Queryable, userId: string, values: Partial<Record<ProfileColumn, unknown>>, now: number): Promise<void> {
  const columns = Object.keys(values).filter((c): c is ProfileColumn => (PROFILE_COLUMNS as readonly string[]).includes(c));
  if (!columns.length) return;
  const sets = columns.map((c, i) => `${c} = $${i + 3}`);
  await q.query(`UPDATE users SET ${sets.join(', ')}, modified = $2 WHERE id = $1`, [userId, now, ...columns.map((c) => values[c])]);
}

/** A new password hash; every session the member held ends with the old password (access and refresh tokens). */
export async function setUserPassword(q: Queryable, userId: string, passwordHash: string, now: number): Promise<void> {
  await q.query('UPDATE users SET password_hash = $2, modified = $3 WHERE id = $1', [userId, passwordHash, now]);
  await q.query('DELETE FROM tokens WHERE user_id = $1', [userId]);
  await q.query('DELETE FROM oauth_refresh_tokens WHERE user_id = $1', [userId]);
}

export async function setUserLicenseType(q: Queryable, userId: string, licenseType: string, now: number): Promise<void> {
  await q.query('UPDATE users SET user_license_type_id = $2, modified = $3 WHERE id = $1', [userId, licenseType, now]);
}

/** Removes the account; what only it used (tokens, memberships, folders, tasks) goes with it by ON DELETE CASCADE. */
export async function deleteUserRow(q: Queryable, userId: string): Promise<void> {
  await q.query('DELETE FROM users WHERE id = $1', [userId]);
}

/**
 * Locks the rows it counts (in id order) until the transaction ends, so two administrators
 * demoting each other at once cannot both see the other one and leave none.
 */
export async function countDefaultAdmins(q: Queryable, orgId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*) AS n FROM (
       SELECT id FROM users WHERE org_id = $1 AND role = 'org_admin' AND role_id IS NULL AND NOT disabled ORDER BY id FOR UPDATE
     ) admins`,
    [orgId],
  );
  return row.n;
}

export async function countMembers(q: Queryable, orgId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>('SELECT count(*) AS n FROM users WHERE org_id = $1', [orgId]);
  return row.n;
}

// ------------------------------------------------------------------ sign-in bookkeeping

/** A successful sign-in: the last sign-in time, and the `login` event of history. */
export async function recordSignIn(q: Queryable, userId: string, now: number, via = 'generateToken'): Promise<void> {
  const [u] = await q.query<{ org_id: string; username: string; full_name: string }>(
    'UPDATE users SET last_login = $2 WHERE id = $1 RETURNING org_id, username, full_name',
    [userId, now],
  );
  if (u)
    await recordEvent(q, {
      orgId: u.org_id,
      source: 'session',
      operation: 'signin',
      subjectId: u.username,
      actor: { userId, username: u.username },
      when: now,
      history: { title: u.full_name, data: { via } },
    });
}

/** A failed sign-in of an existing member (unknown usernames belong to no organization): the `failedlogin` event. */
export async function recordFailedSignIn(
  q: Queryable,
  user: Pick<UserRow, 'id' | 'org_id' | 'username'>,
  now: number,
  reason: 'password' | 'locked' | 'disabled',
  detail: { lockedUntil?: number } = {},
): Promise<void> {
  await recordEvent(q, {
    orgId: user.org_id,
    source: 'session',
    operation: 'failedSignin',
    subjectId: user.username,
    actor: { userId: user.id, username: user.username },
    when: now,
    history: { data: { reason, ...detail } },
  });
}

// ------------------------------------------------------------------ member lists

export interface MemberFilter {
  orgId: string;
  /** Base roles (matching members without a custom role) and custom role ids. */
  roles?: string[];
  /** Name filters: substring, case-insensitive. */
  names?: { column: 'username' | 'full_name' | 'first_name' | 'last_name' | 'email'; value: string }[];
  /** true: every name filter must match; false: any. */
  intersect?: boolean;
  /** Free-text terms that must each match username, full name or email. */
  terms?: string[];
  /** A condition built from a parsed search `q` (binds its values through `param`). */
  condition?: (param: (v: unknown) => string) => string;
  /**
   * Set to the caller's id when the caller may not see other members' email addresses: then only
   * the caller's own address can match (a hidden field is not searchable). Unset: every address.
   */
  emailOwnOnly?: string;
  /** true: disabled members only; false: enabled ones only. */
  disabled?: boolean;
  /** User types (userLicenseTypeId), any of them. */
  licenseTypes?: string[];
  /** Epoch ms, exclusive bounds; a member who never signed in (-1) is before any date. */
  lastLogin?: { before?: number; after?: number };
  created?: { before?: number; after?: number };
}

/** `u.email ILIKE <pattern>`, narrowed to the caller's own row when addresses are hidden from them. */
export function emailMatch(pattern: string, ownOnly: string | undefined, p: (v: unknown) => string): string {
  return ownOnly === undefined ? `u.email ILIKE ${pattern}` : `(u.id = ${p(ownOnly)} AND u.email ILIKE ${pattern})`;
}

const SORT_SQL: Record<string, string> = {
  username: 'lower(u.username)',
  fullname: 'lower(u.full_name)',
  created: 'u.created',
  lastlogin: 'u.last_login',
  mfaenabled: 'lower(u.username)',
  level: 'u.user_license_type_id',
  role: 'u.role, u.role_id',
  userlicensetype: 'u.user_license_type_id',
  status: 'u.disabled',
};

function whereClause(f: MemberFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.orgId];
  const conds = ['u.org_id = $1'];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (f.roles?.length) {
    const base = f.roles.filter((r) => r.startsWith('org_'));
    const custom = f.roles.filter((r) => !r.startsWith('org_'));
    const parts: string[] = [];
    if (base.length) parts.push(`(u.role_id IS NULL AND u.role = ANY(${p(base)}::text[]))`);
    if (custom.length) parts.push(`u.role_id = ANY(${p(custom)}::text[])`);
    conds.push(`(${parts.join(' OR ')})`);
  }
  if (f.names?.length) {
    const parts = f.names.map((n) =>
      n.column === 'email' ? emailMatch(p(likePattern(n.value)), f.emailOwnOnly, p) : `u.${n.column} ILIKE ${p(likePattern(n.value))}`,
    );
    conds.push(`(${parts.join(f.intersect ? ' AND ' : ' OR ')})`);
  }
  if (f.condition) conds.push(f.condition(p));
  if (f.disabled !== undefined) conds.push(`u.disabled = ${p(f.disabled)}`);
  if (f.licenseTypes?.length) conds.push(`u.user_license_type_id = ANY(${p(f.licenseTypes)}::text[])`);
  for (const [column, range] of [
    ['u.last_login', f.lastLogin],
    ['u.created', f.created],
  ] as const) {
    if (range?.before !== undefined) conds.push(`${column} < ${p(range.before)}`);
    if (range?.after !== undefined) conds.push(`${column} > ${p(range.after)}`);
  }
  for (const term of f.terms ?? []) {
    const t = p(likePattern(term));
    conds.push(`(u.username ILIKE ${t} OR u.full_name ILIKE ${t} OR ${emailMatch(t, f.emailOwnOnly, p)})`);
  }
  return { sql: conds.join(' AND '), params };
}

export async function listMembers(
  q: Queryable,
  filter: MemberFilter,
  sort: { field: string; order: 'asc' | 'desc' },
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: UserRow[] }> {
  const where = whereClause(filter);
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*) AS n FROM users u WHERE ${where.sql}`, where.params);
  if (page.limit === 0) return { total: n, rows: [] };
  const dir = sort.order === 'desc' ? 'DESC' : 'ASC';
  const order = (alias: string) =>
    [...SORT_SQL[sort.field].split(', '), 'lower(u.username)'].map((col) => `${col.replaceAll('u.', `${alias}.`)} ${dir}`).join(', ');
  // Page the members' ids first, then read those rows and join their roles: reading or joining
  // before OFFSET would do it for every skipped row too (45 ms at offset 5,000 of 10,000 on the
  // embedded database).
  const rows = await q.query<UserRow>(
    `SELECT p.*, r.privileges AS role_privileges
       FROM (SELECT u.id FROM users u WHERE ${where.sql} ORDER BY ${order('u')} LIMIT ${page.limit} OFFSET ${page.offset}) ids
       JOIN users p ON p.id = ids.id
       LEFT JOIN roles r ON r.org_id = p.org_id AND r.id = p.role_id
      ORDER BY ${order('p')}`,
    where.params,
  );
  return { total: n, rows };
}

/** Disables or enables an account; disabling also ends every session it holds (access and refresh tokens). */
export async function setUserDisabled(q: Queryable, userId: string, disabled: boolean, now: number): Promise<void> {
  await q.query('UPDATE users SET disabled = $2, modified = $3 WHERE id = $1', [userId, disabled, now]);
  if (!disabled) return;
  // A token issued before the account was disabled must not come back to life when it is enabled again.
  await q.query('DELETE FROM tokens WHERE user_id = $1', [userId]);
  await q.query('DELETE FROM oauth_refresh_tokens WHERE user_id = $1', [userId]);
}

/** What a member still holds that would be lost or left ownerless with the account. */
export interface MemberHoldings {
  items: number;
  groups: number;
  collaborations: number;
  relationships: number;
}

export async function holdingsOfMember(q: Queryable, userId: string): Promise<MemberHoldings> {
  const [row] = await q.query<MemberHoldings>(
    `SELECT (SELECT count(*) FROM items WHERE owner_id = $1)::int AS items,
            (SELECT count(*) FROM groups WHERE owner_id = $1)::int AS groups,
            (SELECT count(*) FROM collaborations WHERE owner_id = $1)::int AS collaborations,
            (SELECT count(*) FROM relationships WHERE created_by = $1)::int AS relationships`,
    [userId],
  );
  return row;
}

/** The member's groups with their membership, by title. */
export async function membershipsOfMember(q: Queryable, userId: string): Promise<{ id: string; title: string; memberType: string }[]> {
  return q.query<{ id: string; title: string; memberType: string }>(
    `SELECT g.id, g.title, m.member_type AS "memberType" FROM group_members m JOIN groups g ON g.id = m.group_id
      WHERE m.user_id = $1 ORDER BY lower(g.title), g.id`,
    [userId],
  );
}

/** The tags of the member's items with how many items carry each, alphabetically, at most `max`. */
export async function tagsOfMemberItems(q: Queryable, userId: string, max: number): Promise<{ tag: string; count: number }[]> {
  return q.query<{ tag: string; count: number }>(
    `SELECT t AS tag, count(*)::int AS count FROM items, unnest(tags) AS t WHERE owner_id = $1 AND t <> ''
      GROUP BY t ORDER BY lower(t), t LIMIT ${max}`,
    [userId],
  );
}

/** Makes the member a member of those of `groupIds` that are groups of `orgId` (one already a member is skipped); answers the groups joined. */
export async function joinGroupsOfOrg(q: Queryable, groupIds: readonly string[], userId: string, now: number, orgId: string): Promise<{ group_id: string }[]> {
  return q.query<{ group_id: string }>(
    `INSERT INTO group_members (group_id, user_id, member_type, joined)
         SELECT id, $2, 'member', $3 FROM groups WHERE org_id = $4 AND id = ANY($1::text[]) ON CONFLICT DO NOTHING
         RETURNING group_id`,
    [groupIds, userId, now, orgId],
  );
}
