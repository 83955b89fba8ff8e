/** SQL for access tokens issued by sign-in, their revocation, and sign-in throttling's counts. */
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

/** A sign-in throttle count: `username` '' counts a source on all usernames, `source` '' a username from all sources. */
export interface ThrottleRow {
  username: string;
  source: string;
  failures: number;
  last_failure: number;
  blocked_until: number;
}

/**
 * Locks (creating when absent) and reads the three counts of an attempt in one statement: the pair,
 * the source's, the username's, in that order (throttle.ts claimAttempt says why).
 */
export async function lockThrottleCounts(q: Queryable, username: string, source: string): Promise<ThrottleRow[]> {
  return q.query<ThrottleRow>(
    `INSERT INTO sign_in_throttle (username, source) VALUES ($1, $2), ('', $2), ($1, '')
     ON CONFLICT (username, source) DO UPDATE SET failures = sign_in_throttle.failures
     RETURNING username, source, failures, last_failure, blocked_until`,
    [username, source],
  );
}

/** Stores an attempt's three new counts, failed at `now`; the username's count never makes anyone wait. */
export async function storeThrottleFailures(
  q: Queryable,
  username: string,
  source: string,
  now: number,
  c: { pairFailures: number; pairBlockedUntil: number; sourceFailures: number; sourceBlockedUntil: number; accountFailures: number },
): Promise<void> {
  await q.query(
    `UPDATE sign_in_throttle t SET failures = v.failures, last_failure = $3, blocked_until = v.blocked
       FROM (VALUES ($1, $2, $4::int, $5::bigint), ('', $2, $6::int, $7::bigint), ($1, '', $8::int, 0::bigint)) AS v (username, source, failures, blocked)
      WHERE t.username = v.username AND t.source = v.source`,
    [username, source, now, c.pairFailures, c.pairBlockedUntil, c.sourceFailures, c.sourceBlockedUntil, c.accountFailures],
  );
}

/** Forgets the source's count on the username and the username's count from all sources. */
export async function deletePairAndUsernameCounts(q: Queryable, username: string, source: string): Promise<void> {
  await q.query(`DELETE FROM sign_in_throttle WHERE (username = $1 AND source = $2) OR (username = $1 AND source = '')`, [username, source]);
}

/** Takes one failure off the source's count on all usernames, and the wait it began when that wait ends at `blockedUntil`. */
export async function uncountSourceFailure(q: Queryable, source: string, blockedUntil: number): Promise<void> {
  await q.query(
    `UPDATE sign_in_throttle SET failures = greatest(failures - 1, 0), blocked_until = CASE WHEN blocked_until = $2 THEN 0 ELSE blocked_until END
      WHERE username = '' AND source = $1`,
    [source, blockedUntil],
  );
}

/** Deletes every count on the username (all its sources' and its own); answers when each had its wait end. */
export async function deleteUsernameCounts(q: Queryable, username: string): Promise<{ blocked_until: number }[]> {
  return q.query<{ blocked_until: number }>(`DELETE FROM sign_in_throttle WHERE username = $1 RETURNING blocked_until`, [username]);
}

/** The retention sweep: at most `batch` tokens that expired by `now` (a row each, RETURNING 1). */
export async function deleteExpiredTokens(q: Queryable, now: number, batch: number): Promise<unknown[]> {
  return q.query(`DELETE FROM tokens WHERE token_hash IN (SELECT token_hash FROM tokens WHERE expires <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1`, [
    now,
    batch,
  ]);
}

/** The retention sweep: at most `batch` counts last failed before `before` whose wait ended by `now` (a row each). */
export async function deleteForgottenThrottleCounts(q: Queryable, before: number, now: number, batch: number): Promise<unknown[]> {
  return q.query(
    `DELETE FROM sign_in_throttle WHERE (username, source) IN (
       SELECT username, source FROM sign_in_throttle WHERE last_failure < $1 AND blocked_until <= $2
        ORDER BY last_failure LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [before, now, batch],
  );
}
