/**
 * Sign-in throttling by username and source, with exponential backoff (OWASP Authentication Cheat
 * Sheet, "Login Throttling"; ASVS 6.3.1). An account-wide lock let any stranger shut the owner
 * out with a few wrong passwords, so no count here ever refuses the owner at another address:
 *
 * - one source's failures on one username: after LIMITS.failedSignInsBeforeLock, that source
 *   waits (60 s, doubling per further failure, at most 30 min) for that username only;
 * - one source's failures on all usernames (password spraying): after
 *   LIMITS.failedSignInsPerSourceBeforeLock, that source waits the same way for every username;
 * - all sources' failures on one username (guessing from many addresses): each sign-in of that
 *   username is slowed a little (at most LIMITS.signInSlowMaxMs), never refused.
 *
 * The username is the text tried, not the member: unknown usernames are counted, refused and
 * slowed exactly as existing ones, so no answer tells them apart. Counts live in the database
 * (migration 017) so that every instance sees them; an attempt is counted before its password is
 * checked, under row locks, so a burst of parallel guesses cannot all pass the check.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { LIMITS } from '../../../shared/limits.ts';
import type { Queryable } from '../../store/db.ts';
import { deletePairAndUsernameCounts, deleteUsernameCounts, lockThrottleCounts, storeThrottleFailures, uncountSourceFailure } from './repo.ts';

const FORGET_MS = LIMITS.signInFailuresForgottenHours * 3_600_000;

/**
 * The source an attempt is counted against: the client address, an IPv4-mapped IPv6 address as
 * IPv4, and an IPv6 address by its /64 prefix (one subscriber usually holds a whole /64, so
 * counting single addresses would give one attacker 2^64 fresh sources).
 */
export function sourceOf(ip: string | undefined): string {
  // The zone (`%eth0`) is no part of the source; cut at the first `%` (the pattern `%.*$` is quadratic in a run of `%`).
  const a = (ip ?? '').trim().toLowerCase().split('%')[0];
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(a)) return a;
  if (isIPv6(a)) return `${ipv6Groups(a).slice(0, 4).join(':')}::/64`;
  return a ? a.slice(0, 64) : 'unknown';
}

/** The eight 16-bit groups of an IPv6 address, as lower-case hex without leading zeros. */
function ipv6Groups(a: string): string[] {
  let text = a;
  // A trailing dotted IPv4 part is two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':') : []);
  const groups = tail === undefined ? part(head) : [...part(head), ...Array<string>(8 - part(head).length - part(tail).length).fill('0'), ...part(tail)];
  return groups.map((g) => parseInt(g || '0', 16).toString(16));
}

/** When a count of `failures` (this one included) makes its source wait: 0 while under `free`. */
export function blockedUntil(now: number, failures: number, free: number): number {
  if (failures < free) return 0;
  const seconds = Math.min(LIMITS.firstLockSeconds * 2 ** Math.min(failures - free, 30), LIMITS.maxLockSeconds);
  return now + seconds * 1000;
}

/** How long a sign-in of a username with `failures` recent failures (from all sources) is held. */
export function slowdownMs(failures: number): number {
  if (failures < LIMITS.signInSlowAfterFailures) return 0;
  return Math.min(100 * 2 ** Math.min(failures - LIMITS.signInSlowAfterFailures, 30), LIMITS.signInSlowMaxMs);
}

export type Claim =
  /** The source must wait until `until`: no password is checked and nothing is counted. */
  | { refused: true; until: number; accountFailures: number }
  /**
   * Counted as a failure (undone by attemptSucceeded). `locksUntil` is set when this failure makes
   * the source wait for this username; `sourceLocksUntil` when it makes the source wait for all.
   */
  | { refused: false; accountFailures: number; locksUntil: number; sourceLocksUntil: number };

/**
 * Counts an attempt of `source` on `username` before its password is checked. Run it in a
 * transaction: the three rows are locked in one order (pair, source, username) by every attempt,
 * which serialises concurrent attempts on a shared row without deadlocks.
 */
export async function claimAttempt(q: Queryable, username: string, source: string, now: number): Promise<Claim> {
  // Locks (creating when absent) and reads the three rows in one statement.
  const rows = await lockThrottleCounts(q, username, source);
  const find = (u: string, s: string) => {
    const r = rows.find((x) => x.username === u && x.source === s);
    // A count not added to for the forgetting time starts again.
    return r && r.last_failure > now - FORGET_MS ? r : { failures: 0, blocked_until: 0 };
  };
  const pair = find(username, source);
  const bySource = find('', source);
  const account = find(username, '');
  const until = Math.max(pair.blocked_until, bySource.blocked_until);
  if (until > now) return { refused: true, until, accountFailures: account.failures };

  const locksUntil = blockedUntil(now, pair.failures + 1, LIMITS.failedSignInsBeforeLock);
  const sourceLocksUntil = blockedUntil(now, bySource.failures + 1, LIMITS.failedSignInsPerSourceBeforeLock);
  await storeThrottleFailures(q, username, source, now, {
    pairFailures: pair.failures + 1,
    pairBlockedUntil: locksUntil,
    sourceFailures: bySource.failures + 1,
    sourceBlockedUntil: sourceLocksUntil,
    accountFailures: account.failures + 1,
  });
  return { refused: false, accountFailures: account.failures, locksUntil, sourceLocksUntil };
}

/**
 * The password was right: this source's count on this username and the username's count from all
 * sources start again, and the attempt no longer counts against the source (nor any wait it began).
 * The source's other failures stay: signing in to an account of one's own must not wipe them.
 */
export async function attemptSucceeded(q: Queryable, username: string, source: string, claim: Claim & { refused: false }): Promise<void> {
  await deletePairAndUsernameCounts(q, username, source);
  await uncountSourceFailure(q, source, claim.sourceLocksUntil || -1);
}

/**
 * Lifts every wait and count on a username (an administrator's unlock): all its sources' and its
 * own. A source waiting for every username is not lifted — it failed on others too. Answers how
 * many sources were waiting for this username.
 */
export async function clearUsername(q: Queryable, username: string, now: number): Promise<number> {
  const rows = await deleteUsernameCounts(q, username);
  return rows.filter((r) => r.blocked_until > now).length;
}

/** Rows nobody has failed on for the forgetting time and with no wait left: for the retention sweep. */
export function forgottenBefore(now: number): number {
  return now - Math.max(FORGET_MS, LIMITS.maxLockSeconds * 1000);
}
