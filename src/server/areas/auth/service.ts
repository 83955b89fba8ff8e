/**
 * Sign-in: `generateToken`. Wrong credentials all get one answer (no account enumeration);
 * failures are throttled by username and source with a growing wait (throttle.ts, ASVS 6.3.1),
 * so a stranger's failures never shut the owner out at another address.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TokenResponse } from '../../../shared/contract/users.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError } from '../../http/errors.ts';
import type { Target } from '../../http/target.ts';
import { httpsOnly } from '../../http/tls.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { findUserForSignIn, memberOfCallersOrg, recordFailedSignIn, recordSignIn, type UserRow } from '../users/service.ts';
import { decoyHash, verifyPassword } from '../../core/passwords.ts';
import { deleteExpiredTokensOf, deleteForgottenThrottleCounts, deleteTokenByHash, insertToken } from './repo.ts';
import { attemptSucceeded, claimAttempt, clearUsername, forgottenBefore, slowdownMs } from './throttle.ts';
import { newToken, tokenHash } from '../../core/tokens.ts';

const signInFailed = (detail: string) => new ApiError(400, 'Unable to generate token.', [detail]);
const INVALID = 'Invalid username or password.';

export interface SignInRequest {
  username: string;
  password: string;
  expiration?: number;
  client?: string;
  referer?: string;
}

/**
 * Checks a member's credentials with the throttling every sign-in shares (generateToken and the
 * OAuth sign-in page): the member on success, else the one "Unable to generate token." error whose
 * detail says why (wrong credentials, wait, disabled). `source` is the client's address (req.ip).
 *
 * An unknown username goes through exactly the same steps as an existing one — counted, refused,
 * slowed, and one password hash verified (a decoy) — so neither the words nor the time of an
 * answer tell whether the account exists. Only a right password can learn that it is disabled.
 */
export async function authenticate(ctx: PortalContext, username: string, password: string, source: string): Promise<UserRow> {
  if (!username) throw signInFailed(INVALID);
  const now = ctx.clock.now();
  const [user, claim] = await Promise.all([findUserForSignIn(ctx.db, username), ctx.db.tx((q) => claimAttempt(q, username, source, now))]);
  // Guessing from many sources slows every sign-in of the username a little, the owner's included.
  const hold = slowdownMs(claim.accountFailures);
  if (hold) await sleep(hold);
  if (claim.refused) {
    // As costly as a checked password, so a wait cannot be told from a wrong password by its time.
    await verifyPassword(password, await decoyHash(ctx.config.passwordLogN));
    throw signInFailed(`Too many invalid sign-in attempts. Try again in ${Math.ceil((claim.until - now) / 1000)} seconds.`);
  }
  const right = await verifyPassword(password, user?.password_hash ?? (await decoyHash(ctx.config.passwordLogN)));
  if (user && right && !user.disabled) {
    await ctx.db.tx((q) => attemptSucceeded(q, username, source, claim));
    return user;
  }
  // Failures of an existing member are in the organization's history (failedlogin): each checked
  // password, and a lockout once when it begins — not the refused attempts that follow.
  if (user)
    await ctx.db.tx(async (q) => {
      await recordFailedSignIn(q, user, now, right ? 'disabled' : 'password');
      if (claim.locksUntil) await recordFailedSignIn(q, user, now, 'locked', { lockedUntil: claim.locksUntil });
    });
  throw signInFailed(right && user?.disabled ? 'This account has been disabled.' : INVALID);
}

export async function generateToken(ctx: PortalContext, req: SignInRequest, source: string): Promise<TokenResponse> {
  const user = await authenticate(ctx, req.username, req.password, source);
  const now = ctx.clock.now();
  const minutes = Math.min(req.expiration ?? LIMITS.defaultTokenExpirationMinutes, LIMITS.maxTokenExpirationMinutes);
  const token = newToken();
  const expires = now + minutes * 60_000;
  await ctx.db.tx(async (q) => {
    await recordSignIn(q, user.id, now);
    // Expired tokens of this member are swept whenever they sign in.
    await deleteExpiredTokensOf(q, user.id, now);
    await insertToken(q, {
      tokenHash: tokenHash(token),
      userId: user.id,
      created: now,
      expires,
      client: req.client ?? null,
      referer: req.referer?.slice(0, 512) ?? null,
    });
  });
  return { token, expires, ssl: httpsOnly(ctx.config) };
}

/**
 * Sign-out: the token stops working at once (ASVS 7.4.1). `auth_token` may be an access token or
 * an OAuth refresh token; a refresh token takes the access tokens issued from it along (the
 * tokens.refresh_hash cascade). Unknown tokens are not an error (RFC 7009 §2.2).
 */
export async function revokeToken(ctx: PortalContext, token: string): Promise<{ success: true }> {
  const hash = tokenHash(token);
  await ctx.db.tx((q) => deleteTokenByHash(q, hash));
  return { success: true };
}

const UNLOCK_REFUSAL = "Only a default administrator can unlock a member's sign-in.";

/** The member of the caller's organization the path names, decided with MEMBER_OPERATIONS.unlockSignIn (the member's own account included). */
export const MEMBER_TO_UNLOCK: Target<UserRow> = {
  refusals: { otherOrg: UNLOCK_REFUSAL, notDefaultAdmin: UNLOCK_REFUSAL },
  async load({ caller, path, portal }) {
    const member = await memberOfCallersOrg(portal.db, caller, path.username);
    return { value: member, orgId: member.org_id };
  },
};

/**
 * `community/users/<user>/unlockSignIn` (local extra: the public API has no such operation). ArcGIS
 * reserves managing members' sign-in (enable, disable) to the organization's administrators; here
 * only default administrators may lift the waits, since a partial administrator (say one holding
 * portal:admin:updateUsers) could otherwise undo the throttling of an account being guessed
 * (MEMBER_OPERATIONS.unlockSignIn). `member` has been authorized (MEMBER_TO_UNLOCK).
 */
export async function unlockSignIn(ctx: PortalContext, caller: Caller, member: UserRow): Promise<{ success: true; username: string; sourcesUnlocked: number }> {
  const now = ctx.clock.now();
  const sourcesUnlocked = await ctx.db.tx(async (q) => {
    const n = await clearUsername(q, member.username, now);
    await recordEvent(q, {
      orgId: member.org_id,
      source: 'session',
      operation: 'unlockSignIn',
      subjectId: member.username,
      actor: actorOf(caller),
      when: now,
      history: { op: 'updateUser', title: member.full_name, data: { signIn: 'unlocked', sourcesUnlocked: n } },
    });
    return n;
  });
  return { success: true, username: member.username, sourcesUnlocked };
}

/** The retention sweep of expired access tokens (signed-out ones are deleted at sign-out). */
export { deleteExpiredTokens } from './repo.ts';

/** The retention sweep: sign-in failure counts nobody has added to for a day (and whose wait is over) start from zero anyway. */
export function forgetSignInFailures(q: Queryable, now: number, batch: number): Promise<unknown[]> {
  return deleteForgottenThrottleCounts(q, forgottenBefore(now), now, batch);
}

/** The throttle's source of a request (an address, IPv6 by its /64), which oauth's sign-in form counts failures by too. */
export { sourceOf } from './throttle.ts';
