/**
 * One portal per Playwright worker: the end-to-end specs change the demo organization (members,
 * groups, settings, items), so two specs running at the same time must not share a service. The
 * config starts one service per worker (each on a fresh data directory) and e2e/test.ts points each
 * worker's pages and requests at its own.
 *
 * Worker i's portal listens on E2E_PORT + 2i; the port after it is the worker's spare, for a spec
 * that starts a second service of its own (no-local-extras.spec.ts).
 */

/**
 * Workers, hence portals: E2E_WORKERS, else 1. On 2 cores two workers were no faster (15.1 min against
 * 15.4) and specs passed their 60 s budget: each worker's Chromium is CPU-bound. More cores: raise it.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1));

const FIRST_PORT = Number(process.env.E2E_PORT ?? 3197);

/** The port of the portal that the worker with this parallel index drives. */
export function portalPort(parallelIndex: number): number {
  return FIRST_PORT + 2 * parallelIndex;
}

export function portalUrl(parallelIndex: number): string {
  return `http://127.0.0.1:${portalPort(parallelIndex)}`;
}
