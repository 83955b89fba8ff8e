/**
 * The Chromium the end-to-end suite and the console benchmark drive, chosen in one place:
 * CHROMIUM_PATH when set, else Playwright's own Chromium when it is installed
 * (`npx playwright install chromium`), else Debian's (`/usr/bin/chromium`, what .ci/run installs).
 * The end-to-end specs take Debian's headless shell before it when installed (see findTestBrowser).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Debian's `chromium-headless-shell`: the same Chromium release, built as the old headless browser. */
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Flags for a headless run in a container (no sandbox, no GPU) without background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface TestBrowser {
  executablePath: string;
  /** Where the choice came from, for messages. */
  source: 'CHROMIUM_PATH' | 'playwright' | 'debian' | 'debian-headless-shell';
}

export interface TestBrowserOptions {
  /**
   * Take Debian's headless shell before its full Chromium. Since Chromium 132 `--headless` starts the
   * whole browser without a window; the shell is the separate, lighter headless build, the one
   * Playwright itself runs headless tests in when it installs its own browsers. The same two specs
   * (keyboard-admin, groups) took 57.4 CPU-s in the full browser and 33.7 in the shell, counting every
   * process; both end-to-end lanes 989 and 790 (docs/contributing.md, "The test browser"). For the specs
   * only: the SDK suite and the console benchmark run the browser people use.
   */
  headlessShell?: boolean;
}

/** The browser to launch, or null when none is installed. */
export function findTestBrowser(options: TestBrowserOptions = {}): TestBrowser | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  // An explicit choice is kept even when wrong, so a typo is reported rather than silently replaced.
  if (fromEnv) return { executablePath: fromEnv, source: 'CHROMIUM_PATH' };
  const playwrights = chromium.executablePath();
  if (playwrights && existsSync(playwrights)) return { executablePath: playwrights, source: 'playwright' };
  if (options.headlessShell && existsSync(DEBIAN_HEADLESS_SHELL)) return { executablePath: DEBIAN_HEADLESS_SHELL, source: 'debian-headless-shell' };
  if (existsSync(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, source: 'debian' };
  return null;
}

export const NO_BROWSER_MESSAGE =
  'No Chromium for the end-to-end tests: install one with `apt-get install chromium` (Debian/Ubuntu), or `npx playwright install chromium` where the internet is reachable, or set CHROMIUM_PATH.';
