/**
 * The ArcGIS Maps SDK conformance suite (`npm run test:sdk`): @arcgis/core in Chromium against the
 * real local portal over HTTPS, the page on its own origin. Each worker starts its own portal,
 * page server and browser (test/sdk/fixtures.ts); nothing is shared with the e2e suite.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/sdk',
  testMatch: '**/*.spec.ts',
  outputDir: '/tmp/portal-sdk-results',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
});
