/**
 * End-to-end: the built console served by the real service, driven in the Chromium e2e/browser.ts
 * finds (CHROMIUM_PATH, Playwright's own, or Debian's). Spec files run side by side on E2E_WORKERS
 * workers (1 by default, e2e/portals.ts), each driving its own service on its own port and fresh data directory
 * (e2e/portals.ts), so that one spec's changes to the demo organization never meet another's.
 * Tests within a file run in order, as they are written.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findTestBrowser } from './e2e/browser.ts';
import { E2E_WORKERS, portalPort, portalUrl } from './e2e/portals.ts';

/**
 * `npm test` runs the specs in two parts, each in its own lane beside the unit tests (package.json,
 * scripts/run-steps.ts): every spec but the accessibility sweep, and the sweep on its own port.
 * E2E_PART picks a part (`a11y` or `rest`); unset, every spec.
 */
const A11Y_SPEC = 'a11y.spec.ts';

/**
 * The console's scripts run in V8's interpreter and baseline compiler only. A spec's page lives for
 * seconds, never long enough for optimized code to pay back its compiling, which ran on the renderer's
 * helper threads beside every step: a sign-in and a tour of every page took 42 CPU-s with them and
 * 37.6 without (means of 3, every process counted; docs/performance.md, "e2e lanes"). What the
 * specs check does not depend on how fast a script runs. The SDK suite and the console benchmark
 * keep V8's defaults: they measure or run long scripts as a user's browser would.
 */
const E2E_JS_FLAGS = '--js-flags=--no-opt,--no-maglev';
const part = process.env.E2E_PART;
if (part !== undefined && part !== 'a11y' && part !== 'rest') throw new Error(`E2E_PART must be a11y or rest, not ${part}`);

const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
process.env.E2E_DATA_DIR = dataDir; // the config is loaded again in workers: keep one data dir

const portals = Array.from({ length: E2E_WORKERS }, (_, index) => {
  const dir = path.join(dataDir, `portal-${index}`);
  mkdirSync(dir, { recursive: true });
  return { port: portalPort(index), url: portalUrl(index), dir };
});

export default defineConfig({
  testDir: 'e2e',
  ...(part === 'a11y' ? { testMatch: A11Y_SPEC } : part === 'rest' ? { testIgnore: A11Y_SPEC } : {}),
  // Per port, so that runs side by side (E2E_PORT) do not clear each other's traces and screenshots.
  outputDir: process.env.E2E_PORT ? `e2e/artifacts/results-${process.env.E2E_PORT}` : 'e2e/artifacts/results',
  workers: E2E_WORKERS,
  fullyParallel: false,
  // One retry: on a loaded 2-core CI machine a step of a long spec has now and then missed its moment
  // (a lost click, a file chooser that did not open), each passing when run again. A test that fails
  // twice still fails the run, and one that passed only on its retry is listed as flaky in the
  // report, to be made steady rather than forgotten. E2E_RETRIES=0 for a run that must pass first time.
  retries: Number(process.env.E2E_RETRIES ?? 1),
  timeout: 60_000,
  // One wait for every assertion, the console's first page included (its chunks and first answers):
  // on a busy 2-core machine a first paint passed Playwright's default 5 s. They check the same.
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    // No baseURL here: e2e/test.ts gives each worker its own portal's.
    // The pictures worth keeping are taken by the specs themselves (e2e/support.ts snap()); one at
    // the end of every passing test cost each test a capture and a PNG encode for nothing.
    screenshot: 'only-on-failure',
    // The console's theme honours reduced motion (theme.ts): dialogs, menus and the shell's navigation
    // appear without transitions, so no step waits out an animation and Chromium paints fewer frames.
    reducedMotion: 'reduce',
    // No trace unless asked for (E2E_TRACE=on: a failed test keeps its actions, DOM snapshots and
    // network, without the screencast). Recording costs every test, failed or not: one keyboard spec
    // took 50 s of CPU with it and 41.5 s without, counting the browser's processes (a cgroup's
    // cpuacct; /usr/bin/time misses Chromium's renderers, which its zygote re-parents). The screencast
    // too nearly doubled it. The page at the end of each test is still kept as a screenshot, and the
    // error names the step.
    trace: process.env.E2E_TRACE === 'on' ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    launchOptions: {
      // undefined when none is found: `npm test` stops before this step (scripts/check-test-browser.ts).
      executablePath: findTestBrowser({ headlessShell: true })?.executablePath,
      args: [...CHROMIUM_ARGS, E2E_JS_FLAGS],
    },
  },
  webServer: portals.map((portal) => ({
    command: 'node --import tsx src/server/main.ts',
    url: `${portal.url}/sharing/rest/portals/self?f=json`,
    // Loopback receivers and downloads (webhook and dataUrl specs) are allowed, as the documented setting permits.
    env: {
      PORT: String(portal.port),
      HOST: '127.0.0.1',
      DATA_DIR: portal.dir,
      DEMO_DATA: 'on',
      ALLOW_PRIVATE_OUTBOUND: 'on',
      // The demo members' passwords and every one set in a spec hashed at scrypt N=2^10, not 2^17:
      // each sign-in, token and new member cost the portal half a CPU-second (about 75 in a run).
      PASSWORD_LOG_N: '10',
      ...(process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {}),
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe' as const,
  })),
});
