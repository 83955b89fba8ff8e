/**
 * Console benchmark (issue: console initial JavaScript). Prints, measured in this run on this machine:
 *  - the initial load of the built console: index.html's entry chunk and every chunk it imports
 *    statically (what the browser fetches before anything is shown), and their CSS, each gzipped
 *    (level 9) and in total against the 200 KB budget; per chunk, the packages and source folders
 *    that make it up (rendered size before compression);
 *  - first contentful paint in Chromium (Playwright) of the sign-in page (cold: new context, cache
 *    disabled) and of the overview after sign-in (a navigation to / with a session in
 *    sessionStorage, cold and with the assets cached), median and p95 over several runs, against a
 *    static HTML page served by the same service, and the time until the overview's heading shows.
 * Usage: npm run bench:console   (FCP_RUNS=9 by default; BENCH_CONSOLE_DIR=<folder> to build elsewhere)
 */
import { gzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { build, type Plugin } from 'vite';
import { fmt, freshDataDir, ROOT, startProcess } from './lib.ts';
import { CHROMIUM_ARGS, findTestBrowser, NO_BROWSER_MESSAGE } from '../e2e/browser.ts';

const BUDGET_KB = 200;
const runs = Number(process.env.FCP_RUNS ?? 9);
const port = Number(process.env.BENCH_PORT ?? 3797);
const outDir = process.env.BENCH_CONSOLE_DIR ?? mkdtempSync(path.join(tmpdir(), 'console-bench-'));
const kb = (bytes: number) => fmt(bytes / 1024, 1);

console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at start`,
);

// ---- build, keeping each chunk's composition ---------------------------------------------------
/** chunk file → (package or source folder → rendered bytes). */
const composition = new Map<string, Map<string, number>>();
function groupOf(id: string): string {
  const clean = id.replace(/^\0/, '').split('?')[0];
  const nm = clean.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = clean.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const rel = path.relative(ROOT, clean);
  return rel.startsWith('..') ? clean : path.dirname(rel);
}
const recordComposition: Plugin = {
  name: 'record-chunk-composition',
  generateBundle(_options, bundle) {
    for (const out of Object.values(bundle)) {
      if (out.type !== 'chunk') continue;
      const groups = new Map<string, number>();
      for (const [id, info] of Object.entries(out.modules)) groups.set(groupOf(id), (groups.get(groupOf(id)) ?? 0) + info.renderedLength);
      composition.set(out.fileName, groups);
    }
  },
};
const t0 = performance.now();
await build({ root: ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true, manifest: true }, plugins: [recordComposition] });
console.log(`built the console into ${outDir} in ${fmt((performance.now() - t0) / 1000, 1)} s`);

// ---- the initial load, from the manifest -------------------------------------------------------
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
const initial: string[] = [];
const css = new Set<string>();
(function walk(key: string) {
  const chunk = manifest[key];
  if (initial.includes(chunk.file)) return;
  initial.push(chunk.file);
  chunk.css?.forEach((c) => css.add(c));
  chunk.imports?.forEach(walk);
})('index.html');
const lazyCount = Object.values(manifest).filter((c) => !initial.includes(c.file) && c.file.endsWith('.js')).length;

const sizeOf = (file: string) => {
  const raw = readFileSync(path.join(outDir, file));
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
};
console.log('\ninitial load (entry + static imports), gzip level 9:');
console.log(`${'chunk'.padEnd(44)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}`);
let totalJs = 0;
let totalCss = 0;
for (const file of initial) {
  const s = sizeOf(file);
  totalJs += s.gzip;
  console.log(`${file.padEnd(44)} ${kb(s.raw).padStart(8)} ${kb(s.gzip).padStart(8)}`);
  const groups = [...(composition.get(file) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]);
  const shown = groups.slice(0, 8).map(([g, n]) => `${g} ${kb(n)}`);
  if (groups.length > 8) shown.push(`${groups.length - 8} more ${kb(groups.slice(8).reduce((a, [, n]) => a + n, 0))}`);
  console.log(`    ${shown.join(', ')}`);
}
for (const file of css) {
  const s = sizeOf(file);
  totalCss += s.gzip;
  console.log(`${file.padEnd(44)} ${kb(s.raw).padStart(8)} ${kb(s.gzip).padStart(8)}`);
}
console.log(
  `initial JavaScript: ${kb(totalJs)} KB gzip in ${initial.length} chunks (budget ${BUDGET_KB} KB: ${totalJs <= BUDGET_KB * 1024 ? 'within' : 'OVER'}); CSS ${kb(totalCss)} KB gzip; ${lazyCount} chunks load later`,
);

// ---- first contentful paint --------------------------------------------------------------------
// A static page of about the size of index.html, served by the same service: the floor for a paint.
const indexHtml = readFileSync(path.join(outDir, 'index.html'), 'utf8');
writeFileSync(
  path.join(outDir, 'fcp-baseline.html'),
  `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Baseline</title></head><body><h1>Baseline</h1><p>${'x'.repeat(Math.max(0, indexHtml.length - 120))}</p></body></html>`,
);

const dataDir = freshDataDir();
const service = await startProcess(
  'src/server/main.ts',
  { DATA_DIR: dataDir, DEMO_DATA: 'on', CONSOLE_DIR: outDir },
  port,
  '/sharing/rest/portals/self?f=json',
);
const base = service.baseUrl;
const testBrowser = findTestBrowser();
if (!testBrowser) throw new Error(NO_BROWSER_MESSAGE);
const browser: Browser = await chromium.launch({ executablePath: testBrowser.executablePath, args: CHROMIUM_ARGS });

/** In every page: when the first <h1> appears (the page's own heading, not a loader). */
const HEADING_PROBE = `(() => {
  const seen = () => { if (!window.__h1 && document.querySelector('main h1, h1')) window.__h1 = performance.now(); };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();`;

async function newContext(session?: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addInitScript(HEADING_PROBE);
  if (session) await context.addInitScript(`(() => { const s = ${session}; for (const [k, v] of Object.entries(s)) sessionStorage.setItem(k, v); })();`);
  return context;
}

interface Paint {
  fcp: number;
  heading: number | null;
}
/** Navigates and waits for the heading; FCP from the paint timeline of that navigation. */
async function measure(context: BrowserContext, url: string, headingName: RegExp, cold: boolean): Promise<Paint> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: cold });
  await page.goto(url);
  await page.getByRole('heading', { name: headingName, level: 1 }).waitFor();
  const r = await page.evaluate(
    () =>
      new Promise<{ fcp: number; heading: number | null }>((resolve) => {
        const heading = (window as unknown as { __h1?: number }).__h1 ?? null;
        const found = performance.getEntriesByName('first-contentful-paint')[0];
        if (found) return resolve({ fcp: found.startTime, heading });
        new PerformanceObserver((list) => resolve({ fcp: list.getEntries()[0].startTime, heading })).observe({ type: 'paint', buffered: true });
      }),
  );
  await page.close();
  return r;
}

// Sign in once through the form, keep the tab's sessionStorage for the overview runs.
const signInContext = await newContext();
const signInPage = await signInContext.newPage();
await signInPage.goto(`${base}/sign-in`);
await signInPage.getByRole('textbox', { name: 'Username', exact: true }).fill('admin');
await signInPage.getByRole('textbox', { name: 'Password', exact: true }).fill('Portal.Demo.2026');
await signInPage.getByRole('button', { name: 'Sign in', exact: true }).click();
await signInPage.getByRole('button', { name: /^Account menu for/ }).waitFor();
const session = await signInPage.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries(sessionStorage))));
await signInContext.close();

const results: Record<string, Paint[]> = { baseline: [], signIn: [], overviewCold: [], overviewWarm: [] };
// One warm-up round (the service's first answers, Chromium's first process), not counted.
for (let i = -1; i < runs; i++) {
  const round: Record<string, Paint> = {};
  let context = await newContext();
  round.baseline = await measure(context, `${base}/fcp-baseline.html`, /^Baseline$/, true);
  await context.close();
  context = await newContext();
  round.signIn = await measure(context, `${base}/sign-in`, /sign in/i, true);
  await context.close();
  context = await newContext(session);
  round.overviewCold = await measure(context, `${base}/`, /^Overview$/, true);
  // The same tab's assets are now cached (as after signing in): the overview again.
  round.overviewWarm = await measure(context, `${base}/`, /^Overview$/, false);
  await context.close();
  if (i >= 0) for (const [k, v] of Object.entries(round)) results[k].push(v);
}
await browser.close();
await service.stop();
// Temporary folders go; a folder given in BENCH_CONSOLE_DIR stays, to be served or inspected.
rmSync(dataDir, { recursive: true, force: true });
if (!process.env.BENCH_CONSOLE_DIR) rmSync(outDir, { recursive: true, force: true });

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const median = (v: number[]) => quantile(v, 0.5);
const baselineFcp = median(results.baseline.map((r) => r.fcp));
console.log(`\nfirst contentful paint, Chromium, ${runs} runs each (after one warm-up round), ms:`);
console.log(
  `${'page'.padEnd(34)} ${'median'.padStart(7)} ${'p95'.padStart(7)} ${'÷ baseline'.padStart(10)} ${'h1 median'.padStart(10)} ${'h1 p95'.padStart(7)}`,
);
const labels: Record<string, string> = {
  baseline: 'static HTML page (baseline)',
  signIn: 'sign-in page, cold',
  overviewCold: 'overview after sign-in, cold',
  overviewWarm: 'overview after sign-in, cached',
};
for (const [k, rs] of Object.entries(results)) {
  const fcp = rs.map((r) => r.fcp);
  const h1 = rs.map((r) => r.heading).filter((h): h is number => h !== null);
  console.log(
    `${labels[k].padEnd(34)} ${fmt(median(fcp)).padStart(7)} ${fmt(quantile(fcp, 0.95)).padStart(7)} ${fmt(median(fcp) / baselineFcp, 1).padStart(10)} ${(h1.length ? fmt(median(h1)) : '-').padStart(10)} ${(h1.length ? fmt(quantile(h1, 0.95)) : '-').padStart(7)}`,
  );
}
console.log(
  `machine load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${cpus().length} cores)`,
);
if (totalJs > BUDGET_KB * 1024) process.exitCode = 1;
