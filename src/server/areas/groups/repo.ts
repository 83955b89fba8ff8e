/** SQL for groups and group membership. */
import type { GroupFields, MembershipAccess, MemberType } from '../../../shared/contract/groups.ts';
import type { BaseRole } from '../../../shared/privileges.ts';
import { compileQuery, likePattern, type QueryNode } from '../../http/search-query.ts';
import type { Db, Queryable } from '../../store/db.ts';

export interface GroupRow {
  id: string;
  org_id: string;
  owner_id: string;
  owner_username: string;
  title: string;
  description: string;
  snippet: string;
  tags: string[];
  access: 'private' | 'org' | 'public';
  is_invitation_only: boolean;
  is_view_only: boolean;
  auto_join: boolean;
  leaving_disallowed: boolean;
  hidden_members: boolean;
  protected: boolean;
  sort_field: string;
  sort_order: string;
  capabilities: string[];
  membership_access: MembershipAccess;
  /** The thumbnail's file name (group_info_files), or null. */
  thumbnail: string | null;
  created: number;
  modified: number;
  member_count: number;
  /** The caller's membership, when the query was made for a caller. */
  my_member_type: MemberType | null;
}

/** `$1` is the caller's user id (or null). */
export const SELECT_GROUP = `
  SELECT g.*, o.username AS owner_username,
         (SELECT count(*) FROM group_members c WHERE c.group_id = g.id) AS member_count,
         (SELECT m.member_type FROM group_members m WHERE m.group_id = g.id AND m.user_id = $1) AS my_member_type
    FROM groups g
    JOIN users o ON o.id = g.owner_id`;

export async function findGroup(q: Queryable, groupId: string, callerId: string | null): Promise<GroupRow | undefined> {
  const [row] = await q.query<GroupRow>(`${SELECT_GROUP} WHERE g.id = $2`, [callerId, groupId]);
  return row;
}

/** The member's groups. Prepared: `community/self` reads it on every call. */
export async function groupsOfUser(db: Db, userId: string): Promise<GroupRow[]> {
  return db.queryPrepared<GroupRow>(
    'groups_of_user',
    `${SELECT_GROUP} WHERE g.id IN (SELECT group_id FROM group_members WHERE user_id = $1) ORDER BY lower(g.title)`,
    [userId],
  );
}

export async function countGroupsOfUser(q: Queryable, userId: string): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>('SELECT count(*) AS n FROM group_members WHERE user_id = $1', [userId]);
  return n;
}

/**
 * Locks the named members' rows until the transaction ends, before their groups are counted: two
 * additions of one member to two different groups at the same instant (each holding only its own
 * group's lock) would otherwise both count 511 and both insert (the 512-groups limit). In id
 * order, so that two requests naming the same members cannot deadlock; FOR NO KEY UPDATE, so that
 * it does not hold up inserts that merely reference the rows (foreign keys take KEY SHARE).
 */
export async function lockMembersByName(q: Queryable, usernames: string[]): Promise<void> {
  if (!usernames.length) return;
  await q.query('SELECT id FROM users WHERE lower(username) = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE', [usernames.map((n) => n.toLowerCase())]);
}

export async function lockMember(q: Queryable, userId: string): Promise<void> {
  await q.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
}

/** Candidates for adding to a group: what the rules need to know about each named user. */
export interface CandidateRow {
  id: string;
  username: string;
  org_id: string;
  role: BaseRole;
  role_id: string | null;
  role_privileges: string[] | null;
  disabled: boolean;
  group_count: number;
  member_type: MemberType | null;
}

export async function findCandidates(q: Queryable, groupId: string, usernames: string[]): Promise<CandidateRow[]> {
  return q.query<CandidateRow>(
    `SELECT u.id, u.username, u.org_id, u.role, u.role_id, r.privileges AS role_privileges, u.disabled,
            (SELECT count(*) FROM group_members c WHERE c.user_id = u.id) AS group_count,
            (SELECT m.member_type FROM group_members m WHERE m.group_id = $1 AND m.user_id = u.id) AS member_type
       FROM users u
       LEFT JOIN roles r ON r.org_id = u.org_id AND r.id = u.role_id
      WHERE lower(u.username) = ANY($2::text[])`,
    [groupId, usernames.map((n) => n.toLowerCase())],
  );
}

