/**
 * Fixtures of the SDK suite. Per worker: the built page on its own origin, the real portal over
 * HTTPS, Debian's Chromium trusting exactly the portal's certificate, and one browser context whose
 * every request is recorded and any request to a host other than 127.0.0.1 aborted and failed.
 * Per test: the page in a fresh tab with the SDK ready on `window.sdk`; cookies and storage are
 * cleared after it. (One context per worker, so that the SDK's ~190 chunks come from the HTTP and
 * code cache after the first test: a cold load costs seconds.)
 */
import { test as base, chromium, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findTestBrowser, NO_BROWSER_MESSAGE } from '../../e2e/browser.ts';
import { buildSdkPage, SDK_ASSETS_DIR } from './build.ts';
import { spkiHash } from './support/certificate.ts';
import { startPageServer } from './support/pageServer.ts';
import { startSdkPortal, type SdkPortal } from './support/portal.ts';

/** What the browser asked for during one test. */
interface WireLog {
  requests: string[];
  offHost: string[];
  /** The portal's answers, token removed, with the body of any error envelope. */
  portalAnswers: string[];
}

export interface SdkEnv {
  portal: SdkPortal;
  /** The page's origin (the app), cross-origin to the portal. */
  appOrigin: string;
  browser: Browser;
  context: BrowserContext;
  log: WireLog;
}

export interface SdkApp {
  page: Page;
  /** Every URL the page (and its popups) requested in this test. */
  requests: string[];
  /** Sign a demo user in the way an app with a token does: IdentityManager.registerToken. */
  registerToken(username: string): Promise<string>;
  /**
   * page.evaluate, with the SDK's errors (esri Error: name, message, details) reported whole:
   * Playwright alone reports the minified class name only.
   */
  run<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
}

interface PageOutcome {
  value?: unknown;
  error?: string;
}

async function runInPage<R, A>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const outcome = await page.evaluate(
    async ({ source, arg }): Promise<PageOutcome> => {
      const call = (0, eval)(`(${source})`) as (arg: unknown) => unknown;
      try {
        return { value: await call(arg) };
      } catch (err) {
        const e = err as { name?: string; message?: string; details?: unknown };
        return { error: JSON.stringify({ name: e.name, message: e.message, details: e.details }, null, 1).slice(0, 2000) };
      }
    },
    { source: fn.toString(), arg },
  );
  if (outcome.error !== undefined) throw new Error(`in the page: ${outcome.error}`);
  return outcome.value as R;
}

function recordWire(context: BrowserContext, portalUrl: string, log: WireLog) {
  const guard = context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    log.requests.push(url.href);
    if (url.hostname !== '127.0.0.1') {
      log.offHost.push(url.href);
      await route.abort('blockedbyclient');
      return;
    }
    await route.continue();
  });
  context.on('requestfailed', (request) => {
    if (request.url().startsWith(portalUrl))
      log.portalAnswers.push(`${request.method()} ${new URL(request.url()).pathname} -> failed: ${request.failure()?.errorText}`);
  });
  context.on('console', (message) => {
    if (message.type() === 'error') log.portalAnswers.push(`console: ${message.text().slice(0, 400)}`);
  });
  context.on('response', (response) => {
    if (!response.url().startsWith(portalUrl)) return;
    const url = new URL(response.url());
    url.searchParams.delete('token');
    const line = `${response.request().method()} ${url.pathname}${url.search} -> ${response.status()}`;
    void response.text().then(
      (body) => log.portalAnswers.push(/"error"/.test(body) ? `${line} ${body.slice(0, 400)}` : line),
      () => log.portalAnswers.push(line),
    );
  });
  return guard;
}

export const test = base.extend<{ app: SdkApp }, { env: SdkEnv }>({
  env: [
    // Playwright reads a fixture's dependencies from its destructuring pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const found = findTestBrowser();
      if (!found) throw new Error(NO_BROWSER_MESSAGE);
      const pageDir = await buildSdkPage();
      const pageServer = await startPageServer(pageDir, SDK_ASSETS_DIR);
      const portal = await startSdkPortal();
      const browser = await chromium.launch({
        executablePath: found.executablePath,
        args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spkiHash(portal.certPem)}`],
      });
      const context = await browser.newContext();
      const log: WireLog = { requests: [], offHost: [], portalAnswers: [] };
      await recordWire(context, portal.url, log);
      await context.addInitScript((portalUrl) => {
        window.sdkPortalUrl = portalUrl;
      }, portal.url);
      await use({ portal, appOrigin: pageServer.origin, browser, context, log });
      await browser.close();
      await portal.close();
      await pageServer.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  app: async ({ env }, use, testInfo) => {
    const { log, context } = env;
    log.requests = [];
    log.offHost = [];
    log.portalAnswers = [];
    const page = await context.newPage();
    await page.goto(`${env.appOrigin}/`);
    await expect(page.locator('#status')).toHaveText('ready');
    const registerToken = async (username: string) => {
      const token = await env.portal.svc.tokenFor(username);
      await page.evaluate(
        ({ server, userId, token }) => window.sdk.IdentityManager.registerToken({ server, userId, token, expires: Date.now() + 3_600_000, ssl: true }),
        { server: `${env.portal.url}/sharing/rest`, userId: username, token },
      );
      return token;
    };
    await use({ page, requests: log.requests, registerToken, run: (fn, arg) => runInPage(page, fn, arg as never) });
    // What the portal answered, to tell which request of an SDK call failed and why.
    if (testInfo.status !== testInfo.expectedStatus) {
      console.log(`portal answers in "${testInfo.title}":\n  ${log.portalAnswers.join('\n  ')}`);
      await testInfo.attach('portal-answers.txt', { body: log.portalAnswers.join('\n'), contentType: 'text/plain' });
    }
    for (const open of context.pages()) {
      await open.evaluate(() => localStorage.clear()).catch(() => undefined);
      await open.close();
    }
    await context.clearCookies();
    expect(log.offHost, 'requests that left 127.0.0.1').toEqual([]);
  },
});

export { expect };
