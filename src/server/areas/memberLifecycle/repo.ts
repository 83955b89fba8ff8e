/** All of the member lifecycle's SQL: expirations on `users`, inactivity policies, their runs and warnings. */
import type { Queryable } from '../../store/db.ts';

export const DAY_MS = 86_400_000;

/** When a member last showed activity: their last sign-in, or the account's creation when they never signed in. */
export const INACTIVE_SINCE = `(CASE WHEN u.last_login > 0 THEN u.last_login ELSE u.created END)`;
/** Administrators' accounts (org_admin without a custom role) are never touched by a policy. */
const NOT_ADMINISTRATOR = `NOT (u.role = 'org_admin' AND u.role_id IS NULL)`;

export interface ExpirationRow {
  id: string;
  org_id: string;
  username: string;
  full_name: string;
  expiration: number;
  expiration_warned: number | null;
}

const num = (v: unknown) => (v == null ? null : Number(v));

function expirationRow(r: ExpirationRow): ExpirationRow {
  return { ...r, expiration: Number(r.expiration), expiration_warned: num(r.expiration_warned) };
}

export async function setExpiration(q: Queryable, userId: string, expiration: number | null): Promise<void> {
  await q.query('UPDATE users SET expiration = $2, expiration_warned = NULL WHERE id = $1', [userId, expiration]);
}

/** A member's expiration (epoch ms), or null when none is set. */
export async function expirationOf(q: Queryable, userId: string): Promise<number | null> {
  const [row] = await q.query<{ expiration: string | null }>('SELECT expiration FROM users WHERE id = $1', [userId]);
  return row?.expiration == null ? null : Number(row.expiration);
}

/** Whether the member is a default administrator (the built-in role, no custom one): the organization keeps one enabled. */
export async function isDefaultAdministrator(q: Queryable, userId: string): Promise<boolean> {
  const [row] = await q.query<{ administrator: boolean }>(`SELECT role = 'org_admin' AND role_id IS NULL AS administrator FROM users WHERE id = $1`, [userId]);
  return !!row?.administrator;
}

export async function upcomingExpirations(q: Queryable, orgId: string, usernames: string[] | undefined, offset: number, limit: number) {
  const where = `u.org_id = $1 AND u.expiration IS NOT NULL AND NOT u.disabled ${usernames ? 'AND u.username = ANY($4::text[])' : ''}`;
  const params: unknown[] = [orgId, limit, offset, ...(usernames ? [usernames] : [])];
  const [{ n }] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users u WHERE ${where.replace('$4', '$2')}`,
    usernames ? [orgId, usernames] : [orgId],
  );
  const rows = await q.query<ExpirationRow>(
    `SELECT u.id, u.org_id, u.username, u.full_name, u.expiration, u.expiration_warned FROM users u WHERE ${where}
      ORDER BY u.expiration, u.username LIMIT $2 OFFSET $3`,
    params,
  );
  return { total: n, rows: rows.map(expirationRow) };
}

/** Members whose expiration has come, locked (SKIP LOCKED: another instance takes the others). */
export async function claimDueExpirations(q: Queryable, now: number, limit: number): Promise<ExpirationRow[]> {
  const rows = await q.query<ExpirationRow>(
    `SELECT u.id, u.org_id, u.username, u.full_name, u.expiration, u.expiration_warned FROM users u
      WHERE u.expiration <= $1 AND NOT u.disabled ORDER BY u.expiration LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
  return rows.map(expirationRow);
}

