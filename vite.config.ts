import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Server test files that need the S3 test server (Ceph, test/support/s3.ts): the 'infra' project,
 * run as a step of its own (`npm run test:infra`) rather than inside `npm test`'s unit run.
 */
const INFRA_TESTS = [
  'src/server/areas/items/objectStore.test.ts',
  'src/server/areas/items/streamedParts.s3.test.ts',
  'src/server/store/blobStores.test.ts',
  'src/server/areas/resources/resources.s3.test.ts',
];

// One config for the console build and for every Vitest project.
export default defineConfig({
  plugins: [react()],
  root: '.',
  publicDir: 'public',
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    // .vite/manifest.json: the chunk graph, read by bench/console.bench.ts to size the initial load.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `vite` dev server: the local portal runs separately on :3000.
    proxy: { '/sharing': 'http://127.0.0.1:3000', '/portaladmin': 'http://127.0.0.1:3000' },
  },
  test: {
    // Vitest's default is one worker fewer than the cores: on a 2-core machine a single file at a time,
    // with one core idle while that file waits on its service, timers or a child process. A test file
    // holds its own services (an embedded database each), so files run side by side safely.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          // Files share a worker's module cache: each file re-importing the whole service cost more than
          // its tests (24 area files: 201 s → 54 s wall, 157 → 89 s CPU). Every file starts its own
          // services on fresh databases, so nothing a test relies on lives in module state; the few
          // module-level caches (prepared statements, keep-alive agents) are keyed by what they cache.
          isolate: false,
          // A young generation of up to 64 MB (Node's default: 16): the suites allocate in bursts (the
          // hostile corpus sends 70,000-character values and deeply nested JSON thousands of times) and
          // a quarter of a corpus shard's CPU was scavenges. One shard, two runs each: 49.1 / 53.9 →
          // 44.5 / 45.7 CPU-s.
          execArgv: ['--max-semi-space-size=64'],
          include: ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...INFRA_TESTS],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          environment: 'node',
          include: INFRA_TESTS,
          // One S3 server for the run; files one at a time, as some stop its gateway for a while.
          globalSetup: ['test/support/s3GlobalSetup.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          // Files share a worker's module cache, as the server's do: each file re-imported React, Mantine
          // and every page (12 files: 177 s wall and 120 s CPU isolated, 96 s and 80 s shared). Each test
          // still starts signed out on an empty document; module-level stores a test can fill are emptied
          // after it (src/client/test/setup.ts).
          isolate: false,
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['src/client/test/setup.ts'],
          globalSetup: ['test/support/clientServiceGlobalSetup.ts'],
          // 60 s: `npm test` runs the end-to-end specs beside these; the longest form tests (the role
          // editor's) took 18–30 s alone on 2 cores and went past 30 s under that contention.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          environment: 'node',
          // Files share a worker's module cache, as the server's do: each file imports the service and
          // @esri/arcgis-rest-js, which isolated cost most of the project's time (20 files: import 36 s
          // of 48 s wall). Every file starts its own service on a fresh database.
          isolate: false,
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
