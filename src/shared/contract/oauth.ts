/**
 * OAuth 2.0 (docs/oauth.md): registered apps (`oauth2/registerApp`, `oauth2/apps/<client_id>`,
 * `…/update`, `…/unregister`), the token endpoint and what /console-config.json tells the console.
 * The authorize step is an HTML page, validated on the server only.
 */
import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { wireInt } from './wire.ts';
import { own, ownerOrDefaultAdmin, type Authority } from '../authority.ts';

export const APP_TYPES = ['browser', 'native', 'server', 'multiple'] as const;
export type AppType = (typeof APP_TYPES)[number];

/** Item types an app registration may be made for (apps, not maps or data). */
export const REGISTRABLE_ITEM_TYPES = ['Application', 'Web Mapping Application', 'Mobile Application', 'Native Application', 'Desktop Application'] as const;

/** The type keyword a registered app's item carries (docs: "Register App"). */
export const REGISTERED_APP_KEYWORD = 'Registered App';

/** Client ids look like the real portal's: 16 letters and digits. */
export const clientIdSchema = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'is not a valid client_id');

/** A JSON array of strings as text (or an array already), each trimmed and non-empty. */
const jsonStringArray = (max: number, item: z.ZodType<string, string>) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v, ctx) => {
      if (Array.isArray(v)) return v;
      const text = v.trim();
      if (text === '') return [];
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) return parsed;
      } catch {
        /* reported below */
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of strings' });
      return z.NEVER;
    })
    .pipe(z.array(item).max(max, `may hold at most ${max} entries`));

/**
 * A redirect URI as an app registers it: absolute, no fragment, and not a scheme that runs code
 * in the browser. http(s) for web apps, a custom scheme (`myapp://cb`) for native apps.
 */
export const redirectUriSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.redirectUriChars, `must be at most ${LIMITS.redirectUriChars} characters`)
  .refine((v) => redirectUriProblem(v) === null, { message: 'must be an absolute URL without a fragment (http, https or an app scheme)' });

/** A UTF-16 surrogate without its pair: such text cannot be stored (PostgreSQL refuses it). */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

/** Why a redirect URI is not acceptable, or null. Shared by registration and the authorize step. */
export function redirectUriProblem(value: string): string | null {
  if (value.length > LIMITS.redirectUriChars) return `is longer than ${LIMITS.redirectUriChars} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not an absolute URL';
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `may not use the ${url.protocol} scheme`;
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname) return 'has no host';
  if (value.includes('#')) return 'may not contain a fragment (#)';
  if (/[\s<>"\u0000-\u001f\u007f]/.test(value) || LONE_SURROGATE.test(value)) return 'may not contain spaces, control characters, quotes or angle brackets';
  return null;
}

const referrer = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(LIMITS.redirectUriChars)
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v) && !LONE_SURROGATE.test(v), { message: 'may not contain control characters' });

export const registerAppParams = z.object({
  itemId: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{32}$/i, 'must be an item id'),
  appType: z.enum(APP_TYPES),
  redirect_uris: jsonStringArray(LIMITS.redirectUrisPerApp, redirectUriSchema).default([]),
  httpReferrers: jsonStringArray(LIMITS.httpReferrersPerApp, referrer).default([]),
});

export const updateAppParams = z.object({
  appType: z.enum(APP_TYPES).optional(),
  redirect_uris: jsonStringArray(LIMITS.redirectUrisPerApp, redirectUriSchema).optional(),
  httpReferrers: jsonStringArray(LIMITS.httpReferrersPerApp, referrer).optional(),
});

/** The Registered App resource (docs: "Registered App"). */
export interface RegisteredApp {
  itemId: string;
  client_id: string;
  /**
   * Returned by registerApp only: the portal keeps its SHA-256, so reads cannot show it
   * (docs/oauth.md says why).
   */
  client_secret?: string;
  appType: AppType;
  redirect_uris: string[];
  httpReferrers: string[];
  privileges: string[];
  registered: number;
  modified: number;
  apnsProdCert: null;
  apnsSandboxCert: null;
  gcmApiKey: null;
  isBeta: boolean;
}

const verifier = z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be 43–128 characters of A–Z a–z 0–9 - . _ ~');

/** oauth2/token. Parameters that do not belong to the grant are ignored, as the docs' table implies. */
export const tokenParams = z.discriminatedUnion('grant_type', [
  z.object({
    grant_type: z.literal('authorization_code'),
    client_id: clientIdSchema,
    code: z.string().min(1, 'is required').max(256),
    redirect_uri: z.string().min(1, 'is required').max(LIMITS.redirectUriChars),
    code_verifier: verifier,
  }),
  z.object({
    grant_type: z.literal('refresh_token'),
    client_id: clientIdSchema,
    refresh_token: z.string().min(1, 'is required').max(256),
  }),
  z.object({
    grant_type: z.literal('exchange_refresh_token'),
    client_id: clientIdSchema,
    refresh_token: z.string().min(1, 'is required').max(256),
    redirect_uri: z.string().min(1, 'is required').max(LIMITS.redirectUriChars),
  }),
]);
export type TokenParams = z.output<typeof tokenParams>;

/** oauth2/token's answer; refresh_token* only for authorization_code and exchange_refresh_token. */
export interface OAuthTokenResponse {
  access_token: string;
  /** Seconds. */
  expires_in: number;
  username: string;
  ssl: boolean;
  refresh_token?: string;
  /** Seconds. */
  refresh_token_expires_in?: number;
}

export const revokeTokenParams = z.object({
  auth_token: z.string().min(1).max(512),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  client_id: clientIdSchema.optional(),
});

/** `expiration` on oauth2/authorize: the refresh token's validity in minutes. */
export const authorizeExpiration = wireInt(1, Number.MAX_SAFE_INTEGER);

/** GET /console-config.json: where the console finds its portal and its OAuth app. */
export interface ConsoleConfig {
  portalUrl: string;
  oauth?: { clientId: string };
}

/**
 * Who may call each OAuth operation: anyone registers their own app and asks for tokens; a
 * registered app (its redirect URIs decide where sign-ins' codes and tokens go) is managed by the
 * app item's owner or a default administrator of its organization: no single administrative
 * privilege suffices (one who may add a redirect URI to another member's app receives that member's
 * tokens at their next sign-in).
 */
export const OAUTH_OPERATIONS = {
  registerApp: own(),
  token: own(),
  app: ownerOrDefaultAdmin(),
  updateApp: ownerOrDefaultAdmin(),
  unregisterApp: ownerOrDefaultAdmin(),
  registeredAppInfo: ownerOrDefaultAdmin(),
} as const satisfies Record<string, Authority>;
