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
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { projectPath } from '../src/server/projectPaths.ts';

export const SERVER_BUNDLE = projectPath('dist', 'server', 'main.mjs');
const CHUNKS = 'chunks';

/** `outfile`: the entry's path; its chunks go to a `chunks` folder beside it (the old ones removed first). */
export async function buildServer(outfile = SERVER_BUNDLE): Promise<void> {
  const { build } = await import('esbuild'); // only when bundling: `npm start`'s check imports SERVER_BUNDLE alone
  const outdir = path.dirname(outfile);
  await rm(path.join(outdir, CHUNKS), { recursive: true, force: true });
  await build({
    entryPoints: {
      [path.basename(outfile, '.mjs')]: projectPath('src', 'server', 'main.ts'),
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
    // Names kept: stack traces and error messages read as in the sources.
    keepNames: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const started = performance.now();
  await buildServer();
  console.log(`Service bundled into ${path.relative(process.cwd(), SERVER_BUNDLE)} (${Math.round(performance.now() - started)} ms)`);
}
