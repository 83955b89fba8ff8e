/**
 * Upload benchmark. Prints, measured in this run on this machine:
 *  - baseline: a streamed copy of the same file on the same disk (read → write, then fsync), and
 *    the same copy without fsync (what the service does: it does not fsync uploads);
 *  - a multipart upload (addItem multipart=true, addPart of 16 MB parts, 2 in parallel, commit);
 *  - one multipart/form-data addItem request with the whole file (Content-Length known);
 * each as MB/s and as a ratio of the copy (goal >= 0.5), and the service process's peak RSS growth
 * over its idle RSS while each runs (sampled from /proc/<pid>/status; goal < 64 MB).
 * The client streams each request body from the file (node:http, Content-Length known), so the
 * client itself stays cheap; it shares the machine's CPUs with the service.
 * Usage: node --import tsx bench/upload.bench.ts   (BENCH_UPLOAD_MB=512 by default)
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import http from 'node:http';
import { open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { fmt, freshDataDir, startProcess } from './lib.ts';

const MB = 1024 * 1024;
const sizeMb = Number(process.env.BENCH_UPLOAD_MB ?? 512);
const partMb = Number(process.env.BENCH_PART_MB ?? 16);
const parallel = Number(process.env.BENCH_PARALLEL ?? 2);

const dataDir = freshDataDir();
const source = path.join(dataDir, 'source.bin');

// A file of random-looking bytes (written in 16 MB blocks from a PRNG, so it is cheap to make).
{
  const fh = await open(source, 'w');
  const block = Buffer.alloc(16 * MB);
  let x = 0x12345678;
  for (let written = 0; written < sizeMb * MB; written += block.length) {
    for (let i = 0; i < block.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      block.writeUInt32LE(x >>> 0, i);
    }
    await fh.write(block, 0, Math.min(block.length, sizeMb * MB - written));
  }
  await fh.sync();
  await fh.close();
}
const bytes = (await stat(source)).size;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

// Baseline: copy on the same disk, streamed like the service streams.
const copyTarget = path.join(dataDir, 'copy.bin');
const copy = await timed(async () => {
  await pipeline(createReadStream(source, { highWaterMark: MB }), createWriteStream(copyTarget));
  const fh = await open(copyTarget, 'r+');
  await fh.sync();
  await fh.close();
});
await rm(copyTarget);
const copyNoSync = await timed(() => pipeline(createReadStream(source, { highWaterMark: MB }), createWriteStream(copyTarget)));
await rm(copyTarget);

const service = await startProcess(
  'src/server/main.ts',
  { DATA_DIR: path.join(dataDir, 'service'), DEMO_DATA: 'on' },
  3311,
  '/sharing/rest/portals/self?f=json',
);
const pid = service.proc.pid!;
const rssKb = async () => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** Samples RSS every 20 ms while `fn` runs; answers the peak growth over the RSS before it started, in MB. */
async function withRss<T>(fn: () => Promise<T>): Promise<{ value: T; growthMb: number; ms: number }> {
  const before = await rssKb();
  let peak = before;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await rssKb());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const { ms, value } = await timed(fn);
  done = true;
  await sampler;
  peak = Math.max(peak, await rssKb());
  return { value, ms, growthMb: (peak - before) / 1024 };
}

const rest = `${service.baseUrl}/sharing/rest`;
const tokenRes = await fetch(`${rest}/generateToken`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ username: 'user1', password: DEMO_PASSWORD, expiration: '600', f: 'json' }),
});
const { token } = (await tokenRes.json()) as { token: string };

async function call(url: string, body: URLSearchParams): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', body });
  const json = (await res.json()) as Record<string, unknown>;
  if (json.error) throw new Error(`${url}: ${JSON.stringify(json.error)}`);
  return json;
}

