/**
 * Builds the conformance page (test/sdk/app) with Vite into the system temp directory, once per
 * content: the SDK is large, so a build is reused while the page, this file and the SDK's version
 * are unchanged. Never writes into the project (dist/ is the console's).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const appDir = path.join(here, 'app');
const sdkPackage = fileURLToPath(new URL('../../node_modules/@arcgis/core/package.json', import.meta.url));

/** The folder the SDK's own assets are served from (esriConfig.assetsPath). */
export const SDK_ASSETS_DIR = path.join(path.dirname(sdkPackage), 'assets');

function contentHash(): string {
  const hash = createHash('sha256');
  for (const file of [path.join(appDir, 'index.html'), path.join(appDir, 'main.ts'), fileURLToPath(import.meta.url), sdkPackage]) {
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The built page's folder (index.html and its chunks), building it when no build of this content exists. */
export async function buildSdkPage(): Promise<string> {
  const outDir = path.join(tmpdir(), `portal-sdk-page-${contentHash()}`);
  if (existsSync(path.join(outDir, 'index.html'))) return outDir;
  const started = performance.now();
  await build({
    configFile: false,
    root: appDir,
    base: './',
    logLevel: 'warn',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 10_000,
    },
  });
  console.log(`SDK page built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${outDir}`);
  return outDir;
}
