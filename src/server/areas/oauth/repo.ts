/** SQL for OAuth: registered apps, sign-in forms, authorization codes and refresh tokens. */
import type { AppType } from '../../../shared/contract/oauth.ts';
import type { Queryable } from '../../store/db.ts';

export interface AppRow {
  client_id: string;
  item_id: string;
  org_id: string;
  app_type: AppType;
  redirect_uris: string[];
  http_referrers: string[];
  privileges: string[];
  console: boolean;
  registered: number;
  modified: number;
  /** From the item: its owner and title (the sign-in page names the app by its title). */
  owner_id: string;
  owner_username: string;
  title: string;
}

const SELECT_APP = `
  SELECT a.client_id, a.item_id, a.org_id, a.app_type, a.redirect_uris, a.http_referrers, a.privileges, a.console,
         a.registered, a.modified, i.owner_id, u.username AS owner_username, i.title
    FROM oauth_apps a
    JOIN items i ON i.id = a.item_id
    JOIN users u ON u.id = i.owner_id`;

export async function findApp(q: Queryable, clientId: string): Promise<AppRow | undefined> {
  const [row] = await q.query<AppRow>(`${SELECT_APP} WHERE a.client_id = $1`, [clientId]);
  return row;
}

export async function findAppByItem(q: Queryable, itemId: string): Promise<AppRow | undefined> {
  const [row] = await q.query<AppRow>(`${SELECT_APP} WHERE a.item_id = $1`, [itemId]);
  return row;
}

export async function findConsoleApp(q: Queryable): Promise<AppRow | undefined> {
  const [row] = await q.query<AppRow>(`${SELECT_APP} WHERE a.console`);
  return row;
}

export interface NewApp {
  clientId: string;
  itemId: string;
  orgId: string;
  secretHash: string;
  appType: AppType;
  redirectUris: string[];
  httpReferrers: string[];
  console?: boolean;
  now: number;
}

export async function insertApp(q: Queryable, a: NewApp): Promise<void> {
  await q.query(
    `INSERT INTO oauth_apps (client_id, item_id, org_id, client_secret_hash, app_type, redirect_uris, http_referrers, console, registered, modified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [a.clientId, a.itemId, a.orgId, a.secretHash, a.appType, JSON.stringify(a.redirectUris), JSON.stringify(a.httpReferrers), a.console ?? false, a.now],
  );
}

export async function updateApp(
  q: Queryable,
  clientId: string,
  change: { appType?: AppType; redirectUris?: string[]; httpReferrers?: string[] },
  now: number,
): Promise<void> {
  await q.query(
    `UPDATE oauth_apps SET app_type = COALESCE($2, app_type), redirect_uris = COALESCE($3::jsonb, redirect_uris),
            http_referrers = COALESCE($4::jsonb, http_referrers), modified = $5
      WHERE client_id = $1`,
    [
      clientId,
      change.appType ?? null,
      change.redirectUris ? JSON.stringify(change.redirectUris) : null,
      change.httpReferrers ? JSON.stringify(change.httpReferrers) : null,
      now,
    ],
  );
}

/** Adds or removes the item's `Registered App` type keyword (and touches the item). */
export async function setItemKeyword(q: Queryable, itemId: string, keyword: string, present: boolean, now: number): Promise<void> {
  await q.query(
    present
      ? `UPDATE items SET type_keywords = array_append(array_remove(type_keywords, $2), $2), modified = $3 WHERE id = $1`
      : `UPDATE items SET type_keywords = array_remove(type_keywords, $2), modified = $3 WHERE id = $1`,
    [itemId, keyword, now],
  );
}

// ------------------------------------------------------------------ sign-in forms

/** The OAuth parameters a sign-in form carries (formSeal.ts): what an authorization code is issued for. */
export interface SignInFormRow {
  binding_hash: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  code_challenge_method: 'S256' | 'plain';
  expiration: number | null;
  expires: number;
}

/**
 * Records a form as spent by a successful sign-in; false when it already was. The forms themselves
 * are not stored (they are signed and carried by the page): only spent ones, until their end, and
 * only after a password was checked, so anonymous views write nothing. Retention sweeps them.
 */
export async function spendSignInForm(q: Queryable, id: string, f: SignInFormRow, now: number): Promise<boolean> {
  const inserted = await q.query(
    `INSERT INTO oauth_sign_in_forms (nonce_hash, binding_hash, client_id, redirect_uri, state, code_challenge, code_challenge_method, expiration, created, expires)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (nonce_hash) DO NOTHING
     RETURNING nonce_hash`,
    [id, f.binding_hash, f.client_id, f.redirect_uri, f.state, f.code_challenge, f.code_challenge_method, f.expiration, now, f.expires],
  );
  return inserted.length > 0;
}

// ------------------------------------------------------------------ codes and refresh tokens

export async function findMember(q: Queryable, userId: string): Promise<{ id: string; username: string; disabled: boolean } | undefined> {
  const [row] = await q.query<{ id: string; username: string; disabled: boolean }>('SELECT id, username, disabled FROM users WHERE id = $1', [userId]);
  return row;
}

export interface CodeRow {
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: 'S256' | 'plain';
  expiration: number | null;
  expires: number;
}

export async function insertCode(q: Queryable, codeHash: string, c: Omit<CodeRow, 'expires'>, now: number, expires: number): Promise<void> {
  // Expired and never-exchanged codes go as new ones are issued.
  await q.query('DELETE FROM oauth_codes WHERE expires <= $1', [now]);
  await q.query(
    `INSERT INTO oauth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, code_challenge_method, expiration, created, expires)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [codeHash, c.client_id, c.user_id, c.redirect_uri, c.code_challenge, c.code_challenge_method, c.expiration, now, expires],
  );
}

