/**
 * Who is calling: the token (from the `token` parameter, `X-Esri-Authorization: Bearer` or
 * `Authorization: Bearer`) resolved against the database on every request — no cache, so a
 * revoked token or a changed role takes effect at once (ASVS 8.3.2).
 */
import type { FastifyRequest } from 'fastify';
import { BASE_ROLE_PRIVILEGES, withImplied, type BaseRole } from '../../shared/privileges.ts';
import { tokenHash } from '../areas/auth/tokens.ts';
import type { Queryable } from '../store/db.ts';
import { forbidden, invalidToken } from './errors.ts';
import type { RawParams } from './params.ts';

export interface Caller {
  userId: string;
  username: string;
  orgId: string;
  role: BaseRole;
  roleId: string | null;
  privileges: ReadonlySet<string>;
  /** `org_admin` with no custom role: the only callers who manage roles (spec §5). */
  isDefaultAdmin: boolean;
}

export function tokenFrom(req: FastifyRequest, raw: RawParams): string | undefined {
  const param = raw.token;
  if (typeof param === 'string' && param.trim()) return param.trim();
  for (const header of ['x-esri-authorization', 'authorization']) {
    const value = req.headers[header];
    const m = typeof value === 'string' ? /^Bearer\s+(\S+)$/i.exec(value.trim()) : null;
    if (m) return m[1];
  }
  return undefined;
}

interface CallerRow {
  user_id: string;
  username: string;
  org_id: string;
  role: BaseRole;
  role_id: string | null;
  role_privileges: string[] | null;
  disabled: boolean;
  expires: number;
}

export async function resolveCaller(q: Queryable, token: string, now: number): Promise<Caller> {
  const [row] = await q.query<CallerRow>(
    `SELECT u.id AS user_id, u.username, u.org_id, u.role, u.role_id, u.disabled, t.expires,
            r.privileges AS role_privileges
       FROM tokens t
       JOIN users u ON u.id = t.user_id
       LEFT JOIN roles r ON r.org_id = u.org_id AND r.id = u.role_id
      WHERE t.token_hash = $1`,
    [tokenHash(token)],
  );
  if (!row || row.expires <= now || row.disabled) throw invalidToken();
  return callerFromRow(row);
}

export function callerFromRow(row: Omit<CallerRow, 'expires' | 'disabled'>): Caller {
  const privileges = row.role_id ? withImplied(row.role_privileges ?? []) : new Set(BASE_ROLE_PRIVILEGES[row.role]);
  return {
    userId: row.user_id,
    username: row.username,
    orgId: row.org_id,
    role: row.role,
    roleId: row.role_id,
    privileges,
    isDefaultAdmin: row.role === 'org_admin' && !row.role_id,
  };
}

export function hasPrivilege(caller: Caller, privilege: string): boolean {
  return caller.privileges.has(privilege);
}

/** Refuse unless the caller holds every privilege named; the 403 names the first one missing. */
export function requirePrivilege(caller: Caller, ...privileges: string[]): void {
  const missing = privileges.find((p) => !caller.privileges.has(p));
  if (missing) throw forbidden(`Requires the privilege ${missing}.`);
}

export function requireAnyPrivilege(caller: Caller, ...privileges: string[]): void {
  if (!privileges.some((p) => caller.privileges.has(p))) throw forbidden(`Requires one of the privileges ${privileges.join(', ')}.`);
}
