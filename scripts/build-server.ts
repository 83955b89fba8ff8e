/**
 * Bundle the service for `npm start`: src/server/main.ts and every module of ours it imports in one
 * ES module, dist/server/main.mjs, with the packages left to node_modules. Started without a
 * TypeScript loader it answers about a second sooner: loading ~200 modules through tsx's hooks costs
 * more than the service's own start-up (docs/performance.md). Tests and `npm run dev` run the sources.
 */
import path from 'node:path';
import { projectPath } from '../src/server/projectPaths.ts';

export const SERVER_BUNDLE = projectPath('dist', 'server', 'main.mjs');

export async function buildServer(outfile = SERVER_BUNDLE): Promise<void> {
  const { build } = await import('esbuild'); // only when bundling: `npm start`'s check imports SERVER_BUNDLE alone
  await build({
    entryPoints: [projectPath('src', 'server', 'main.ts')],
    outfile,
    bundle: true,
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