/** Organizations in an active partnered collaboration with `orgId` (both taking part now). */
export async function partneredOrgs(q: Queryable, orgId: string): Promise<Set<string>> {
  const rows = await q.query<{ org_id: string }>(
    `SELECT DISTINCT b.org_id
       FROM collaboration_participants a
       JOIN collaboration_participants b ON b.collaboration_id = a.collaboration_id
      WHERE a.org_id = $1 AND a.status = 'active' AND b.status = 'active' AND b.org_id <> $1`,
    [orgId],
  );
  return new Set(rows.map((r) => r.org_id));
}

export async function countExternalMembers(q: Queryable, groupId: string, orgId: string): Promise<number> {
  const [{ n }] = await q.query<{ n: number }>(
    'SELECT count(*) AS n FROM group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 AND u.org_id <> $2',
    [groupId, orgId],
  );
  return n;
}

export async function insertMembers(q: Queryable, groupId: string, members: { userId: string; type: MemberType }[], now: number): Promise<void> {
  if (!members.length) return;
  await q.query(
    `INSERT INTO group_members (group_id, user_id, member_type, joined)
     SELECT $1, u, t, $4 FROM unnest($2::text[], $3::text[]) AS x(u, t)
     ON CONFLICT (group_id, user_id) DO NOTHING`,
    [groupId, members.map((m) => m.userId), members.map((m) => m.type), now],
  );
}

export async function setMemberType(q: Queryable, groupId: string, userIds: string[], type: 'admin' | 'member'): Promise<void> {
  if (!userIds.length) return;
  await q.query(`UPDATE group_members SET member_type = $3 WHERE group_id = $1 AND user_id = ANY($2::text[]) AND member_type <> 'owner'`, [
    groupId,
    userIds,
    type,
  ]);
}

export async function deleteMembers(q: Queryable, groupId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  await q.query('DELETE FROM group_members WHERE group_id = $1 AND user_id = ANY($2::text[])', [groupId, userIds]);
}

export interface MemberListRow {
  username: string;
  full_name: string;
  member_type: MemberType;
  joined: number;
  org_id: string;
}