/** Members within the warning window of their expiration who have not been warned, locked likewise. */
export async function claimDueExpirationWarnings(q: Queryable, now: number, warnMs: number, limit: number): Promise<ExpirationRow[]> {
  const rows = await q.query<ExpirationRow>(
    `SELECT u.id, u.org_id, u.username, u.full_name, u.expiration, u.expiration_warned FROM users u
      WHERE u.expiration <= $1 AND u.expiration_warned IS NULL AND NOT u.disabled ORDER BY u.expiration LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now + warnMs, limit],
  );
  return rows.map(expirationRow);
}

export async function markExpirationWarned(q: Queryable, userId: string, now: number): Promise<void> {
  await q.query('UPDATE users SET expiration_warned = $2 WHERE id = $1', [userId, now]);
}

/** The soonest moment something is due: an expiration, a warning (expiration − warnMs) or a policy run. */
export async function nextDue(q: Queryable, warnMs: number): Promise<number | null> {
  const [row] = await q.query<{ exp: unknown; warn: unknown; policy: unknown }>(
    `SELECT (SELECT min(expiration) FROM users WHERE expiration IS NOT NULL AND NOT disabled) AS exp,
            (SELECT min(expiration) FROM users WHERE expiration IS NOT NULL AND expiration_warned IS NULL AND NOT disabled) AS warn,
            (SELECT min(next_run_at) FROM inactivity_policies WHERE active) AS policy`,
  );
  const times = [num(row.exp), row.warn == null ? null : Number(row.warn) - warnMs, num(row.policy)].filter((t): t is number => t !== null);
  return times.length ? Math.min(...times) : null;
}

// ---------------------------------------------------------------- policies

export interface PolicyRow {
  id: string;
  org_id: string;
  title: string;
  warn_after_days: number;
  act_after_days: number;
  action: 'disable' | 'move';
  role: string | null;
  user_license_type: string | null;
  active: boolean;
  next_run_at: number | null;
  created: number;
  modified: number;
  warned_count?: number;
}

function policyRow(r: PolicyRow): PolicyRow {
  return { ...r, next_run_at: num(r.next_run_at), created: Number(r.created), modified: Number(r.modified) };
}

const WARNED_COUNT = `(SELECT count(*)::int FROM inactivity_warnings w JOIN users u ON u.id = w.user_id
                        WHERE w.policy_id = p.id AND NOT u.disabled AND ${INACTIVE_SINCE} <= w.warned_at) AS warned_count`;

export async function listPolicies(q: Queryable, orgId: string): Promise<PolicyRow[]> {
  return (await q.query<PolicyRow>(`SELECT p.*, ${WARNED_COUNT} FROM inactivity_policies p WHERE p.org_id = $1 ORDER BY p.created, p.id`, [orgId])).map(
    policyRow,
  );
}

export async function findPolicy(q: Queryable, orgId: string, id: string, lock = false): Promise<PolicyRow | undefined> {
  const [row] = await q.query<PolicyRow>(
    `SELECT p.*, ${lock ? '0 AS warned_count' : WARNED_COUNT} FROM inactivity_policies p WHERE p.org_id = $1 AND p.id = $2 ${lock ? 'FOR UPDATE OF p' : ''}`,
    [orgId, id],
  );
  return row && policyRow(row);
}

export type PolicyValues = Pick<PolicyRow, 'title' | 'warn_after_days' | 'act_after_days' | 'action' | 'role' | 'user_license_type'>;

export async function insertPolicy(q: Queryable, id: string, orgId: string, v: PolicyValues, now: number): Promise<void> {
  await q.query(
    `INSERT INTO inactivity_policies (id, org_id, title, warn_after_days, act_after_days, action, role, user_license_type, created, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [id, orgId, v.title, v.warn_after_days, v.act_after_days, v.action, v.role, v.user_license_type, now],
  );
}

export async function updatePolicy(q: Queryable, id: string, v: PolicyValues, now: number): Promise<void> {
  await q.query(
    `UPDATE inactivity_policies SET title = $2, warn_after_days = $3, act_after_days = $4, action = $5, role = $6, user_license_type = $7, modified = $8 WHERE id = $1`,
    [id, v.title, v.warn_after_days, v.act_after_days, v.action, v.role, v.user_license_type, now],
  );
}

export async function setPolicyActive(q: Queryable, id: string, active: boolean, nextRunAt: number | null, now: number): Promise<void> {
  await q.query('UPDATE inactivity_policies SET active = $2, next_run_at = $3, modified = $4 WHERE id = $1', [id, active, nextRunAt, now]);
}

export async function deletePolicy(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM inactivity_policies WHERE id = $1', [id]);
}

/** Active policies whose run is due, locked: the task scheduler's claim (FOR UPDATE SKIP LOCKED). */
export async function claimDuePolicies(q: Queryable, now: number, limit: number): Promise<PolicyRow[]> {
  return (
    await q.query<PolicyRow>(
      `SELECT p.*, 0 AS warned_count FROM inactivity_policies p WHERE p.active AND p.next_run_at <= $1 ORDER BY p.next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, limit],
    )
  ).map(policyRow);
}

export async function movePolicyOn(q: Queryable, id: string, nextRunAt: number): Promise<void> {
  await q.query('UPDATE inactivity_policies SET next_run_at = $2 WHERE id = $1', [id, nextRunAt]);
}

// ---------------------------------------------------------------- who a policy touches

export interface CandidateRow {
  id: string;
  org_id: string;
  username: string;
  full_name: string;
  role: string;
  role_id: string | null;
  user_license_type_id: string;
  disabled: boolean;
  inactive_since: number;
  /** When this policy last warned them, if after their last activity. */
  warned_at: number | null;
  administrator: boolean;
}

/** Enabled members inactive since at least `since` (epoch ms), with this policy's standing warning. */
export async function inactiveMembers(q: Queryable, orgId: string, policyId: string, since: number, lock: boolean): Promise<CandidateRow[]> {
  const rows = await q.query<CandidateRow>(
    `SELECT u.id, u.org_id, u.username, u.full_name, u.role, u.role_id, u.user_license_type_id, u.disabled,
            ${INACTIVE_SINCE} AS inactive_since, w.warned_at, NOT (${NOT_ADMINISTRATOR}) AS administrator
       FROM users u LEFT JOIN inactivity_warnings w ON w.policy_id = $2 AND w.user_id = u.id AND w.warned_at >= ${INACTIVE_SINCE}
      WHERE u.org_id = $1 AND NOT u.disabled AND ${INACTIVE_SINCE} <= $3
      ORDER BY ${INACTIVE_SINCE}, u.username ${lock ? 'FOR UPDATE OF u SKIP LOCKED' : ''}`,
    [orgId, policyId, since],
  );
  return rows.map((r) => ({ ...r, inactive_since: Number(r.inactive_since), warned_at: num(r.warned_at) }));
}

export async function recordWarnings(q: Queryable, policyId: string, userIds: string[], now: number): Promise<void> {
  if (!userIds.length) return;
  await q.query(
    `INSERT INTO inactivity_warnings (policy_id, user_id, warned_at) SELECT $1, x, $3 FROM unnest($2::text[]) AS x
     ON CONFLICT (policy_id, user_id) DO UPDATE SET warned_at = EXCLUDED.warned_at`,
    [policyId, userIds, now],
  );
}

// ---------------------------------------------------------------- runs

export interface ActedMember {
  userId: string;
  username: string;
  /** What the run did (kept with the run: the policy may be edited afterwards). */
  action: 'disable' | 'move';
  before: { disabled: boolean; role: string; roleId: string | null; userLicenseTypeId: string };
  /** `move`: the role and user type given. */
  after?: { role: string; roleId: string | null; userLicenseTypeId: string };
}

export interface RunRow {
  id: string;
  policy_id: string;
  org_id: string;
  scheduled_at: number;
  ran_at: number;
  warned: string[];
  acted: ActedMember[];
  undone: number | null;
  undone_by: string | null;
}

const runRow = (r: RunRow): RunRow => ({ ...r, scheduled_at: Number(r.scheduled_at), ran_at: Number(r.ran_at), undone: num(r.undone) });

/** Inserts the run; false when this occurrence was already recorded (another instance ran it). */
export async function insertRun(q: Queryable, run: Omit<RunRow, 'undone' | 'undone_by'>): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO inactivity_policy_runs (id, policy_id, org_id, scheduled_at, ran_at, warned, acted) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (policy_id, scheduled_at) DO NOTHING RETURNING id`,
    [run.id, run.policy_id, run.org_id, run.scheduled_at, run.ran_at, JSON.stringify(run.warned), JSON.stringify(run.acted)],
  );
  return rows.length > 0;
}

export async function completeRun(q: Queryable, runId: string, warned: string[], acted: ActedMember[]): Promise<void> {
  await q.query('UPDATE inactivity_policy_runs SET warned = $2, acted = $3 WHERE id = $1', [runId, JSON.stringify(warned), JSON.stringify(acted)]);
}

export async function listRuns(q: Queryable, policyId: string, limit: number): Promise<RunRow[]> {
  return (await q.query<RunRow>('SELECT * FROM inactivity_policy_runs WHERE policy_id = $1 ORDER BY ran_at DESC, id LIMIT $2', [policyId, limit])).map(runRow);
}

export async function findRun(q: Queryable, policyId: string, runId: string): Promise<RunRow | undefined> {
  const [row] = await q.query<RunRow>('SELECT * FROM inactivity_policy_runs WHERE policy_id = $1 AND id = $2 FOR UPDATE', [policyId, runId]);
  return row && runRow(row);
}

export async function markRunUndone(q: Queryable, runId: string, by: string, now: number): Promise<void> {
  await q.query('UPDATE inactivity_policy_runs SET undone = $2, undone_by = $3 WHERE id = $1', [runId, now, by]);
}

export interface MemberState {
  id: string;
  org_id: string;
  username: string;
  full_name: string;
  disabled: boolean;
  role: string;
  role_id: string | null;
  user_license_type_id: string;
}

export async function membersByIds(q: Queryable, ids: string[]): Promise<MemberState[]> {
  return q.query<MemberState>(
    'SELECT id, org_id, username, full_name, disabled, role, role_id, user_license_type_id FROM users WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [ids],
  );
}
