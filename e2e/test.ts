/**
 * The end-to-end specs' `test`: Playwright's, with each worker's pages, contexts and `request`
 * pointed at that worker's own portal (e2e/portals.ts). The config sets no baseURL, so a spec that
 * imported Playwright's `test` instead would fail on its first relative URL rather than drive another
 * worker's portal.
 */
import { test as base } from '@playwright/test';
import { portalPort } from './portals.ts';

export const test = base.extend<object, { portalPort: number }>({
  // parallelIndex stays the same when a worker is replaced after a failure, so the replacement
  // drives the same portal. Playwright reads a fixture's dependencies from its destructuring
  // pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  portalPort: [async ({}, use, workerInfo) => use(portalPort(workerInfo.parallelIndex)), { scope: 'worker' }],
  baseURL: async ({ portalPort: port }, use) => use(`http://127.0.0.1:${port}`),
});
