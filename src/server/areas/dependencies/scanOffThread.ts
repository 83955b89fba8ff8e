/**
 * Large item data is read for references on a worker thread (scanWorker.ts), not on the thread that
 * serves requests: JSON.parse is one synchronous call, linear in the text but up to
 * LIMITS.referenceDataBytes (8 MB, 50 ms and more on a loaded machine) at a time, and any member
 * may send such data with addItem or update (issue 35 item 1). Text up to
 * REFERENCE_PARSE_ON_THREAD_BYTES is parsed in place (well under a millisecond a kilobyte; the walk
 * then runs in slices, indexer.ts). docs/security.md "Cost: no request can stall the others".
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LIMITS } from '../../../shared/limits.ts';
import type { ReferenceItem, ReferenceScan } from '../../../shared/references/references.ts';
import type { ScanRequest } from './scanWorker.ts';

/** Item data text longer than this is parsed and scanned on the worker thread. */
export const REFERENCE_PARSE_ON_THREAD_BYTES = LIMITS.referenceParseOnThreadBytes;

type Answer = { id: number; scan: ReferenceScan } | { id: number; error: string };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (s: ReferenceScan) => void; reject: (e: Error) => void }>();

/** A worker's code that registers tsx's loader (`--import tsx` in execArgv does not reach a worker on Node 20) and then loads `url`. */
const fromSources = (url: string) =>
  `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`;

/**
 * From the sources (tests, `npm run dev`) the worker is TypeScript, loaded with tsx; `npm start`
 * runs the bundle's, an entry of its own beside main.cjs (scripts/build-server.ts), where this module
 * is bundled.
 */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const w = here.endsWith('.ts')
    ? new Worker(fromSources(new URL('./scanWorker.ts', import.meta.url).href), { eval: true })
    : new Worker(path.join(path.dirname(here), 'scanWorker.cjs'));
  // An idle worker does not keep the process alive; one with work in hand does (ref below).
  w.unref();
  w.on('message', (a: Answer) => {
    const p = pending.get(a.id);
    if (!p) return;
    pending.delete(a.id);
    if (!pending.size) w.unref();
    if ('scan' in a) p.resolve(a.scan);
    else p.reject(new Error(a.error));
  });
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the reference scan worker exited (${code})`)));
  return w;
}

/** Parses `text` and scans it for the item's references on the worker thread. */
export function scanOffThread(item: ReferenceItem, text: string): Promise<ReferenceScan> {
  worker ??= startWorker();
  const w = worker;
  const id = nextId++;
  const request: ScanRequest = { id, item: { id: item.id, type: item.type, url: item.url, typeKeywords: item.typeKeywords }, text };
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage(request);
  });
}
