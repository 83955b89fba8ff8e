/**
 * The browser step of the authorization-code grant: oauth2/authorize (GET) checks the request and
 * shows the sign-in page; its form posts back to oauth2/authorize, which signs in and redirects
 * with a code (or `error=access_denied` on Cancel).
 *
 * Nothing here redirects until the client and its exact registered redirect URI are known: every
 * other problem gets an error page. The form carries its OAuth parameters itself, signed
 * (formSeal.ts): showing the page stores nothing. CSRF: the signed form holds the hash of a random
 * HttpOnly cookie that binds it to the browser that asked for it; a post needs both.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LONE_SURROGATE, redirectUriProblem } from '../../../shared/contract/oauth.ts';
import { LIMITS } from '../../../shared/limits.ts';
import type { PortalContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { authenticate, sourceOf } from '../auth/service.ts';
import { findOrg } from '../portals/service.ts';
import { formId, openForm, sealForm } from './formSeal.ts';
import { errorPage, signInPage } from './page.ts';
import * as repo from './repo.ts';
import { issueCode } from './service.ts';

export const BINDING_COOKIE = 'portal_oauth_binding';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** NUL and lone surrogates cannot be stored as text: such values are refused. */
const storable = (v: string) => !v.includes('\u0000') && !LONE_SURROGATE.test(v);

interface AuthorizeRequest {
  app: repo.AppRow;
  redirectUri: string;
  state: string | null;
  challenge: string;
  method: 'S256' | 'plain';
  expiration: number | null;
}

/** Checks the query of oauth2/authorize; a message for the error page when it cannot go on. */
export async function checkAuthorizeRequest(ctx: PortalContext, query: Record<string, unknown>): Promise<AuthorizeRequest | { error: string }> {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') return { error: `The parameter ${name} was sent more than once.` };
    if (!storable(value)) return { error: `The parameter ${name} contains characters that cannot be used.` };
  }
  const q = query as Record<string, string | undefined>;
  const clientId = q.client_id ?? '';
  if (!/^[A-Za-z0-9]{1,64}$/.test(clientId)) return { error: 'The request does not name a valid app (client_id).' };
  const app = await repo.findApp(ctx.db, clientId);
  if (!app) return { error: 'The app asking you to sign in (client_id) is not registered with this portal.' };
  const redirectUri = q.redirect_uri ?? '';
  if (!redirectUri) return { error: 'The request has no redirect_uri.' };
  const problem = redirectUriProblem(redirectUri);
  if (problem) return { error: `The redirect_uri ${problem}.` };
  // Exact string comparison, no normalisation (RFC 6749 §3.1.2.3 with registered URIs).
  if (!app.redirect_uris.includes(redirectUri)) return { error: 'The redirect_uri is not registered for this app.' };
  if (q.response_type !== 'code') return { error: 'The response_type must be code: this portal issues apps authorization codes only.' };
  const method = q.code_challenge_method ?? 'plain';
  if (method !== 'S256' && method !== 'plain') return { error: 'The code_challenge_method must be S256 (or plain).' };
  const challenge = q.code_challenge ?? '';
  if (!challenge) return { error: 'The request has no code_challenge: this portal requires PKCE (RFC 7636).' };
  const shape = method === 'S256' ? /^[A-Za-z0-9_-]{43}$/ : /^[A-Za-z0-9._~-]{43,128}$/;
  if (!shape.test(challenge)) return { error: `The code_challenge is malformed for the method ${method}.` };
  const state = q.state ?? null;
  if (state !== null && state.length > LIMITS.oauthStateChars) return { error: `The state is longer than ${LIMITS.oauthStateChars} characters.` };
  let expiration: number | null = null;
  if (q.expiration !== undefined && q.expiration !== '') {
    if (!/^\d{1,12}$/.test(q.expiration) || Number(q.expiration) < 1) return { error: 'The expiration must be a whole number of minutes.' };
    expiration = Math.min(Number(q.expiration), LIMITS.maxRefreshTokenMinutes);
  }
  return { app, redirectUri, state, challenge, method, expiration };
}

// ------------------------------------------------------------------ responses

function styleNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Where the page's form may lead: itself, and the redirect URI the post answers with. */
function formTarget(redirectUri: string | null): string {
  if (!redirectUri) return "'self'";
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? `'self' ${url.origin}` : `'self' ${url.protocol}`;
}

export function securityHeaders(reply: FastifyReply, nonce: string, redirectUri: string | null): void {
  reply
    .header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formTarget(redirectUri)}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('X-Frame-Options', 'DENY')
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff');
}

function sendError(reply: FastifyReply, message: string, status = 400) {
  const nonce = styleNonce();
  securityHeaders(reply, nonce, null);
  return reply.code(status).type('text/html; charset=utf-8').send(errorPage(message, nonce));
}

function redirectTo(reply: FastifyReply, redirectUri: string, params: Record<string, string | null>) {
  const query = Object.entries(params)
    .filter((e): e is [string, string] => e[1] !== null)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  securityHeaders(reply, styleNonce(), redirectUri);
  return reply.redirect(`${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query}`, 302);
}

/**
 * The well-formed binding cookies the browser sent. There may be two: one set before the cookie's
 * path widened to /sharing (Path=/sharing/rest/oauth2) goes along with the new one until it expires.
 */
