/**
 * OAuth 2.0 rules (docs/oauth.md): registering apps, the authorization-code grant with PKCE,
 * refresh tokens. Codes, refresh tokens, access tokens and client secrets are 256-bit random
 * values stored as SHA-256; codes are single use and burn on any presentation.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  REGISTRABLE_ITEM_TYPES,
  REGISTERED_APP_KEYWORD,
  type OAuthTokenResponse,
  type RegisteredApp,
  type TokenParams,
} from '../../../shared/contract/oauth.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, forbidden } from '../../http/errors.ts';
import { httpsOnly } from '../../http/tls.ts';
import { recordEvent } from '../../store/events.ts';
import { alnumId } from '../../store/ids.ts';
import { newToken, tokenHash } from '../../core/tokens.ts';
import { findItem } from '../items/service.ts';
import { recordSignIn } from '../users/service.ts';
import * as repo from './repo.ts';

export const newClientId = () => alnumId(16);

/** An oauth2/token failure: the error envelope plus OAuth's `error` / `error_description`. */
export class OAuthError extends ApiError {
  constructor(
    code: number,
    readonly oauthError: string,
    description: string,
  ) {
    super(code, description, [description]);
  }
  override toBody() {
    return { ...super.toBody(), error: this.oauthError, error_description: this.message };
  }
}

const invalidGrant = (why: string) => new OAuthError(400, 'invalid_grant', why);
const invalidRefresh = (why: string) => new OAuthError(498, 'invalid_request', why);
export const appNotFound = () => new ApiError(400, 'Invalid client_id', ['Invalid client_id']);

// ------------------------------------------------------------------ registered apps

export function appJson(app: repo.AppRow, secret?: string): RegisteredApp {
  return {
    itemId: app.item_id,
    client_id: app.client_id,
    ...(secret ? { client_secret: secret } : {}),
    appType: app.app_type,
    redirect_uris: app.redirect_uris,
    httpReferrers: app.http_referrers,
    privileges: app.privileges,
    registered: app.registered,
    modified: app.modified,
    apnsProdCert: null,
    apnsSandboxCert: null,
    gcmApiKey: null,
    isBeta: false,
  };
}

export async function registerApp(
  ctx: PortalContext,
  caller: Caller,
  p: { itemId: string; appType: RegisteredApp['appType']; redirect_uris: string[]; httpReferrers: string[] },
): Promise<RegisteredApp> {
  const now = ctx.clock.now();
  const secret = randomBytes(32).toString('base64url');
  const clientId = newClientId();
  const itemId = p.itemId.toLowerCase();
  await ctx.db.tx(async (q) => {
    await repo.lockItem(q, itemId);
    const item = await findItem(q, itemId);
    // Someone else's item is "inaccessible" here as everywhere: its existence is not confirmed.
    if (!item || item.org_id !== caller.orgId)
      throw new ApiError(400, 'Item does not exist or is inaccessible.', [`Item '${p.itemId}' does not exist or is inaccessible.`], 'CONT_0001');
    if (item.owner_id !== caller.userId) throw forbidden("Only the item's owner may register it as an app.");
    if (!(REGISTRABLE_ITEM_TYPES as readonly string[]).includes(item.type)) {
      throw new ApiError(
        400,
        'Unable to register app.',
        [`Items of type '${item.type}' cannot be registered as apps; use an item of type Application.`],
        undefined,
        {
          itemId: 'must be an app item (type Application)',
        },
      );
    }
    if (await repo.findAppByItem(q, itemId)) {
      throw new ApiError(400, 'Unable to register app.', [`Item '${itemId}' is already registered as an app.`], undefined, { itemId: 'is already registered' });
    }
    await repo.insertApp(q, {
      clientId,
      itemId,
      orgId: item.org_id,
      secretHash: tokenHash(secret),
      appType: p.appType,
      redirectUris: dedupe(p.redirect_uris),
      httpReferrers: dedupe(p.httpReferrers),
      now,
    });
    await repo.setItemKeyword(q, itemId, REGISTERED_APP_KEYWORD, true, now);
    // The item changed (its type keywords): the same event an item update writes.
    await recordEvent(q, {
      orgId: item.org_id,
      source: 'item',
      operation: 'update',
      subjectId: itemId,
      actor: actorOf(caller),
      when: now,
      history: { op: 'registerApp', data: { after: { registeredApp: true } } },
    });
  });
  const app = await repo.findApp(ctx.db, clientId);
  return appJson(app!, secret);
}

