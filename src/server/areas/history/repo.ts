/** SQL for history: filtered keyset pages over the events outbox (indexes in migration 014). */
import type { HistoryData, HistoryIdType } from '../../../shared/contract/history.ts';
import type { Queryable } from '../../store/db.ts';
import type { Position } from './cursor.ts';

export interface HistoryFilter {
  orgId: string;
  id?: string;
  types?: HistoryIdType[];
  actors?: string[];
  owners?: string[];
  /** Documented actions and service operation names: an event matches either. */
  actions?: string[];
  fromDate?: number;
  toDate?: number;
  order: 'asc' | 'desc';
  after?: Position;
}

export interface HistoryRow {
  seq: string | number;
  id: string;
  org_id: string;
  subject_id: string;
  id_type: HistoryIdType;
  action: string;
  op: string;
  username: string | null;
  owner: string | null;
  title: string | null;
  data: HistoryData | null;
  created: string | number;
}

const SELECT = 'SELECT e.seq, e.id, e.org_id, e.subject_id, e.id_type, e.action, e.op, e.username, e.owner, e.title, e.data, e.created FROM events e';

/** WHERE and ORDER BY for a filter, with its parameters. */
function where(f: HistoryFilter): { sql: string; args: unknown[] } {
  const args: unknown[] = [f.orgId];
  const terms = ['e.org_id = $1'];
  const arg = (v: unknown) => `$${args.push(v)}`;
  if (f.id !== undefined) terms.push(`e.subject_id = ${arg(f.id)}`);
  if (f.types?.length) terms.push(f.types.length === 1 ? `e.id_type = ${arg(f.types[0])}` : `e.id_type = ANY(${arg(f.types)}::text[])`);
  if (f.actors?.length) terms.push(f.actors.length === 1 ? `e.username = ${arg(f.actors[0])}` : `e.username = ANY(${arg(f.actors)}::text[])`);
  if (f.owners?.length) terms.push(`e.owner = ANY(${arg(f.owners)}::text[])`);
  if (f.actions?.length) {
    const a = arg(f.actions);
    terms.push(`(e.action = ANY(${a}::text[]) OR e.op = ANY(${a}::text[]))`);
  }
  if (f.fromDate !== undefined) terms.push(`e.created >= ${arg(f.fromDate)}`);
  if (f.toDate !== undefined) terms.push(`e.created <= ${arg(f.toDate)}`);
  const dir = f.order === 'asc' ? 'ASC' : 'DESC';
  if (f.after) terms.push(`(e.created, e.seq) ${f.order === 'asc' ? '>' : '<'} (${arg(f.after.created)}::bigint, ${arg(f.after.seq)}::bigint)`);
  return { sql: `WHERE ${terms.join(' AND ')} ORDER BY e.created ${dir}, e.seq ${dir}`, args };
}

export async function historyPage(q: Queryable, f: HistoryFilter, limit: number): Promise<HistoryRow[]> {
  const { sql, args } = where(f);
  return q.query<HistoryRow>(`${SELECT} ${sql} LIMIT ${Math.trunc(limit)}`, args);
}

/** For the CSV: the same rows with the organization's and the members' names. */
export interface HistoryCsvRow extends HistoryRow {
  org_name: string;
  actor_full_name: string | null;
  owner_full_name: string | null;
}

export async function historyCsvPage(q: Queryable, f: HistoryFilter, limit: number): Promise<HistoryCsvRow[]> {
  const { sql, args } = where(f);
  return q.query<HistoryCsvRow>(
    `SELECT p.*, o.name AS org_name, ua.full_name AS actor_full_name, uo.full_name AS owner_full_name
       FROM (SELECT * FROM (${SELECT} ${sql} LIMIT ${Math.trunc(limit)}) page) p
       JOIN organizations o ON o.id = p.org_id
       LEFT JOIN users ua ON lower(ua.username) = lower(p.username)
       LEFT JOIN users uo ON lower(uo.username) = lower(p.owner)
      ORDER BY p.created ${f.order === 'asc' ? 'ASC' : 'DESC'}, p.seq ${f.order === 'asc' ? 'ASC' : 'DESC'}`,
    args,
  );
}

/** Which of these usernames are members of the organization (the `actors` check). */
export async function existingMembers(q: Queryable, orgId: string, usernames: string[]): Promise<Set<string>> {
  const rows = await q.query<{ username: string }>('SELECT username FROM users WHERE org_id = $1 AND lower(username) = ANY($2::text[])', [
    orgId,
    usernames.map((u) => u.toLowerCase()),
  ]);
  return new Set(rows.map((r) => r.username.toLowerCase()));
}

/** The stored spelling of a member's username, if `name` is one (any case). */
export async function memberSpelling(q: Queryable, orgId: string, name: string): Promise<string | undefined> {
  const [row] = await q.query<{ username: string }>('SELECT username FROM users WHERE org_id = $1 AND lower(username) = lower($2)', [orgId, name]);
  return row?.username;
}
