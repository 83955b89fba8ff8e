/**
 * `npm run test:solution`: runs the solution.js suite (solutionCycle.mjs) with node:test through tsx
 * (the suite starts the service from test/support). Installs nothing: test/solution has its own
 * packages, installed with `npm ci --prefix test/solution --ignore-scripts` (as .ci/run does). The
 * suite is not named *.test.mjs: the root's unused-code check (knip) would take its packages for
 * unlisted root dependencies.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
if (!existsSync(`${here}node_modules/@esri/solution-deployer`)) {
  console.error(
    "test/solution/node_modules is missing: install the suite's pinned packages first with\n  npm ci --prefix test/solution --no-audit --no-fund --ignore-scripts",
  );
  process.exit(1);
}
const started = Date.now();
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', `${here}solutionCycle.mjs`], { stdio: 'inherit' });
console.log(`solution.js suite: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(run.status ?? 1);
