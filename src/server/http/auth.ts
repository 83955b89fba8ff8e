/**
 * Who is calling: the token (from the `token` parameter, `X-Esri-Authorization: Bearer` or
 * `Authorization: Bearer`) resolved against the database on every request — kept only while no
 * write of any kind has happened (embedded database), so a revoked token or a changed role takes
 * effect at once (ASVS 8.3.2).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rolePrivileges, type BaseRole, type Privilege } from '../../shared/privileges.ts';
import type { CallerRow, UserRow } from '../areas/users/repo.ts';
import { tokenHash } from '../core/tokens.ts';
import type { Db, Queryable } from '../store/db.ts';
import { forbidden, invalidToken } from './errors.ts';
import type { RawParams } from './params.ts';
import { trimEnd } from '../../shared/trim.ts';

export interface Caller {
  userId: string;
  username: string;
  orgId: string;
  role: BaseRole;
  roleId: string | null;
  privileges: ReadonlySet<Privilege>;
  /** `org_admin` with no custom role: the only callers who manage roles (spec §5). */
  isDefaultAdmin: boolean;
  /** The member's record as read on this request. */
  user: UserRow;
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

/**
 * What resolving a caller reads of the users area's rows. The app hands these over when it is built
 * (provideCallerLookups), as it hands CORS the allowed origins: request handling imports no area.
 */
export interface CallerLookups {
  /** The member named by the token with this hash, with the token's expiry and binding (prepared as `resolve_caller`). */
  callerRowOfToken(db: Db, hash: string): Promise<CallerRow | undefined>;
  /** The username of the caller's organization's member with this id. */
  orgMemberUsernameById(q: Queryable, id: string, orgId: string): Promise<string | undefined>;
  /** The stored username of the caller's organization's member with this username in any case. */
  orgMemberUsernameByName(q: Queryable, username: string, orgId: string): Promise<string | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The users area's lookups request handling resolves callers and path users with (provideCallerLookups). */
    callerLookups: CallerLookups;
  }
}

/** Called by the app before any route is declared: operations and uploads take the lookups from here. */
export function provideCallerLookups(app: FastifyInstance, lookups: CallerLookups): void {
  app.decorate('callerLookups', lookups);
}

