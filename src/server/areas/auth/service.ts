/**
 * Sign-in: `generateToken`. Wrong credentials all get one answer (no account enumeration);
 * consecutive failures lock the account for a growing time (ASVS 6.3.1).
 */
import type { TokenResponse } from '../../../shared/contract/users.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { claimSignInAttempt, findUserForSignIn, recordSignIn } from '../users/repo.ts';
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

export async function generateToken(ctx: PortalContext, req: SignInRequest): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const user = await findUserForSignIn(ctx.db, req.username);
  if (!user) {
    await verifyPassword(req.password, await decoyHash(ctx.config.passwordLogN));
    throw signInFailed('Invalid username or password.');
  }
  const locked = (until: number) => signInFailed(`Too many invalid sign-in attempts. Try again in ${Math.ceil((until - now) / 1000)} seconds.`);
  if (user.locked_until > now) throw locked(user.locked_until);
  // The attempt counts as a failure before the (deliberately slow) password check, so that
  // parallel guesses cannot all pass the lock check; a success below resets the count.
  const attempt = await ctx.db.tx((q) => claimSignInAttempt(q, user.id, now, (failures) => lockUntil(now, failures)));
  if ('lockedUntil' in attempt) throw locked(attempt.lockedUntil);
  if (!(await verifyPassword(req.password, user.password_hash))) throw signInFailed('Invalid username or password.');
  if (user.disabled) throw signInFailed('This account has been disabled.');

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

/** Sign-out: the token stops working at once (ASVS 7.4.1). Unknown tokens are not an error. */
export async function revokeToken(ctx: PortalContext, token: string): Promise<{ success: true }> {
  await ctx.db.query('DELETE FROM tokens WHERE token_hash = $1', [tokenHash(token)]);
  return { success: true };
}
