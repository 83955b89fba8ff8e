/**
 * The console as an OAuth app of its own portal (demo data): an `Application` item owned by the
 * administrator, delete-protected (the console's sign-in goes through it), registered as a browser
 * app whose redirect URIs follow the current PUBLIC_URL / HOST / PORT at every start, and
 * GET /console-config.json, which tells the console its client_id.
 */
import { randomBytes } from 'node:crypto';
import { REGISTERED_APP_KEYWORD, type ConsoleConfig } from '../../../shared/contract/oauth.ts';
import type { Config } from '../../config.ts';
import type { PortalContext } from '../../context.ts';
import { hexId } from '../../store/ids.ts';
import { tokenHash } from '../../core/tokens.ts';
import { findAdminByUsername, findConsoleApp, insertApp, insertConsoleAppItem, lockConsoleAppRegistration, updateApp } from './repo.ts';
import { newClientId } from './service.ts';

export const CONSOLE_APP_TITLE = 'Portal Admin Console';
export const CONSOLE_CALLBACK_PATH = '/oauth-callback';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * The addresses users reach the console at: PUBLIC_URL when set; else http(s)://HOST:PORT, and for a
 * loopback HOST both the 127.0.0.1 and the localhost spelling (browsers treat them as different
 * origins, and people type either).
 */
export function consoleAddresses(config: Config, port: number): string[] {
  if (config.publicUrl) return [config.publicUrl];
  // The service's own HTTPS (TLS, TLS_CERT): the console is reached, and signs in, over https.
  const scheme = config.tls ? 'https' : 'http';
  if (LOOPBACK_HOSTS.has(config.host)) return [`${scheme}://127.0.0.1:${port}`, `${scheme}://localhost:${port}`];
  const host = config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;
  return [`${scheme}://${host}:${port}`];
}

/**
 * Registers the console (first start with demo data) or brings its redirect URIs in step with the
 * current addresses (every later start). Idempotent: one app, updated in place. Serialised on an
 * advisory lock so that several processes starting together register it once.
 */
export async function syncConsoleApp(ctx: PortalContext, port: number): Promise<string | undefined> {
  if (!ctx.config.demoData) return undefined;
  const redirectUris = consoleAddresses(ctx.config, port).map((a) => `${a}${CONSOLE_CALLBACK_PATH}`);
  const now = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    await lockConsoleAppRegistration(q);
    const existing = await findConsoleApp(q);
    if (existing) {
      const same = existing.redirect_uris.length === redirectUris.length && existing.redirect_uris.every((u, i) => u === redirectUris[i]);
      if (!same) await updateApp(q, existing.client_id, { redirectUris }, now);
      return existing.client_id;
    }
    const admin = await findAdminByUsername(q, ctx.config.adminUsername);
    if (!admin) return undefined;
    const itemId = hexId();
    await insertConsoleAppItem(q, {
      id: itemId,
      orgId: admin.org_id,
      ownerId: admin.id,
      title: CONSOLE_APP_TITLE,
      typeKeywords: ['Application', REGISTERED_APP_KEYWORD],
      snippet: 'The administration console of this portal, signing in through OAuth 2.0.',
      tags: ['console', 'oauth'],
      now,
    });
    const clientId = newClientId();
    // Nobody needs this secret (the console is a public client using PKCE); only its hash is kept.
    await insertApp(q, {
      clientId,
      itemId,
      orgId: admin.org_id,
      secretHash: tokenHash(randomBytes(32).toString('base64url')),
      appType: 'browser',
      redirectUris,
      httpReferrers: [],
      console: true,
      now,
    });
    return clientId;
  });
}

/**
 * GET /console-config.json. The portal URL is the console address the request came in on (so the
 * console's origin and its redirect URI agree), else the first one.
 */
export async function consoleConfig(ctx: PortalContext, port: number, requestHost: string | undefined): Promise<ConsoleConfig> {
  const addresses = consoleAddresses(ctx.config, port);
  const address = addresses.find((a) => requestHost && new URL(a).host === requestHost.toLowerCase()) ?? addresses[0];
  const app = await findConsoleApp(ctx.db);
  return { portalUrl: `${address}/sharing/rest`, ...(app ? { oauth: { clientId: app.client_id } } : {}) };
}