const dedupe = (list: string[]) => [...new Set(list)];

/** oauth2/apps/<clientId>: `app` is authorized by the operation (target APP). */
export function getApp(app: repo.AppRow): RegisteredApp {
  return appJson(app);
}

/** Changes `app`'s registration, authorized by the operation (target APP). */
export async function updateApp(
  ctx: PortalContext,
  app: repo.AppRow,
  p: { appType?: RegisteredApp['appType']; redirect_uris?: string[]; httpReferrers?: string[] },
): Promise<RegisteredApp> {
  const clientId = app.client_id;
  await repo.updateApp(
    ctx.db,
    clientId,
    { appType: p.appType, redirectUris: p.redirect_uris && dedupe(p.redirect_uris), httpReferrers: p.httpReferrers && dedupe(p.httpReferrers) },
    ctx.clock.now(),
  );
  return appJson((await repo.findApp(ctx.db, clientId))!);
}

/**
 * Removes the registration and the item's `Registered App` keyword; every code, refresh token and
 * access token issued to the app ends with it (foreign-key cascades). `app` is authorized by the
 * operation (target APP).
 */
export async function unregisterApp(ctx: PortalContext, caller: Caller, app: repo.AppRow): Promise<{ success: true; itemId: string }> {
  const clientId = app.client_id;
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await repo.deleteApp(q, clientId);
    await repo.setItemKeyword(q, app.item_id, REGISTERED_APP_KEYWORD, false, now);
    await recordEvent(q, {
      orgId: app.org_id,
      source: 'item',
      operation: 'update',
      subjectId: app.item_id,
      actor: actorOf(caller),
      when: now,
      history: { op: 'updateApp', data: { before: { registeredApp: true }, after: { registeredApp: false } } },
    });
  });
  return { success: true, itemId: app.item_id };
}

// ------------------------------------------------------------------ PKCE and codes