/** POST multipart/form-data: text fields, then bytes [start, end) of the source file as `file`, streamed. */
function postFile(url: string, fields: Record<string, string>, start: number, end: number, filename: string): Promise<Record<string, unknown>> {
  const boundary = `----bench${randomUUID()}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + (end - start) + tail.length } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          const json = JSON.parse(text) as Record<string, unknown>;
          if (json.error) reject(new Error(`${url}: ${JSON.stringify(json.error)}`));
          else resolve(json);
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const body = createReadStream(source, { start, end: end - 1, highWaterMark: MB });
    body.on('error', reject);
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}

// Let the service settle (JIT, first requests) before measuring its idle RSS.
await call(`${rest}/content/users/user1/addItem`, new URLSearchParams({ f: 'json', token, title: 'warm-up', type: 'Web Map', text: '{}' }));

// Warm the file paths too (the first multipart bodies run cold code): a few parts and files of 16 MB.
{
  const warm = await call(`${rest}/content/users/user1/addItem`, new URLSearchParams({ f: 'json', token, multipart: 'true', filename: 'warm.bin' }));
  for (let n = 1; n <= 4; n++) {
    await postFile(`${rest}/content/users/user1/items/${warm.id}/addPart?partNum=${n}`, { f: 'json', token }, 0, Math.min(bytes, 16 * MB), `warm${n}`);
    await postFile(`${rest}/content/users/user1/addItem`, { f: 'json', token, title: 'warm', type: 'CSV' }, 0, Math.min(bytes, 16 * MB), 'warm.bin');
  }
  await call(`${rest}/content/users/user1/items/${warm.id}/cancel`, new URLSearchParams({ f: 'json', token }));
}

let partsMs = 0;
const multipart = await withRss(async () => {
  const start = await call(`${rest}/content/users/user1/addItem`, new URLSearchParams({ f: 'json', token, multipart: 'true', filename: 'big.bin' }));
  const id = start.id as string;
  const parts = Math.ceil(bytes / (partMb * MB));
  let next = 1;
  const worker = async () => {
    while (next <= parts) {
      const n = next++;
      await postFile(
        `${rest}/content/users/user1/items/${id}/addPart?partNum=${n}`,
        { f: 'json', token },
        (n - 1) * partMb * MB,
        Math.min(bytes, n * partMb * MB),
        `part${n}`,
      );
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: parallel }, worker));
  partsMs = performance.now() - t0;
  await call(`${rest}/content/users/user1/items/${id}/commit`, new URLSearchParams({ f: 'json', token, title: 'Big', type: 'CSV' }));
  return id;
});

const single = await withRss(async () => {
  return (await postFile(`${rest}/content/users/user1/addItem`, { f: 'json', token, title: 'Big single', type: 'CSV' }, 0, bytes, 'big.bin')).id as string;
});

await service.stop();
await rm(dataDir, { recursive: true, force: true });

const rate = (ms: number) => bytes / MB / (ms / 1000);
console.log(`file: ${fmt(bytes / MB)} MB, parts of ${partMb} MB, ${parallel} in parallel`);
console.log(`baseline: streamed copy on the same disk   ${fmt(rate(copy.ms), 0).padStart(6)} MB/s  (${fmt(copy.ms)} ms, with fsync)`);
console.log(`          the same copy without fsync      ${fmt(rate(copyNoSync.ms), 0).padStart(6)} MB/s  (${fmt(copyNoSync.ms)} ms)`);
console.log(
  `multipart upload (addPart × N + commit)    ${fmt(rate(multipart.ms), 0).padStart(6)} MB/s  ratio ${fmt(rate(multipart.ms) / rate(copy.ms), 2)} (goal >= 0.5; ${fmt(rate(multipart.ms) / rate(copyNoSync.ms), 2)} of the copy without fsync)  peak RSS growth ${fmt(multipart.growthMb, 1)} MB (goal < 64)`,
);
console.log(`   of which addPart × ${Math.ceil(bytes / (partMb * MB))}: ${fmt(partsMs)} ms, commit (joining the parts): ${fmt(multipart.ms - partsMs)} ms`);
console.log(
  `single multipart/form-data addItem         ${fmt(rate(single.ms), 0).padStart(6)} MB/s  ratio ${fmt(rate(single.ms) / rate(copy.ms), 2)} (goal >= 0.5; ${fmt(rate(single.ms) / rate(copyNoSync.ms), 2)} of the copy without fsync)  peak RSS growth ${fmt(single.growthMb, 1)} MB (goal < 64)`,
);
