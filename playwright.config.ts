/**
 * End-to-end: the built console served by the real service on a fresh data directory, driven in
 * the Chromium e2e/browser.ts finds (CHROMIUM_PATH, Playwright's own, or Debian's).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findTestBrowser } from './e2e/browser.ts';

const port = Number(process.env.E2E_PORT ?? 3197);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // the config is loaded again in workers: keep one data dir

export default defineConfig({
  testDir: 'e2e',
  // Per port, so that runs side by side (E2E_PORT) do not clear each other's traces and screenshots.
  outputDir: process.env.E2E_PORT ? `e2e/artifacts/results-${port}` : 'e2e/artifacts/results',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      // undefined when none is found: `npm test` stops before this step (scripts/check-test-browser.ts).
      executablePath: findTestBrowser()?.executablePath,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: 'node --import tsx src/server/main.ts',
    url: `http://127.0.0.1:${port}/sharing/rest/portals/self?f=json`,
    // Loopback receivers and downloads (webhook and dataUrl specs) are allowed, as the documented setting permits.
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'on',
      ALLOW_PRIVATE_OUTBOUND: 'on',
      ...(process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {}),
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
  },
});
