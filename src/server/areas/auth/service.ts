/**
 * Sign-in: `generateToken`. Wrong credentials all get one answer (no account enumeration);
 * consecutive failures lock the account for a growing time (ASVS 6.3.1).
 */
import type { TokenResponse } from '../../../shared/contract/users.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { claimSignInAttempt, findUserForSignIn, recordFailedSignIn, recordSignIn, type UserRow } from '../users/service.ts';
import { decoyHash, verifyPassword } from './passwords.ts';
import { newToken, tokenHash } from './tokens.ts';

const signInFailed = (detail: string) => new ApiError(400, 'Unable to generate token.', [detail]);

/** When the account locks after `failures` consecutive failures: 0 for "not locked". */
export function lockUntil(now: number, failures: number): number {
  const over = failures - LIMITS.failedSignInsBeforeLock;
  if (over < 0) return 0;
  const seconds = Math.min(LIMITS.firstLockSeconds * 2 ** over, LIMITS.maxLockSeconds);
  return now + seconds * 1000;
}

export interface SignInRequest {
  username: string;
  password: string;
  expiration?: number;
  client?: string;
  referer?: string;
}

/**
 * Checks a member's credentials with the throttling and lockout every sign-in shares
 * (generateToken and the OAuth sign-in page): the member on success, else the one
 * "Unable to generate token." error whose detail says why (wrong credentials, locked, disabled).
 */
export async function authenticate(ctx: PortalContext, username: string, password: string): Promise<UserRow> {
  const now = ctx.clock.now();
  const user = await findUserForSignIn(ctx.db, username);
  if (!user) {
    await verifyPassword(password, await decoyHash(ctx.config.passwordLogN));
    throw signInFailed('Invalid username or password.');
  }
  const locked = (until: number) => signInFailed(`Too many invalid sign-in attempts. Try again in ${Math.ceil((until - now) / 1000)} seconds.`);
  // Every failure of an existing member is in the organization's history (failedlogin).
  const failed = async (reason: 'password' | 'locked' | 'disabled', err: ApiError) => {
    await ctx.db.tx((q) => recordFailedSignIn(q, user, now, reason));
    return err;
  };
  if (user.locked_until > now) throw await failed('locked', locked(user.locked_until));
  // The attempt counts as a failure before the (deliberately slow) password check, so that
  // parallel guesses cannot all pass the lock check; a success below resets the count.
  const attempt = await ctx.db.tx((q) => claimSignInAttempt(q, user.id, now, (failures) => lockUntil(now, failures)));
  if ('lockedUntil' in attempt) throw await failed('locked', locked(attempt.lockedUntil));
  if (!(await verifyPassword(password, user.password_hash))) throw await failed('password', signInFailed('Invalid username or password.'));
  if (user.disabled) throw await failed('disabled', signInFailed('This account has been disabled.'));
  return user;
}

export async function generateToken(ctx: PortalContext, req: SignInRequest): Promise<TokenResponse> {
  const user = await authenticate(ctx, req.username, req.password);
  const now = ctx.clock.now();
  const minutes = Math.min(req.expiration ?? LIMITS.defaultTokenExpirationMinutes, LIMITS.maxTokenExpirationMinutes);
  const token = newToken();
  const expires = now + minutes * 60_000;
  await ctx.db.tx(async (q) => {
    await recordSignIn(q, user.id, now);
    // Expired tokens of this member are swept whenever they sign in.
    await q.query('DELETE FROM tokens WHERE user_id = $1 AND expires <= $2', [user.id, now]);
    await q.query('INSERT INTO tokens (token_hash, user_id, created, expires, client, referer) VALUES ($1, $2, $3, $4, $5, $6)', [
      tokenHash(token),
      user.id,
      now,
      expires,
      req.client ?? null,
      req.referer?.slice(0, 512) ?? null,
    ]);
  });
  return { token, expires, ssl: false };
}

/**
 * Sign-out: the token stops working at once (ASVS 7.4.1). `auth_token` may be an access token or
 * an OAuth refresh token; a refresh token takes the access tokens issued from it along (the
 * tokens.refresh_hash cascade). Unknown tokens are not an error (RFC 7009 §2.2).
 */
export async function revokeToken(ctx: PortalContext, token: string): Promise<{ success: true }> {
  const hash = tokenHash(token);
  await ctx.db.tx(async (q) => {
    await q.query('DELETE FROM tokens WHERE token_hash = $1', [hash]);
    await q.query('DELETE FROM oauth_refresh_tokens WHERE token_hash = $1', [hash]);
  });
  return { success: true };
}
