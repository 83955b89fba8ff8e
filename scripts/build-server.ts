/**
 * Bundle the service for `npm start`: src/server/main.ts and every module of ours it imports, as one
 * CommonJS file dist/server/main.cjs, with the packages left to node_modules. Started without a
 * TypeScript loader it answers about a second sooner: loading ~200 modules through tsx's hooks costs
 * more than the service's own start-up (docs/performance.md). Tests and `npm run dev` run the sources.
 *
 * CommonJS rather than ES modules: Node's ES module loader reads every CommonJS package an ES module
 * imports (fastify, its plugins, zod…) a second time to find its named exports, and links each module
 * of ours as a module record; `require` does neither. The same code started about 0.5 s of CPU sooner
 * (docs/performance.md "First start, ninth round"). Our lazily imported modules stay lazy: esbuild
 * runs each one's body (and its packages' `require`s) at its first `import()`, so a start on the
 * embedded database with files on disk still loads neither the PostgreSQL client nor the S3 SDK.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT, projectPath } from '../src/server/projectPaths.ts';

export const SERVER_BUNDLE = projectPath('dist', 'server', 'main.cjs');
/**
 * The portal the console's tests start, one per test file (src/client/test/service.ts), bundled the
 * same way: from the sources, tsx's hooks cost each start about 2 of its 5 s of CPU.
 */
export const TEST_SERVICE_BUNDLE = projectPath('dist', 'test-service', 'service-process.cjs');

/**
 * ES module sources in a CommonJS file: `import.meta.url` becomes the bundle's own URL (what
 * projectPaths.ts and createRequire need), `import.meta.resolve` a resolution from the bundle.
 */
const IMPORT_META = [
  'var __import_meta_url = require("node:url").pathToFileURL(__filename).href;',
  'var __import_meta_resolve = (specifier) => require("node:url").pathToFileURL(require.resolve(specifier)).href;',
].join('\n');

/** `outfile`: the entry's path (`.cjs`); the reference scan worker's entry goes beside it. */
export async function buildServer(outfile = SERVER_BUNDLE, entry = projectPath('src', 'server', 'main.ts')): Promise<void> {
  const { build } = await import('esbuild'); // only when bundling: `npm start`'s check imports SERVER_BUNDLE alone
  const outdir = path.dirname(outfile);
  // What the ES module bundle of earlier versions left there.
  await rm(path.join(outdir, 'chunks'), { recursive: true, force: true });
  for (const old of ['main.mjs', 'main.mjs.map', 'scanWorker.mjs', 'scanWorker.mjs.map', 'service-process.mjs', 'service-process.mjs.map']) {
    await rm(path.join(outdir, old), { force: true });
  }
  await build({
    entryPoints: {
      [path.basename(outfile, '.cjs')]: entry,
      // The worker thread that reads large item data for references (areas/dependencies/scanOffThread.ts loads it from here).
      scanWorker: projectPath('src', 'server', 'areas', 'dependencies', 'scanWorker.ts'),
    },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    define: { 'import.meta.url': '__import_meta_url', 'import.meta.resolve': '__import_meta_resolve' },
    banner: { js: IMPORT_META },
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    // Mappings only: Node reads every map at load (--enable-source-maps), and the sources' text in
    // them cost about 8 MB of the idle service; a stack trace needs only the mappings.
    sourcesContent: false,
    // Names kept: stack traces and error messages read as in the sources.
    keepNames: true,
    // No whitespace or comments: esbuild keeps the sources' comments, and the non-ASCII characters
    // in a few of them (an em dash, an ellipsis) made V8 hold the whole 1 MB text as a two-byte
    // string (2.1 MB of heap, now 0.86 MB of one-byte text). A stack trace still names the functions,
    // and `node --enable-source-maps` maps its positions through main.cjs.map to the sources.
    minifyWhitespace: true,
    logLevel: 'warning',
  });
}

/** What the service's bundle is built from: a change to any of them makes it stale. */
export const SERVER_SOURCES = ['src/server', 'src/shared', 'scripts/build-server.ts', 'package-lock.json', 'tsconfig.json'];
/** The console tests' portal reads the test support too (and the scripts it imports: the balancer). */
const TEST_SERVICE_SOURCES = [...SERVER_SOURCES, 'test/support', 'scripts', 'src/client/test/service-process.ts'];

/** The newest modification time under `p` (a file or a folder), 0 if it does not exist. */
export function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows as the folder's change
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Why `bundle` needs building from `sources` (paths from `dir`), or undefined when it is current. */
export function bundleStaleReason(bundle: string, sources: string[], dir = PROJECT_ROOT): string | undefined {
  if (!existsSync(bundle)) return `${path.relative(dir, bundle)} does not exist`;
  const built = statSync(bundle).mtimeMs;
  const newer = sources.find((s) => newestMtime(path.join(dir, s)) > built);
  return newer && `${newer} changed since the last build`;
}

/**
 * The console tests' portal, bundled when stale: their Vitest project's global setup, so that
 * `npx vitest run --project client` never starts a portal older than its sources.
 */
export async function buildTestServiceIfStale(): Promise<void> {
  const reason = bundleStaleReason(TEST_SERVICE_BUNDLE, TEST_SERVICE_SOURCES);
  if (!reason) return;
  console.log(`Bundling the console tests' portal (${reason}) …`);
  await buildServer(TEST_SERVICE_BUNDLE, projectPath('src', 'client', 'test', 'service-process.ts'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const started = performance.now();
  await buildServer();
  console.log(`Service bundled into ${path.relative(process.cwd(), SERVER_BUNDLE)} (${Math.round(performance.now() - started)} ms)`);
}
