/**
 * `npm start`: build what is out of date, then run the service from its bundle in this process.
 *
 * Deciding what is out of date (scripts/build-if-stale.ts: the console, the service's bundle, the
 * demo accounts' password hashes, the database template) runs through tsx and reads the service's
 * configuration, which took about a second before the service even began to start. This launcher is
 * plain JavaScript on Node's built-ins: it runs that check only when something the check reads may
 * have changed since the check last passed. It keeps the time of the last passing check and the
 * settings it ran with (dist/start-check.json); a file under the check's inputs modified after that
 * time, another setting, or a missing output, and the check runs again (and builds what is stale).
 *
 * The service then runs here rather than in a child process, so that no launcher stays resident as
 * its parent (npm's shell hands its process over to this one). package.json gives this process the
 * service's Node flags.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampFile = (dir) => path.join(dir, 'dist', 'start-check.json');
/** The service's bundle (scripts/build-server.ts SERVER_BUNDLE) under the project folder `dir`. */
const serviceBundle = (dir) => path.join(dir, 'dist', 'server', 'main.cjs');

/**
 * Everything the check (or the builds it starts) reads: all of src (the console's, the service's and
 * the shared sources, the migrations), the build scripts and configuration, the lock file, and the
 * PGlite version the template is tied to. A superset is safe: it only runs the check more often.
 */
const INPUTS = [
  'src',
  'scripts',
  'index.html',
  'public',
  'vite.config.ts',
  'postcss.config.cjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'node_modules/@electric-sql/pglite/package.json',
];

/**
 * The settings the check's decisions depend on (config.ts): where the template and the hashes are,
 * and what the demo accounts' hashes are for. Of the admin password only whether one is given.
 */
function checkSettings(env = process.env) {
  return {
    DB_TEMPLATE_DIR: env.DB_TEMPLATE_DIR ?? '',
    DEMO_HASHES_FILE: env.DEMO_HASHES_FILE ?? '',
    PASSWORD_LOG_N: env.PASSWORD_LOG_N ?? '',
    DEMO_DATA: env.DEMO_DATA ?? '',
    adminPasswordGiven: env.PORTAL_ADMIN_PASSWORD !== undefined,
  };
}

/** What the check leaves behind; one of them missing (dist deleted, a template removed) means check again. */
function outputs(dir, env) {
  const template = env.DB_TEMPLATE_DIR || path.join(dir, 'dist', 'db-template');
  return [
    path.join(dir, 'dist', 'client', 'index.html'),
    serviceBundle(dir),
    ...(template === 'off' ? [] : [path.join(template, 'manifest.json')]),
    env.DEMO_HASHES_FILE || path.join(dir, 'dist', 'demo-password-hashes.json'),
  ].filter((p) => existsSync(p));
}

/** Whether any file under `p` (a file or a folder) changed after `time`; a deletion shows as its folder's change. */
function changedSince(p, time) {
  let stat;
  try {
    stat = statSync(p);
  } catch {
    return false;
  }
  if (stat.mtimeMs > time) return true;
  if (!stat.isDirectory()) return false;
  return readdirSync(p).some((entry) => changedSince(path.join(p, entry), time));
}

/** Why the build check must run, or undefined when nothing it reads changed since it last passed. */
export function checkNeeded(dir = root, env = process.env) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(dir), 'utf8'));
  } catch {
    return 'no record of a passing build check';
  }
  if (JSON.stringify(stamp.settings) !== JSON.stringify(checkSettings(env))) return 'settings changed since the last check';
  const missing = stamp.outputs.find((p) => !existsSync(p));
  if (missing) return `${path.relative(dir, missing)} is missing`;
  const changed = INPUTS.find((p) => changedSince(path.join(dir, p), stamp.checkedAt));
  return changed && `${changed} changed since the last check`;
}

/** Note that the check started at `checkedAt` passed: until an input changes, the next start skips it. */
export function recordCheck(checkedAt, dir = root, env = process.env) {
  mkdirSync(path.dirname(stampFile(dir)), { recursive: true });
  writeFileSync(stampFile(dir), `${JSON.stringify({ checkedAt, settings: checkSettings(env), outputs: outputs(dir, env) }, null, 2)}\n`);
}

/** Run the build check (it builds what is stale) when something it reads changed since it last passed. */
export function ensureBuildCurrent() {
  const reason = checkNeeded();
  if (!reason) return console.log('Build is current (nothing changed since the last check).');
  console.log(`Checking the build (${reason}) …`);
  const checkedAt = Date.now(); // before it reads anything: a file changed while it runs makes the next start check again
  const check = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'build-if-stale.ts')], { cwd: root, stdio: 'inherit' });
  if (check.status !== 0) process.exit(check.status ?? 1);
  recordCheck(checkedAt);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureBuildCurrent();
  // require, not import(): importing a CommonJS file makes Node's ES module loader parse the 1 MB
  // bundle once more for its named exports, which nothing here uses.
  createRequire(import.meta.url)(serviceBundle(root));
}