export function challengeMatches(verifier: string, challenge: string, method: 'S256' | 'plain'): boolean {
  const expected = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Issues a code for a member who just signed in on the page, records the sign-in, in one transaction. */
export async function issueCode(ctx: PortalContext, q: import('../../store/db.ts').Queryable, userId: string, form: repo.SignInFormRow): Promise<string> {
  const now = ctx.clock.now();
  const code = newToken();
  await repo.insertCode(
    q,
    tokenHash(code),
    {
      client_id: form.client_id,
      user_id: userId,
      redirect_uri: form.redirect_uri,
      code_challenge: form.code_challenge,
      code_challenge_method: form.code_challenge_method,
      expiration: form.expiration,
    },
    now,
    now + LIMITS.oauthCodeMinutes * 60_000,
  );
  await recordSignIn(q, userId, now, 'oauth2');
  return code;
}

// ------------------------------------------------------------------ oauth2/token

export async function token(ctx: PortalContext, p: TokenParams): Promise<OAuthTokenResponse> {
  const app = await repo.findApp(ctx.db, p.client_id);
  if (!app) throw new OAuthError(400, 'invalid_client', 'Invalid client_id');
  if (p.grant_type === 'authorization_code') return exchangeCode(ctx, p);
  if (p.grant_type === 'refresh_token') return refresh(ctx, p.client_id, p.refresh_token, null);
  return refresh(ctx, p.client_id, p.refresh_token, p.redirect_uri);
}

async function exchangeCode(ctx: PortalContext, p: Extract<TokenParams, { grant_type: 'authorization_code' }>): Promise<OAuthTokenResponse> {
  const now = ctx.clock.now();
  // Taken (deleted) first, in its own statement: whatever follows, this code is spent.
  const code = await repo.takeCode(ctx.db, tokenHash(p.code));
  if (!code || code.expires <= now) throw invalidGrant('Invalid authorization code');
  if (code.client_id !== p.client_id) throw invalidGrant('Invalid authorization code');
  if (code.redirect_uri !== p.redirect_uri) throw invalidGrant('redirect_uri does not match the one of the authorization request');
  if (!challengeMatches(p.code_verifier, code.code_challenge, code.code_challenge_method)) throw invalidGrant('Invalid code_verifier');
  const user = await repo.findMember(ctx.db, code.user_id);
  if (!user || user.disabled) throw invalidGrant('This account has been disabled.');

  const refreshMinutes = Math.min(code.expiration ?? LIMITS.defaultRefreshTokenMinutes, LIMITS.maxRefreshTokenMinutes);
  const refreshToken = newToken();
  const accessToken = newToken();
  const refreshHash = tokenHash(refreshToken);
  const accessExpires = now + LIMITS.oauthAccessTokenMinutes * 60_000;
  await ctx.db.tx(async (q) => {
    await repo.insertRefreshToken(
      q,
      { token_hash: refreshHash, client_id: code.client_id, user_id: user.id, redirect_uri: code.redirect_uri },
      now,
      now + refreshMinutes * 60_000,
    );
    await repo.insertAccessToken(q, { tokenHash: tokenHash(accessToken), userId: user.id, clientId: code.client_id, refreshHash, now, expires: accessExpires });
  });
  return {
    access_token: accessToken,
    expires_in: LIMITS.oauthAccessTokenMinutes * 60,
    username: user.username,
    ssl: httpsOnly(ctx.config),
    refresh_token: refreshToken,
    refresh_token_expires_in: refreshMinutes * 60,
  };
}

/**
 * grant_type=refresh_token (a new access token; the refresh token stays) or, with a redirect URI,
 * exchange_refresh_token (a new refresh token too; the old one and its access tokens end).
 */
async function refresh(ctx: PortalContext, clientId: string, presented: string, exchangeRedirectUri: string | null): Promise<OAuthTokenResponse> {
  const now = ctx.clock.now();
  const hash = tokenHash(presented);
  const row = await repo.findRefreshToken(ctx.db, hash);
  if (!row || row.client_id !== clientId) throw invalidRefresh('Invalid refresh_token');
  if (row.expires <= now) throw invalidRefresh('refresh_token expired');
  if (exchangeRedirectUri !== null && exchangeRedirectUri !== row.redirect_uri) throw invalidRefresh('redirect_uri does not match the registered one');
  const user = await repo.findMember(ctx.db, row.user_id);
  if (!user || user.disabled) throw invalidGrant('This account has been disabled.');

  const accessToken = newToken();
  const accessExpires = now + LIMITS.oauthAccessTokenMinutes * 60_000;
  const base = { access_token: accessToken, expires_in: LIMITS.oauthAccessTokenMinutes * 60, username: user.username, ssl: httpsOnly(ctx.config) };
  if (exchangeRedirectUri === null) {
    await ctx.db.tx(async (q) => {
      // Revoked between the read and now: the foreign key would refuse the insert; say so instead.
      if (!(await repo.findRefreshToken(q, hash))) throw invalidRefresh('Invalid refresh_token');
      await repo.insertAccessToken(q, { tokenHash: tokenHash(accessToken), userId: user.id, clientId, refreshHash: hash, now, expires: accessExpires });
    });
    return base;
  }
  const newRefresh = newToken();
  const newRefreshHash = tokenHash(newRefresh);
  const refreshMinutes = LIMITS.defaultRefreshTokenMinutes;
  await ctx.db.tx(async (q) => {
    // Single use: of two concurrent exchanges only one deletes the row.
    if (!(await repo.deleteRefreshToken(q, hash))) throw invalidRefresh('Invalid refresh_token');
    await repo.insertRefreshToken(
      q,
      { token_hash: newRefreshHash, client_id: clientId, user_id: user.id, redirect_uri: row.redirect_uri },
      now,
      now + refreshMinutes * 60_000,
    );
    await repo.insertAccessToken(q, { tokenHash: tokenHash(accessToken), userId: user.id, clientId, refreshHash: newRefreshHash, now, expires: accessExpires });
  });
  return { ...base, refresh_token: newRefresh, refresh_token_expires_in: refreshMinutes * 60 };
}

/** The retention sweeps of expired sign-in forms, authorization codes and refresh tokens. */
export { deleteExpiredCodes, deleteExpiredRefreshTokens, deleteExpiredSignInForms } from './repo.ts';

/** The OAuth 2.0 paths under both prefixes (auth's token revocation answers at them too). */
export { oauth2Paths } from './paths.ts';
