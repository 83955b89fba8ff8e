/**
 * `npm start`'s build step: build the console, the service's bundle, the demo accounts' password
 * hashes and the embedded-database template only when they are out of date, so that starting a
 * current checkout does not wait for a build.
 *
 * The console is current when dist/client/index.html (vite writes it on every build) is newer than
 * every file the build reads: src/client, src/shared, index.html, public/, the build configuration
 * and package-lock.json (a dependency update). Server-only changes do not rebuild it. The service's
 * bundle (dist/server/main.cjs) likewise against src/server, src/shared and the lock file. The
 * template is current when its manifest lists exactly the current migrations (store/template.ts).
 * No install scripts are involved: this runs as part of `npm start`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD, loadConfig } from '../src/server/config.ts';
import { seedAccountCount } from '../src/server/seed/plan.ts';
import { buildDemoHashes, demoHashesStaleReason } from '../src/server/seed/demoHashes.ts';
import { DEFAULT_TEMPLATE_DIR, templateStatus } from '../src/server/store/template.ts';
import { buildServer, bundleStaleReason, newestMtime, SERVER_BUNDLE, SERVER_SOURCES } from './build-server.ts';
// The builders (esbuild, PGlite) load only when something must be built (build-server.ts imports
// esbuild when bundling): a current checkout's `npm start` loads a handful of small modules.

const root = fileURLToPath(new URL('..', import.meta.url));
const CONSOLE_SOURCES = ['src/client', 'src/shared', 'index.html', 'public', 'vite.config.ts', 'postcss.config.cjs', 'tsconfig.json', 'package-lock.json'];
const CONSOLE_OUTPUT = 'dist/client/index.html';

/** Why the console needs building, or undefined when dist is current. */
export function consoleStaleReason(dir = root): string | undefined {
  const output = path.join(dir, CONSOLE_OUTPUT);
  if (!existsSync(output)) return `${CONSOLE_OUTPUT} does not exist`;
  const built = statSync(output).mtimeMs;
  const newer = CONSOLE_SOURCES.find((s) => newestMtime(path.join(dir, s)) > built);
  return newer && `${newer} changed since the last build`;
}

/** The demo accounts' password hashes (seed/demoHashes.ts), for the configuration's password and cost. */
async function buildDemoHashesIfStale() {
  let config;
  try {
    config = loadConfig();
  } catch {
    return; // the service itself reports a bad configuration
  }
  if (config.adminPassword !== DEMO_PASSWORD) return;
  const count = seedAccountCount({ ...config, demoData: true });
  const reason = await demoHashesStaleReason(config.adminPassword, config.passwordLogN, count);
  if (!reason) return;
  console.log(`Hashing the demo accounts' password (${reason}) …`);
  await buildDemoHashes(config.adminPassword, config.passwordLogN, count);
}

/** Why the service's bundle (scripts/build-server.ts) needs building, or undefined when it is current. */
export const serverStaleReason = (dir = root) => bundleStaleReason(SERVER_BUNDLE, SERVER_SOURCES, dir);

async function main() {
  const force = process.argv.includes('--force');
  // --template-only: the test scripts (in-memory databases load the template; no console needed).
  const reason = process.argv.includes('--template-only') ? undefined : force ? 'forced' : consoleStaleReason();
  if (reason) {
    console.log(`Building the console (${reason}) …`);
    const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    const run = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' });
    if (run.status !== 0) process.exit(run.status ?? 1);
  } else if (!process.argv.includes('--template-only')) {
    console.log('Console build is current (dist/client).');
  }
  if (!process.argv.includes('--template-only')) {
    const serverReason = force ? 'forced' : serverStaleReason();
    if (serverReason) {
      console.log(`Bundling the service (${serverReason}) …`);
      await buildServer();
    }
    await buildDemoHashesIfStale();
  }
  if (DEFAULT_TEMPLATE_DIR === 'off') return console.log('Embedded-database template: DB_TEMPLATE_DIR=off, not built.');
  const status = await templateStatus();
  const templateReason = force ? 'forced' : !status.usable ? status.reason : status.behind.length ? `new migrations: ${status.behind.join(', ')}` : undefined;
  if (templateReason) {
    console.log(`Building the embedded-database template (${templateReason}) …`);
    const started = performance.now();
    // A template that only lacks newer migrations gets them applied; anything else is built anew.
    const { buildTemplate } = await import('../src/server/store/buildTemplate.ts');
    const manifest = await buildTemplate(DEFAULT_TEMPLATE_DIR, undefined, { from: status.usable && !force ? DEFAULT_TEMPLATE_DIR : undefined });
    console.log(`Template with ${manifest.migrations.length} migrations built in ${Math.round(performance.now() - started)} ms.`);
  } else {
    console.log('Embedded-database template is current (dist/db-template).');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
