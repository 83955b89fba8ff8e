/** SQL for access tokens issued by sign-in, and their revocation. */
import type { Queryable } from '../../store/db.ts';

/** Deletes `userId`'s tokens that expired by `now`. */
export async function deleteExpiredTokensOf(q: Queryable, userId: string, now: number): Promise<void> {
  await q.query('DELETE FROM tokens WHERE user_id = $1 AND expires <= $2', [userId, now]);
}

export async function insertToken(
  q: Queryable,
  t: { tokenHash: string; userId: string; created: number; expires: number; client: string | null; referer: string | null },
): Promise<void> {
  await q.query('INSERT INTO tokens (token_hash, user_id, created, expires, client, referer) VALUES ($1, $2, $3, $4, $5, $6)', [
    t.tokenHash,
    t.userId,
    t.created,
    t.expires,
    t.client,
    t.referer,
  ]);
}

/** Deletes the access token or OAuth refresh token with this hash, whichever it is. */
export async function deleteTokenByHash(q: Queryable, hash: string): Promise<void> {
  await q.query('DELETE FROM tokens WHERE token_hash = $1', [hash]);
  await q.query('DELETE FROM oauth_refresh_tokens WHERE token_hash = $1', [hash]);
}