export async function listGroupMembers(
  q: Queryable,
  groupId: string,
  opts: { name?: string; memberTypes?: MemberType[]; sort: string; order: 'asc' | 'desc'; offset: number; limit: number },
): Promise<{ total: number; rows: MemberListRow[] }> {
  const params: unknown[] = [groupId];
  const conds = ['m.group_id = $1'];
  if (opts.name) {
    params.push(`%${opts.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conds.push(`(u.username ILIKE $${params.length} OR u.full_name ILIKE $${params.length})`);
  }
  if (opts.memberTypes?.length) {
    params.push(opts.memberTypes);
    conds.push(`m.member_type = ANY($${params.length}::text[])`);
  }
  const where = conds.join(' AND ');
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*) AS n FROM group_members m JOIN users u ON u.id = m.user_id WHERE ${where}`, params);
  const sortCol =
    { username: 'lower(u.username)', fullname: 'lower(u.full_name)', joined: 'm.joined', membertype: 'm.member_type' }[opts.sort] ?? 'lower(u.username)';
  const dir = opts.order === 'desc' ? 'DESC' : 'ASC';
  const rows = await q.query<MemberListRow>(
    `SELECT u.username, u.full_name, m.member_type, m.joined, u.org_id
       FROM group_members m JOIN users u ON u.id = m.user_id
      WHERE ${where} ORDER BY ${sortCol} ${dir}, lower(u.username) LIMIT ${opts.limit} OFFSET ${opts.offset}`,
    params,
  );
  return { total: n, rows };
}

export interface GroupSearch {
  callerId: string | null;
  callerOrgId: string | null;
  /** Caller holds portal:user:viewOrgGroups / portal:admin:viewGroups. */
  viewOrgGroups: boolean;
  viewAllOrgGroups: boolean;
  /** The parsed `q`. */
  query: QueryNode;
  sort: string;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Searches only what the caller may see (the same rule as canSeeGroup, in SQL). */
export async function searchGroups(q: Queryable, s: GroupSearch): Promise<{ total: number; rows: GroupRow[] }> {
  const params: unknown[] = [s.callerId, s.callerOrgId, s.viewOrgGroups, s.viewAllOrgGroups];
  const p = (v: unknown) => `$${params.push(v)}`;
  const conds = [
    `(g.access = 'public'
      OR EXISTS (SELECT 1 FROM group_members v WHERE v.group_id = g.id AND v.user_id = $1)
      OR (g.org_id = $2 AND ($4 OR (g.access = 'org' AND $3))))`,
  ];
  const like = (v: string) => p(likePattern(v));
  conds.push(
    compileQuery(s.query, (t) => {
      if (t.kind === 'range') {
        const col = { created: 'g.created', modified: 'g.modified' }[t.field];
        if (!col) return 'FALSE';
        const op = t.inclusive ? ['>=', '<='] : ['>', '<'];
        const parts = [];
        if (t.from !== '*' && /^-?\d+$/.test(t.from)) parts.push(`${col} ${op[0]} ${p(Number(t.from))}`);
        if (t.to !== '*' && /^-?\d+$/.test(t.to)) parts.push(`${col} ${op[1]} ${p(Number(t.to))}`);
        return parts.length ? `(${parts.join(' AND ')})` : 'TRUE';
      }
      if (t.field === 'title') return `g.title ILIKE ${like(t.value)}`;
      if (t.field === 'owner') return `lower(o.username) = lower(${p(t.value)})`;
      if (t.field === 'id') return `g.id = ${p(t.value)}`;
      if (t.field === 'orgid') return `g.org_id = ${p(t.value)}`;
      if (t.field === 'access') return `g.access = ${p(t.value.toLowerCase())}`;
      if (t.field === 'tags') return `EXISTS (SELECT 1 FROM unnest(g.tags) tag WHERE lower(tag) = lower(${p(t.value)}))`;
      const v = like(t.value);
      return `(g.title ILIKE ${v} OR g.description ILIKE ${v} OR g.snippet ILIKE ${v} OR array_to_string(g.tags, ',') ILIKE ${v})`;
    }),
  );
  const where = conds.join(' AND ');
  const from = 'FROM groups g JOIN users o ON o.id = g.owner_id';
  const [{ n }] = await q.query<{ n: number }>(`SELECT count(*) AS n ${from} WHERE ${where}`, params);
  const sortCol = { title: 'lower(g.title)', owner: 'lower(o.username)', created: 'g.created', modified: 'g.modified' }[s.sort] ?? 'lower(g.title)';
  const dir = s.order === 'desc' ? 'DESC' : 'ASC';
  const rows = await q.query<GroupRow>(`${SELECT_GROUP} WHERE ${where} ORDER BY ${sortCol} ${dir}, g.id LIMIT ${s.limit} OFFSET ${s.offset}`, params);
  return { total: n, rows };
}

/**
 * Makes `toId` the group's owner (joining them as owner if they were not in it) and leaves the
 * previous owner `fromId` in the group as a plain member.
 */
export async function setGroupOwner(q: Queryable, groupId: string, fromId: string, toId: string, now: number): Promise<void> {
  await q.query('UPDATE groups SET owner_id = $2, modified = $3 WHERE id = $1', [groupId, toId, now]);
  await q.query(`UPDATE group_members SET member_type = 'member' WHERE group_id = $1 AND user_id = $2`, [groupId, fromId]);
  await q.query(
    `INSERT INTO group_members (group_id, user_id, member_type, joined) VALUES ($1, $2, 'owner', $3)
     ON CONFLICT (group_id, user_id) DO UPDATE SET member_type = 'owner'`,
    [groupId, toId, now],
  );
}

/** The ids of the owner's groups titled `title`, case aside (a title is unique per owner). */
export async function groupIdsOwnedWithTitle(q: Queryable, ownerId: string, title: string): Promise<string[]> {
  return (await q.query<{ id: string }>('SELECT id FROM groups WHERE owner_id = $1 AND lower(title) = lower($2)', [ownerId, title])).map((r) => r.id);
}

/**
 * A new group with the fields given, the others at a new group's defaults; the same title saved
 * twice at once by one owner fails (23505, groups_owner_title).
 */
export async function insertGroup(
  q: Queryable,
  g: { id: string; orgId: string; ownerId: string; fields: GroupFields & { title: string }; now: number },
): Promise<void> {
  const { fields } = g;
  await q.query(
    `INSERT INTO groups (id, org_id, owner_id, title, description, snippet, tags, access, is_invitation_only, is_view_only,
                           auto_join, leaving_disallowed, hidden_members, sort_field, sort_order, capabilities, membership_access, created, modified)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $18, $17, $17)`,
    [
      g.id,
      g.orgId,
      g.ownerId,
      fields.title,
      fields.description ?? '',
      fields.snippet ?? '',
      fields.tags ?? [],
      fields.access ?? 'private',
      fields.isInvitationOnly ?? false,
      fields.isViewOnly ?? false,
      fields.autoJoin ?? false,
      fields.leavingDisallowed ?? false,
      fields.hiddenMembers ?? false,
      fields.sortField ?? 'title',
      fields.sortOrder ?? 'asc',
      fields.capabilities ?? [],
      g.now,
      fields.membershipAccess ?? 'none',
    ],
  );
}

/** The `groups` column each settable group field is kept in. */
export const GROUP_FIELD_COLUMNS: Record<keyof GroupFields, string> = {
  title: 'title',
  access: 'access',
  description: 'description',
  snippet: 'snippet',
  tags: 'tags',
  isInvitationOnly: 'is_invitation_only',
  isViewOnly: 'is_view_only',
  autoJoin: 'auto_join',
  leavingDisallowed: 'leaving_disallowed',
  hiddenMembers: 'hidden_members',
  sortField: 'sort_field',
  sortOrder: 'sort_order',
  capabilities: 'capabilities',
  membershipAccess: 'membership_access',
};

/** Sets the given fields (at least one) of the group; a title another group of its owner has fails (23505). */
export async function updateGroupFields(q: Queryable, groupId: string, entries: [keyof GroupFields, unknown][], now: number): Promise<void> {
  const sets = entries.map(([k], i) => `${GROUP_FIELD_COLUMNS[k]} = $${i + 3}`);
  await q.query(`UPDATE groups SET ${sets.join(', ')}, modified = $2 WHERE id = $1`, [groupId, now, ...entries.map(([, v]) => v)]);
}

/** The store keys of the group's info files (its thumbnail). */
export async function infoFileKeysOfGroup(q: Queryable, groupId: string): Promise<string[]> {
  return (await q.query<{ blob_key: string }>('SELECT blob_key FROM group_info_files WHERE group_id = $1', [groupId])).map((t) => t.blob_key);
}

export async function deleteGroupRow(q: Queryable, groupId: string): Promise<void> {
  await q.query('DELETE FROM groups WHERE id = $1', [groupId]);
}

/** The group is no longer among the organization's new-member default groups. */
export async function dropFromNewMemberDefaults(q: Queryable, orgId: string, groupId: string): Promise<void> {
  await q.query('UPDATE user_default_settings SET groups = array_remove(groups, $2) WHERE org_id = $1', [orgId, groupId]);
}

export async function setProtectedFlag(q: Queryable, groupId: string, value: boolean, now: number): Promise<void> {
  await q.query('UPDATE groups SET protected = $2, modified = $3 WHERE id = $1', [groupId, value, now]);
}

/**
 * Serialises additions to one group, so that concurrent addUsers/join (rest-js sends its chunks in
 * parallel; several processes share one PostgreSQL) cannot each pass the external-member limit.
 */
export async function lockGroup(q: Queryable, groupId: string): Promise<void> {
  await q.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [groupId]);
}

/** Deletes the group's info files; answers their store keys (the files then leave the store). */
export async function deleteInfoFilesOfGroup(q: Queryable, groupId: string): Promise<string[]> {
  const previous = await q.query<{ blob_key: string }>('DELETE FROM group_info_files WHERE group_id = $1 RETURNING blob_key', [groupId]);
  return previous.map((p) => p.blob_key);
}

export async function insertInfoFile(q: Queryable, groupId: string, path: string, blobKey: string, size: number): Promise<void> {
  await q.query('INSERT INTO group_info_files (group_id, path, blob_key, size) VALUES ($1, $2, $3, $4)', [groupId, path, blobKey, size]);
}

/** The group's thumbnail is the info file named `name`. */
export async function setThumbnailName(q: Queryable, groupId: string, name: string): Promise<void> {
  await q.query('UPDATE groups SET thumbnail = $2 WHERE id = $1', [groupId, name]);
}

/** One of the group's info files, by its name. */
export async function findInfoFile(q: Queryable, groupId: string, path: string): Promise<{ blob_key: string; size: number } | undefined> {
  const [file] = await q.query<{ blob_key: string; size: number }>('SELECT blob_key, size FROM group_info_files WHERE group_id = $1 AND path = $2', [
    groupId,
    path,
  ]);
  return file;
}
