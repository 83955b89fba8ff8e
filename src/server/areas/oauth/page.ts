/**
 * The portal's own sign-in page for oauth2/authorize, server-rendered: no script, inline styles
 * under a per-response nonce, one h1, labelled fields, an error tied to its field and focused.
 */
import { html, SafeHtml } from './html.ts';

export interface SignInPageModel {
  orgName: string;
  appTitle: string;
  nonce: string;
  styleNonce: string;
  username?: string;
  error?: string;
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f1f3f5; color: #1a1b1e; }
  main { box-sizing: border-box; width: min(24rem, calc(100vw - 2rem)); margin: 1rem; padding: clamp(1rem, 6vw, 2rem); background: #fff; border-radius: 0.75rem;
         box-shadow: 0 1px 3px rgb(0 0 0 / 0.12), 0 8px 24px rgb(0 0 0 / 0.08); }
  h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
  p { margin: 0 0 1.25rem; line-height: 1.5; color: #373a40; }
  label { display: block; font-weight: 600; margin: 1rem 0 0.375rem; }
  input[type=text], input[type=password] { box-sizing: border-box; width: 100%; padding: 0.625rem 0.75rem; font: inherit;
         border: 1px solid #6c727a; border-radius: 0.375rem; }
  input[aria-invalid=true] { border-color: #c92a2a; }
  :focus-visible { outline: 3px solid #1864ab; outline-offset: 2px; }
  .error { margin: 1rem 0 0; padding: 0.75rem; border-left: 4px solid #c92a2a; background: #fff5f5; color: #8a1c1c; }
  .actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
  button { flex: 1; padding: 0.625rem 1rem; font: inherit; font-weight: 600; border-radius: 0.375rem; cursor: pointer; }
  .primary { background: #1864ab; color: #fff; border: 1px solid #1864ab; }
  .secondary { background: #fff; color: #1864ab; border: 1px solid #1864ab; }
  .org { font-size: 0.875rem; color: #495057; margin-top: 1.5rem; margin-bottom: 0; }
`;

function layout(title: string, styleNonce: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <style nonce="${styleNonce}">
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.toString();
}

export function signInPage(m: SignInPageModel): string {
  const errorId = 'sign-in-error';
  const invalid = m.error ? 'true' : undefined;
  const body = html`<h1>Sign in to ${m.orgName}</h1>
    <p><strong>${m.appTitle}</strong> would like to use your ${m.orgName} account. Sign in to continue.</p>
    <form method="post" action="authorize" novalidate>
      <input type="hidden" name="nonce" value="${m.nonce}" />
      ${m.error ? html`<div class="error" id="${errorId}" role="alert">${m.error}</div>` : ''}
      <label for="username">Username</label>
      <input
        type="text"
        id="username"
        name="username"
        autocomplete="username"
        autocapitalize="none"
        spellcheck="false"
        required
        value="${m.username ?? ''}"
        ${attr('aria-invalid', invalid)}${attr('aria-describedby', m.error ? errorId : undefined)}${m.username ? '' : html` autofocus`}
      />
      <label for="password">Password</label>
      <input
        type="password"
        id="password"
        name="password"
        autocomplete="current-password"
        required${attr('aria-invalid', invalid)}${attr('aria-describedby', m.error ? errorId : undefined)}${m.username ? html` autofocus` : ''}
      />
      <div class="actions">
        <button type="submit" name="action" value="signin" class="primary">Sign in</button>
        <button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button>
      </div>
    </form>
    <p class="org">Only enter your password on this page if its address is the portal you know.</p>`;
  return layout(`Sign in – ${m.orgName}`, m.styleNonce, body);
}

/** The page for a request that cannot go on: nothing is redirected anywhere. */
export function errorPage(message: string, styleNonce: string): string {
  const body = html`<h1>Sign-in cannot continue</h1>
    <p role="alert">${message}</p>
    <p>Go back to the app you came from and start signing in again. If this keeps happening, tell the app's administrator.</p>`;
  return layout('Sign-in error', styleNonce, body);
}

function attr(name: string, value: string | undefined): SafeHtml | '' {
  return value === undefined ? '' : html` ${new SafeHtml(name)}="${value}"`;
}
