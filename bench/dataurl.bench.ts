/**
 * dataUrl benchmark. Prints, measured in this run on this machine: a 64 MB file served by a local
 * range-capable HTTP server, fetched
 *  - baseline: by one plain GET streamed to a file on the same disk (this process);
 *  - through addItem with dataUrl and async=true on the service (ALLOW_PRIVATE_OUTBOUND=on), from
 *    the request until getItemStatus says completed (the service downloads it in byte-range parts);
 * as MB/s and the ratio service : plain GET (goal >= 0.8). Best of BENCH_RUNS (3) runs each; the
 * status is polled every 20 ms (faster polling competes with the download for the service).
 * Usage: node --import tsx bench/dataurl.bench.ts   (BENCH_DATAURL_MB=64 by default)
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { fmt, freshDataDir, startProcess } from './lib.ts';

const MB = 1024 * 1024;
const sizeMb = Number(process.env.BENCH_DATAURL_MB ?? 64);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dataDir = freshDataDir();
const source = path.join(dataDir, 'source.bin');
{
  const fh = await open(source, 'w');
  const block = Buffer.alloc(8 * MB);
  for (let i = 0; i < block.length; i++) block[i] = (i * 2654435761) >>> 24;
  for (let w = 0; w < sizeMb * MB; w += block.length) await fh.write(block, 0, Math.min(block.length, sizeMb * MB - w));
  await fh.close();
}
const bytes = (await stat(source)).size;

// A range-capable static file server (what a web server or object store offers).
let rangeRequests = 0;
const server = http.createServer((req, res) => {
  const m = /bytes=(\d+)-(\d+)?/.exec(req.headers.range ?? '');
  if (m) {
    rangeRequests++;
    const start = Number(m[1]);
    const end = Math.min(m[2] ? Number(m[2]) : bytes - 1, bytes - 1);
    res.writeHead(206, {
      'content-range': `bytes ${start}-${end}/${bytes}`,
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      'content-type': 'application/octet-stream',
    });
    createReadStream(source, { start, end, highWaterMark: MB }).pipe(res);
    return;
  }
  res.writeHead(200, { 'content-length': bytes, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' });
  createReadStream(source, { highWaterMark: MB }).pipe(res);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const fileUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data/source.bin`;

async function plainGet(): Promise<number> {
  const target = path.join(dataDir, 'plain.bin');
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    http.get(fileUrl, (res) => pipeline(res, createWriteStream(target)).then(resolve, reject)).on('error', reject);
  });
  const ms = performance.now() - t0;
  if ((await stat(target)).size !== bytes) throw new Error('plain GET: wrong size');
  await rm(target);
  return ms;
}

const service = await startProcess(
  'src/server/main.ts',
  { DATA_DIR: path.join(dataDir, 'service'), DEMO_DATA: 'on', ALLOW_PRIVATE_OUTBOUND: 'on' },
  3321,
  '/sharing/rest/portals/self?f=json',
);
const rest = `${service.baseUrl}/sharing/rest`;
const post = async (p: string, params: Record<string, string>) =>
  (await (await fetch(`${rest}/${p}`, { method: 'POST', body: new URLSearchParams({ f: 'json', ...params }) })).json()) as Record<string, any>;
const { token } = await post('generateToken', { username: 'user1', password: DEMO_PASSWORD, expiration: '600' });

async function viaService(): Promise<number> {
  const t0 = performance.now();
  const added = await post('content/users/user1/addItem', { token, title: 'Download', type: 'CSV', dataUrl: fileUrl, async: 'true' });
  if (!added.id) throw new Error(JSON.stringify(added));
  for (;;) {
    const s = await post(`content/users/user1/items/${added.id}/status`, { token });
    if (s.status === 'completed') break;
    if (s.status !== 'processing') throw new Error(`dataUrl job: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - t0;
}

// Warm-up of both paths (JIT, page cache of the source).
await plainGet();
await viaService();
const plain: number[] = [];
const svc: number[] = [];
rangeRequests = 0;
for (let i = 0; i < runs; i++) {
  plain.push(await plainGet());
  svc.push(await viaService());
}
await service.stop();
server.close();
await rm(dataDir, { recursive: true, force: true });

const rate = (ms: number) => bytes / MB / (ms / 1000);
const best = (xs: number[]) => Math.min(...xs);
console.log(`file: ${fmt(bytes / MB)} MB from a local range-capable server; best of ${runs} runs`);
console.log(
  `baseline: one plain GET to disk          ${fmt(rate(best(plain))).padStart(6)} MB/s  (${fmt(best(plain))} ms; runs ${plain.map((m) => fmt(m)).join(', ')} ms)`,
);
console.log(
  `addItem dataUrl async → completed        ${fmt(rate(best(svc))).padStart(6)} MB/s  (${fmt(best(svc))} ms; runs ${svc.map((m) => fmt(m)).join(', ')} ms; ${rangeRequests / runs} range requests per run)`,
);
console.log(`ratio service : plain GET = ${fmt(rate(best(svc)) / rate(best(plain)), 2)} (goal >= 0.8)`);
