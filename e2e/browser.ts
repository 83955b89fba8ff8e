/**
 * The Chromium the end-to-end suite and the console benchmark drive, chosen in one place:
 * CHROMIUM_PATH when set, else Playwright's own Chromium when it is installed
 * (`npx playwright install chromium`), else Debian's (`/usr/bin/chromium`, what .ci/run installs).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

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
  source: 'CHROMIUM_PATH' | 'playwright' | 'debian';
}

/** The browser to launch, or null when none is installed. */
export function findTestBrowser(): TestBrowser | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  // An explicit choice is kept even when wrong, so a typo is reported rather than silently replaced.
  if (fromEnv) return { executablePath: fromEnv, source: 'CHROMIUM_PATH' };
  const playwrights = chromium.executablePath();
  if (playwrights && existsSync(playwrights)) return { executablePath: playwrights, source: 'playwright' };
  if (existsSync(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, source: 'debian' };
  return null;
}

export const NO_BROWSER_MESSAGE =
  'No Chromium for the end-to-end tests: install one with `apt-get install chromium` (Debian/Ubuntu), or `npx playwright install chromium` where the internet is reachable, or set CHROMIUM_PATH.';
