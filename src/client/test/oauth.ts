/**
 * OAuth steps for client tests, against the real test service: register an app for the console,
 * and play the browser's part on the portal's sign-in page (jsdom cannot navigate to it) — open
 * the authorize URL, post its form with the page's nonce and binding cookie, read where the
 * portal redirects to.
 */
import type { ClientTestService } from './service.ts';
import { DEMO_PASSWORD } from './service.ts';

async function post(url: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ f: 'json', ...params }).toString(),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** An Application item of `owner`, registered as a browser app with these redirect URIs; its client ID. */
export async function registerApp(svc: ClientTestService, redirectUris: string[], owner = 'admin'): Promise<string> {
  const { token } = await svc.tokenFor(owner);
  const item = await post(`${svc.restUrl}/content/users/${owner}/addItem`, { title: 'Portal Admin Console (test)', type: 'Application', token });
  if (typeof item.id !== 'string') throw new Error(`addItem failed: ${JSON.stringify(item)}`);
  const app = await post(`${svc.restUrl}/oauth2/registerApp`, { itemId: item.id, appType: 'browser', redirect_uris: JSON.stringify(redirectUris), token });
  if (typeof app.client_id !== 'string') throw new Error(`registerApp failed: ${JSON.stringify(app)}`);
  return app.client_id;
}

export interface PortalAnswer {
  /** Where the portal sends the browser: the redirect URI with ?code&state or ?error. */
  location: string;
  /** The query of that address (what the callback route receives). */
  search: string;
}

/** Opens the portal's sign-in page at `authorizeUrl` and signs in (or cancels) there. */
export async function answerOnPortal(authorizeUrl: string, how: { username?: string; password?: string; cancel?: boolean } = {}): Promise<PortalAnswer> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the sign-in page answered ${page.status}: ${html.slice(0, 300)}`);
  const nonce = /name="nonce" value="([^"]+)"/.exec(html)?.[1];
  if (!nonce) throw new Error('the sign-in page has no form nonce');
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const form: Record<string, string> = how.cancel
    ? { nonce, action: 'cancel' }
    : { nonce, action: 'signin', username: how.username ?? 'admin', password: how.password ?? DEMO_PASSWORD };
  const answer = await fetch(authorizeUrl.split('?')[0], {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(form).toString(),
  });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`the sign-in form answered ${answer.status}: ${(await answer.text()).slice(0, 300)}`);
  return { location, search: new URL(location).search };
}

/** A whole OAuth sign-in (start, the portal's page, callback) without storing the session. */
export async function oauthSession(svc: ClientTestService, clientId: string, username = 'admin', returnTo = '/overview') {
  const { beginOAuthSignIn, completeOAuthSignIn } = await import('../lib/oauth.ts');
  const answer = await answerOnPortal(await beginOAuthSignIn({ portalUrl: svc.restUrl, clientId, returnTo }), { username });
  return (await completeOAuthSignIn(answer.search)).session;
}

/** POSTs oauth2/token or oauth2/revokeToken directly (as another client would); the parsed answer. */
export async function oauthPost(svc: ClientTestService, operation: 'token' | 'revokeToken', params: Record<string, string>): Promise<Record<string, any>> {
  const res = await fetch(`${svc.restUrl}/oauth2/${operation}`, { method: 'POST', body: new URLSearchParams({ f: 'json', ...params }) });
  return (await res.json()) as Record<string, any>;
}