/** What a request says about where it was sent from (its Referer and Origin headers). */
export interface SentFrom {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * `sentFrom`: the request carrying the token. A token issued with `client=referer` works only from
 * that referer (generateToken's documented binding), so a stolen one is refused elsewhere.
 */
export async function resolveCaller(lookups: CallerLookups, db: Db, token: string, now: number, sentFrom: SentFrom): Promise<Caller> {
  return callerOfRow(keptRow(db, token) ?? (await readRow(lookups, db, token)), now, sentFrom);
}

/** The caller a token's row names, or the refusal (no such token, expired, disabled, bound to another referer). */
function callerOfRow(row: CallerRow | undefined, now: number, sentFrom: SentFrom): Caller {
  if (!row || row.token_expires <= now || row.disabled) throw invalidToken();
  if (row.token_client === 'referer' && row.token_referer && !sentFromReferer(sentFrom, row.token_referer)) throw invalidToken();
  // The same row object comes back only while no write has happened (embedded database): the
  // caller built from it is then still exact, and is reused rather than built again.
  let caller = CALLERS.get(row);
  if (!caller) CALLERS.set(row, (caller = callerFromUser(row)));
  return caller;
}
const CALLERS = new WeakMap<CallerRow, Caller>();

/**
 * The token's row as last read, per database, while that database's write generation has not
 * moved (the embedded database: one process owns it, and any write of any kind moves the
 * generation, so a revoked token, a disabled member or a changed role is read again on the next
 * request, ASVS 8.3.2). It spares a request the token's hash and the statement's lookup. PostgreSQL
 * has no generation (other processes write): nothing is kept, every request reads. Expiry and the
 * referer binding are checked on every request by the caller of this.
 */
interface KeptRows {
  generation: number;
  rows: Map<string, CallerRow>;
}
const KEPT = new WeakMap<Db, KeptRows>();
/** Tokens kept per generation at most (a generation rarely lasts long enough to see this many). */
const KEPT_MAX = 1000;

function keptRow(db: Db, token: string): CallerRow | undefined {
  const kept = KEPT.get(db);
  return kept && kept.generation === db.writeGeneration?.() ? kept.rows.get(token) : undefined;
}

/** Read on every request (unless kept above); the embedded database also keeps the statement's answer until the next write. */
async function readRow(lookups: CallerLookups, db: Db, token: string): Promise<CallerRow | undefined> {
  const generation = db.writeGeneration?.();
  const row = await lookups.callerRowOfToken(db, tokenHash(token));
  // Kept only if nothing was written while it was read; an unknown token is not kept (it is read each time).
  if (row && generation !== undefined && db.writeGeneration?.() === generation) {
    let kept = KEPT.get(db);
    if (!kept || kept.generation !== generation) KEPT.set(db, (kept = { generation, rows: new Map() }));
    if (kept.rows.size >= KEPT_MAX) kept.rows.clear();
    kept.rows.set(token, row);
  }
  return row;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller this request's token resolved to, kept so one request reads its token once. */
    resolvedCaller?: { token: string; caller: Caller };
  }
}

/**
 * The request's caller for `token`, read once per request: a multipart upload authorises its caller
 * before storing a file, and the operation's handler then reuses that answer.
 */
export function callerOfRequest(req: FastifyRequest, lookups: CallerLookups, db: Db, token: string, now: number): Caller | Promise<Caller> {
  if (req.resolvedCaller?.token === token) return req.resolvedCaller.caller;
  // A kept row (most requests on the embedded database) answers at once, without a promise and the
  // turn of the microtask queue awaiting one costs; refusals are thrown the same either way.
  const kept = keptRow(db, token);
  if (kept) return rememberCaller(req, token, callerOfRow(kept, now, req));
  return readRow(lookups, db, token).then((row) => rememberCaller(req, token, callerOfRow(row, now, req)));
}

function rememberCaller(req: FastifyRequest, token: string, caller: Caller): Caller {
  req.resolvedCaller = { token, caller };
  return caller;
}

/**
 * Whether a request comes from the referer a token was issued for. The Referer header matches when
 * it is that referer or continues it at a path, query or fragment boundary (a page under the
 * application's base URL); the Origin header matches when it is the referer's origin, because
 * browsers send only the origin to other sites (Referrer-Policy) but always send Origin on CORS
 * requests. A referer that is not a URL (rest-js in Node sends "@esri/arcgis-rest-js") must come
 * back exactly. No header at all does not match.
 */
export function sentFromReferer(sentFrom: SentFrom, referer: string): boolean {
  const header = (name: string) => {
    const v = sentFrom.headers[name];
    return typeof v === 'string' ? v.trim() : undefined;
  };
  const bound = referer.trim();
  const sentReferer = header('referer');
  if (sentReferer !== undefined) {
    if (sentReferer === bound) return true;
    const base = trimEnd(bound, '/');
    if (sentReferer.startsWith(base) && /^[/?#]/.test(sentReferer.slice(base.length))) return true;
  }
  const origin = header('origin');
  if (origin && origin !== 'null') {
    const boundOrigin = originOf(bound);
    if (boundOrigin && origin === boundOrigin) return true;
  }
  return false;
}

function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

export function callerFromUser(user: UserRow): Caller {
  const privileges = rolePrivileges(user.role, user.role_id ? (user.role_privileges ?? []) : null);
  return {
    userId: user.id,
    username: user.username,
    orgId: user.org_id,
    role: user.role,
    roleId: user.role_id,
    privileges,
    isDefaultAdmin: user.role === 'org_admin' && !user.role_id,
    user,
  };
}

/** Who did it, as events and history record a caller. */
export const actorOf = (caller: Pick<Caller, 'userId' | 'username'>) => ({ userId: caller.userId, username: caller.username });

/** The path's user must be the caller (content/users/<u>/… operations act as that user). */
export function assertPathUser(caller: Caller, username: string): void {
  if (caller.username.toLowerCase() !== username.toLowerCase()) throw forbidden(`Only ${username} can do this.`);
}