/**
 * Consumes a code: one statement deletes and returns it, so of two concurrent exchanges only one
 * gets the row. Any presentation burns the code, a failed one included.
 */
export async function takeCode(q: Queryable, codeHash: string): Promise<CodeRow | undefined> {
  const [row] = await q.query<CodeRow>('DELETE FROM oauth_codes WHERE code_hash = $1 RETURNING *', [codeHash]);
  return row;
}

export interface RefreshRow {
  token_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  expires: number;
}

export async function insertRefreshToken(q: Queryable, r: Omit<RefreshRow, 'expires'>, now: number, expires: number): Promise<void> {
  await q.query('DELETE FROM oauth_refresh_tokens WHERE user_id = $1 AND expires <= $2', [r.user_id, now]);
  await q.query('INSERT INTO oauth_refresh_tokens (token_hash, client_id, user_id, redirect_uri, created, expires) VALUES ($1, $2, $3, $4, $5, $6)', [
    r.token_hash,
    r.client_id,
    r.user_id,
    r.redirect_uri,
    now,
    expires,
  ]);
}

export async function findRefreshToken(q: Queryable, tokenHash: string): Promise<RefreshRow | undefined> {
  const [row] = await q.query<RefreshRow>('SELECT token_hash, client_id, user_id, redirect_uri, expires FROM oauth_refresh_tokens WHERE token_hash = $1', [
    tokenHash,
  ]);
  return row;
}

export async function deleteRefreshToken(q: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM oauth_refresh_tokens WHERE token_hash = $1 RETURNING token_hash', [tokenHash]);
  return rows.length > 0;
}

export async function insertAccessToken(
  q: Queryable,
  t: { tokenHash: string; userId: string; clientId: string; refreshHash: string | null; now: number; expires: number },
): Promise<void> {
  await q.query('DELETE FROM tokens WHERE user_id = $1 AND expires <= $2', [t.userId, t.now]);
  await q.query(`INSERT INTO tokens (token_hash, user_id, created, expires, client, client_id, refresh_hash) VALUES ($1, $2, $3, $4, 'oauth', $5, $6)`, [
    t.tokenHash,
    t.userId,
    t.now,
    t.expires,
    t.clientId,
    t.refreshHash,
  ]);
}

