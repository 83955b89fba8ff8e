/**
 * `npm start`'s build step: build the console and the embedded-database template only when they are
 * out of date, so that starting a current checkout does not wait for a build.
 *
 * The console is current when dist/client/index.html (vite writes it on every build) is newer than
 * every file the build reads: src/client, src/shared, index.html, public/, the build configuration
 * and package-lock.json (a dependency update). Server-only changes do not rebuild it. The template
 * is current when its manifest lists exactly the current migrations (store/template.ts).
 * No install scripts are involved: this runs as part of `npm start`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTemplate, DEFAULT_TEMPLATE_DIR, templateStatus } from '../src/server/store/template.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONSOLE_SOURCES = ['src/client', 'src/shared', 'index.html', 'public', 'vite.config.ts', 'postcss.config.cjs', 'tsconfig.json', 'package-lock.json'];
const CONSOLE_OUTPUT = 'dist/client/index.html';

/** The newest modification time under `p` (a file or a folder), 0 if it does not exist. */
export function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows as the folder's change
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Why the console needs building, or undefined when dist is current. */
export function consoleStaleReason(dir = root): string | undefined {
  const output = path.join(dir, CONSOLE_OUTPUT);
  if (!existsSync(output)) return `${CONSOLE_OUTPUT} does not exist`;
  const built = statSync(output).mtimeMs;
  const newer = CONSOLE_SOURCES.find((s) => newestMtime(path.join(dir, s)) > built);
  return newer && `${newer} changed since the last build`;
}

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
  if (DEFAULT_TEMPLATE_DIR === 'off') return console.log('Embedded-database template: DB_TEMPLATE_DIR=off, not built.');
  const status = await templateStatus();
  const templateReason = force ? 'forced' : !status.usable ? status.reason : status.behind.length ? `new migrations: ${status.behind.join(', ')}` : undefined;
  if (templateReason) {
    console.log(`Building the embedded-database template (${templateReason}) …`);
    const started = performance.now();
    // A template that only lacks newer migrations gets them applied; anything else is built anew.
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
