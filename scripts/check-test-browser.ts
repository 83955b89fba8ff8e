/**
 * `npm test` runs this before the end-to-end step: it stops the run with one line saying how to
 * install a browser when none is found, instead of failing every spec. `--full-browser`: for the SDK
 * suite, which does not take the headless shell (e2e/browser.ts).
 */
import { existsSync } from 'node:fs';
import { findTestBrowser, NO_BROWSER_MESSAGE } from '../e2e/browser.ts';

const fullBrowser = process.argv.includes('--full-browser');
const browser = findTestBrowser({ headlessShell: !fullBrowser });
if (!browser) {
  console.error(NO_BROWSER_MESSAGE);
  process.exit(1);
}
if (!existsSync(browser.executablePath)) {
  console.error(`CHROMIUM_PATH=${browser.executablePath} does not exist. ${NO_BROWSER_MESSAGE}`);
  process.exit(1);
}
console.log(`${fullBrowser ? 'SDK suite' : 'end-to-end'} browser: ${browser.executablePath} (${browser.source})`);