/** Locks item `itemId` for the rest of the transaction (registering it as an app). */
export async function lockItem(q: Queryable, itemId: string): Promise<void> {
  await q.query('SELECT 1 FROM items WHERE id = $1 FOR UPDATE', [itemId]);
}

export async function deleteApp(q: Queryable, clientId: string): Promise<void> {
  await q.query('DELETE FROM oauth_apps WHERE client_id = $1', [clientId]);
}

/** Serialises registering the console app across processes starting together (until the transaction ends). */
export async function lockConsoleAppRegistration(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(727276)');
}

/** The member named `username` (any case) in the oldest organization that has one. */
export async function findAdminByUsername(q: Queryable, username: string): Promise<{ id: string; org_id: string } | undefined> {
  const [admin] = await q.query<{ id: string; org_id: string }>(
    `SELECT u.id, u.org_id FROM users u JOIN organizations o ON o.id = u.org_id
      WHERE lower(u.username) = lower($1) ORDER BY o.created LIMIT 1`,
    [username],
  );
  return admin;
}

/** Inserts the console's Application item, delete-protected. */
export async function insertConsoleAppItem(
  q: Queryable,
  item: { id: string; orgId: string; ownerId: string; title: string; typeKeywords: string[]; snippet: string; tags: string[]; now: number },
): Promise<void> {
  await q.query(
    // Delete-protected: deleting it would end "Sign in with …" for everyone (migration 030 protects one registered before).
    `INSERT INTO items (id, org_id, owner_id, title, type, type_keywords, snippet, tags, created, modified, protected)
     VALUES ($1, $2, $3, $4, 'Application', $5, $6, $7, $8, $8, true)`,
    [item.id, item.orgId, item.ownerId, item.title, item.typeKeywords, item.snippet, item.tags, item.now],
  );
}

/**
 * The server key named `name`, stored as `candidate` (base64) if none is yet: two instances starting
 * together both insert, one wins, both read the winner's key.
 */
export async function findOrInsertServerKey(q: Queryable, name: string, candidate: string, now: number): Promise<string> {
  await q.query('INSERT INTO server_keys (name, key, created) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [name, candidate, now]);
  const [row] = await q.query<{ key: string }>('SELECT key FROM server_keys WHERE name = $1', [name]);
  return row.key;
}

/** The retention sweep: at most `batch` sign-in forms that expired by `now` (a row each, RETURNING 1). */
export async function deleteExpiredSignInForms(q: Queryable, now: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM oauth_sign_in_forms WHERE nonce_hash IN (SELECT nonce_hash FROM oauth_sign_in_forms WHERE expires <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
    [now, batch],
  );
}

/** The retention sweep: at most `batch` authorization codes that expired by `now` (a row each). */
export async function deleteExpiredCodes(q: Queryable, now: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM oauth_codes WHERE code_hash IN (SELECT code_hash FROM oauth_codes WHERE expires <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`,
    [now, batch],
  );
}

/**
 * The retention sweep: at most `batch` refresh tokens expired by `now` from which no access token is
 * still valid (deleting one ends the access tokens issued from it: the cascade), a row each.
 */
export async function deleteExpiredRefreshTokens(q: Queryable, now: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM oauth_refresh_tokens WHERE token_hash IN (
       SELECT r.token_hash FROM oauth_refresh_tokens r
        WHERE r.expires <= $1 AND NOT EXISTS (SELECT 1 FROM tokens t WHERE t.refresh_hash = r.token_hash AND t.expires > $1)
        LIMIT $2 FOR UPDATE OF r SKIP LOCKED)
     RETURNING 1`,
    [now, batch],
  );
}
