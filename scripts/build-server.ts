/**
 * Bundle the service for `npm start`: src/server/main.ts and every module of ours it imports as ES
 * modules in dist/server (main.mjs and its chunks), with the packages left to node_modules. Started
 * without a TypeScript loader it answers about a second sooner: loading ~200 modules through tsx's
 * hooks costs more than the service's own start-up (docs/performance.md). Tests and `npm run dev`
 * run the sources.
 *
 * Code splitting keeps each `await import()` of ours a separate chunk: in one file esbuild would hoist
 * the packages those modules import (the PostgreSQL client, the S3 SDK, sharp…) to the top, so a
 * start on the embedded database with files on disk would load them all.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT, projectPath } from '../src/server/projectPaths.ts';

export const SERVER_BUNDLE = projectPath('dist', 'server', 'main.mjs');
/**
 * The portal the console's tests start, one per test file (src/client/test/service.ts), bundled the
 * same way: from the sources, tsx's hooks cost each start about 2 of its 5 s of CPU.
 */
export const TEST_SERVICE_BUNDLE = projectPath('dist', 'test-service', 'service-process.mjs');
const CHUNKS = 'chunks';

/** `outfile`: the entry's path; its chunks go to a `chunks` folder beside it (the old ones removed first). */
export async function buildServer(outfile = SERVER_BUNDLE, entry = projectPath('src', 'server', 'main.ts')): Promise<void> {
  const { build } = await import('esbuild'); // only when bundling: `npm start`'s check imports SERVER_BUNDLE alone
  const outdir = path.dirname(outfile);
  await rm(path.join(outdir, CHUNKS), { recursive: true, force: true });
  await build({
    entryPoints: {
      [path.basename(outfile, '.mjs')]: entry,
      // The worker thread that reads large item data for references (areas/dependencies/scanOffThread.ts loads it from here).
      scanWorker: projectPath('src', 'server', 'areas', 'dependencies', 'scanWorker.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    // Mappings only: Node reads every map at load (--enable-source-maps), and the sources' text in
    // them cost about 8 MB of the idle service; a stack trace needs only the mappings.
    sourcesContent: false,
    // Names kept: stack traces and error messages read as in the sources.
    keepNames: true,
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