function bindingCookies(req: FastifyRequest): string[] {
  const out: string[] = [];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === BINDING_COOKIE) {
      const value = part.slice(eq + 1).trim();
      if (TOKEN_SHAPE.test(value)) out.push(value);
    }
  }
  return out.slice(0, 4);
}

/**
 * The binding cookie goes with the form's post to whichever prefix showed it (/sharing/oauth2 or
 * /sharing/rest/oauth2, paths.ts), so its path is their common parent. Only submitSignIn reads it:
 * no REST operation looks at cookies (a token is the only credential), so the wider path lends
 * nothing.
 */
function cookiePath(ctx: PortalContext): string {
  const base = ctx.config.publicUrl ? new URL(ctx.config.publicUrl).pathname.replace(/\/$/, '') : '';
  return `${base}/sharing`;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

async function renderForm(
  ctx: PortalContext,
  reply: FastifyReply,
  form: { nonce: string; app: repo.AppRow; redirectUri: string },
  extra: { username?: string; error?: string },
) {
  const org = await findOrg(ctx.db, form.app.org_id);
  const nonce = styleNonce();
  securityHeaders(reply, nonce, form.redirectUri);
  return reply
    .code(200)
    .type('text/html; charset=utf-8')
    .send(signInPage({ orgName: org?.name ?? 'the portal', appTitle: form.app.title || 'An app', nonce: form.nonce, styleNonce: nonce, ...extra }));
}

// ------------------------------------------------------------------ handlers

export async function showSignIn(ctx: PortalContext, req: FastifyRequest, reply: FastifyReply) {
  const checked = await checkAuthorizeRequest(ctx, (req.query ?? {}) as Record<string, unknown>);
  if ('error' in checked) return sendError(reply, checked.error);
  const now = ctx.clock.now();
  // Browsers list cookies with longer paths first (RFC 6265 §5.4): the last is the /sharing one.
  const binding = bindingCookies(req).at(-1) ?? randomBytes(32).toString('base64url');
  const form = await sealForm(ctx.db, {
    binding_hash: sha256(binding),
    client_id: checked.app.client_id,
    redirect_uri: checked.redirectUri,
    state: checked.state,
    code_challenge: checked.challenge,
    code_challenge_method: checked.method,
    expiration: checked.expiration,
    expires: now + LIMITS.oauthSignInFormMinutes * 60_000,
  });
  const secure = ctx.config.publicUrl?.startsWith('https:') || req.protocol === 'https';
  reply.header(
    'Set-Cookie',
    `${BINDING_COOKIE}=${binding}; Path=${cookiePath(ctx)}; Max-Age=${LIMITS.oauthSignInFormMinutes * 60}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
  return renderForm(ctx, reply, { nonce: form, app: checked.app, redirectUri: checked.redirectUri }, {});
}

const field = (body: Record<string, unknown>, name: string, max: number): string | undefined => {
  const v = body[name];
  return typeof v === 'string' && v.length <= max && storable(v) ? v : undefined;
};

/** A signed form: its parameters (state and redirect URI at their limits) in base64url, and the MAC. */
const FORM_MAX_CHARS = 4 * (LIMITS.oauthStateChars + LIMITS.redirectUriChars + 1024);

export async function submitSignIn(ctx: PortalContext, req: FastifyRequest, reply: FastifyReply) {
  const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
  const value = field(body, 'nonce', FORM_MAX_CHARS);
  const bindings = bindingCookies(req);
  const expired = 'This sign-in form has expired or was not opened in this browser. Go back to the app and sign in again.';
  const invalid = 'This sign-in form was not issued by this portal or has been altered. Go back to the app and sign in again.';
  if (!value) return sendError(reply, expired);
  const now = ctx.clock.now();
  const opened = await openForm(ctx.db, value, now);
  if ('problem' in opened) return sendError(reply, opened.problem === 'invalid' ? invalid : expired);
  const form = opened.form;
  if (!bindings.some((binding) => form.binding_hash === sha256(binding))) return sendError(reply, expired);
  // The app may have been unregistered, or the redirect URI removed from it, since the page was shown.
  const app = await repo.findApp(ctx.db, form.client_id);
  if (!app || !app.redirect_uris.includes(form.redirect_uri)) return sendError(reply, expired);

  if (body.action === 'cancel') {
    // Nothing to spend: a cancel only sends the browser back to the app's own registered address.
    return redirectTo(reply, form.redirect_uri, { error: 'access_denied', error_description: 'The user denied your request.', state: form.state });
  }
  const username = field(body, 'username', LIMITS.usernameMaxChars)?.trim() ?? '';
  const password = field(body, 'password', LIMITS.passwordMaxChars) ?? '';
  const shown = { nonce: value, app, redirectUri: form.redirect_uri };
  if (!username || !password) return renderForm(ctx, reply, shown, { username, error: 'Enter your username and password.' });
  let userId: string;
  try {
    userId = (await authenticate(ctx, username, password, sourceOf(req.ip))).id;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return renderForm(ctx, reply, shown, { username, error: String(err.details[0] ?? err.message) });
  }
  const code = await ctx.db.tx(async (q) => {
    // The form is spent by the first successful sign-in; a replayed post finds it spent.
    const fresh = await repo.spendSignInForm(q, formId(value), form, now);
    return fresh ? issueCode(ctx, q, userId, form) : null;
  });
  if (!code) return sendError(reply, 'This sign-in form has already been used. Go back to the app and sign in again.');
  return redirectTo(reply, form.redirect_uri, { code, state: form.state });
}
