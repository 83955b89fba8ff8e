/**
 * Object-store benchmark (issue 27 "Figures"), everything against its own Ceph Object Gateway on
 * loopback (scripts/s3-test-server.sh, bluestore in a sparse file) and the local portal as a child
 * process with BLOB_STORE=s3://<bucket>/bench and an embedded database in a temporary DATA_DIR, run
 * with the Node flags of `npm start` (package.json; V8's young-generation size among them):
 *
 *  1. Upload: a BENCH_OBJECT_MB (512) MiB file of random bytes as a plain SDK upload
 *     (`@aws-sdk/lib-storage` Upload of a file stream, parts of 16 MiB, 4 at once) — the baseline —
 *     and through the portal as a client would: generateToken, addItem multipart=true, addPart of
 *     each part (BENCH_PART_MB, default 16,32,64 — one run each, BENCH_PARALLEL (3) requests at
 *     once, fetch with a FormData whose file is a slice of a file-backed Blob, so the client streams),
 *     commit, status until completed. Each part size gets its own baseline upload right before it,
 *     so a row's ratio compares two runs under the same load. Goal (issue 39): SDK time ÷ portal time ≥ 0.9,
 *     and the portal's RSS growth (peak during − before, sampled every 50 ms) < 64 MB.
 *  2. Ranged reads: BENCH_RANGE_READS (200) GETs of 1 MiB at random offsets of
 *     content/items/<id>/data with `Range: bytes=a-b`, against the same ranged GetObject of the
 *     baseline object (same size, same store) with the SDK, alternated; every answer's bytes are
 *     compared with the file. Goal: portal p95 ≤ 2 × store p95.
 *
 * CPU seconds of the portal, the Ceph daemons and this client are printed for each upload and for
 * its two phases (addPart, commit): they share the machine's cores, and the split shows which of
 * them a slow step kept busy (docs/benchmarks.md "Object store" reads them).
 * Prints a table, then the figures as one JSON line.
 * Usage: npm run bench:object-store   (needs Debian's ceph-mon, ceph-osd, radosgw; ~3 min)
 *        BENCH_CLIENT=formdata: fetch with a FormData for addPart instead of a form streamed over node:http;
 *        BENCH_TOKEN_AT=last: the token after each part's file (the spooled path), to compare with the default;
 *        with BENCH_PART_MB=16,32 — 3 parts of 64 MiB at once pass the 150 MB one address may send before its token
 */
import { randomBytes } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { createReadStream, openAsBlob } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { DEMO_PASSWORD } from '../src/server/config.ts';
import { fmt, freshDataDir, startFlags, startProcess } from './lib.ts';
import { cpuBetween, cpuSnapshot, sampled, type Sampled } from './processSampler.ts';
import { freePorts, startS3TestServer } from '../test/support/s3.ts';

const MiB = 1024 * 1024;
const OBJECT_MB = Number(process.env.BENCH_OBJECT_MB ?? 512);
const PART_SIZES_MB = (process.env.BENCH_PART_MB ?? '16,32,64').split(',').map(Number);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 3);
const RANGE_READS = Number(process.env.BENCH_RANGE_READS ?? 200);
const RANGE_BYTES = MiB;
/** `last`: the token after the file, as rest-js sends it — each part then comes through a temporary file. */
const TOKEN_AT = process.env.BENCH_TOKEN_AT === 'last' ? 'last' : 'first';
/**
 * How this client sends addPart: `stream` (default) writes the form over node:http as a browser or
 * curl does, costing about what the SDK's own client costs; `formdata` is fetch with a FormData,
 * whose web-stream encoding in Node costs the client 2–3 times the SDK's CPU on the cores the portal
 * and the store share.
 */
const CLIENT = process.env.BENCH_CLIENT === 'formdata' ? 'formdata' : 'stream';
const keepAlive = new HttpAgent({ keepAlive: true });
const SDK_PART_MB = 16;
const SDK_QUEUE = 4;
const USER = 'user1';
const PORTAL_STOP_MS = 10_000;

// --- Clean-up that runs on success, failure and Ctrl-C: the portal, then the S3 server.
const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;
/** Ends the run's requests to the portal when the clean-up starts (an interrupted upload stops sending). */
const stopping = new AbortController();
/** One clean-up, however many ask (a signal and the failing run both do): each waits for its end. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    stopping.abort();
    for (const fn of cleanups.reverse()) await fn().catch((err: Error) => console.error(`clean-up failed: ${err.message}`));
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the portal and the S3 test server…`);
    void cleanUp().then(() => process.exit(130));
  });
}

/** The benchmark's input, made once and kept in /tmp for later runs. */
async function sourceFile(): Promise<string> {
  const file = path.join(tmpdir(), `portal-bench-object-${OBJECT_MB}MiB.bin`);
  const existing = await stat(file).catch(() => null);
  if (existing?.size === OBJECT_MB * MiB) return file;
  const fh = await open(file, 'w');
  for (let i = 0; i < OBJECT_MB; i++) await fh.write(randomBytes(MiB));
  await fh.close();
  return file;
}

/** A deterministic PRNG (xorshift32), so two runs read the same offsets. */
function offsets(count: number, size: number): number[] {
  let x = 0x2545f491;
  return Array.from({ length: count }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % (size - RANGE_BYTES + 1);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const file = await sourceFile();
  const size = (await stat(file)).size;
  const fileBlob = await openAsBlob(file);
  const fh = await open(file, 'r');
  cleanups.push(() => fh.close());
  const expected = async (start: number) => {
    const buf = Buffer.alloc(RANGE_BYTES);
    await fh.read(buf, 0, RANGE_BYTES, start);
    return buf;
  };

  const s3 = await startS3TestServer({
    storeEnv: { S3_TEST_OSD_STORE: 'bluestore', S3_TEST_STORE_BYTES: String(8 * 1024 * MiB) },
    onCleanup: (stop) => cleanups.push(stop),
  });
  const bucket = `portal-bench-${randomBytes(4).toString('hex')}`;
  await s3.bucket(bucket);
  // The monitor, the OSD and the gateway, as the script recorded them.
  const cephPids = await Promise.all(
    ['mon.a', 'osd.0', 'client.rgw.a'].map(async (n) => Number(await readFile(path.join(s3.dir, 'run', `${n}.spid`), 'utf8'))),
  );

  const dataDir = freshDataDir();
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // The embedded database: an inherited DATABASE_URL would measure a shared PostgreSQL instead.
  delete process.env.DATABASE_URL;
  const port = await freePorts();
  // The portal's Node as `npm start` runs it (its young-generation size decides how often a full
  // collection runs while parts stream through), then any BENCH_NODE_FLAGS.
  process.env.BENCH_NODE_FLAGS = [...startFlags(), process.env.BENCH_NODE_FLAGS ?? ''].join(' ');
  const starting = startProcess(
    'src/server/main.ts',
    { ...s3.env, DATA_DIR: dataDir, DEMO_DATA: 'on', BLOB_STORE: `s3://${bucket}/bench`, TLS: 'off' },
    port,
    '/sharing/rest/portals/self?f=json',
  );
  cleanups.push(async () => {
    const started = await starting.catch(() => undefined);
    if (!started || started.proc.exitCode !== null || started.proc.signalCode !== null) return;
    const exited = new Promise((resolve) => started.proc.once('exit', resolve));
    started.proc.kill('SIGTERM');
    // The portal lets requests in progress finish before it exits; an interrupted run must not wait on that for ever.
    const late = setTimeout(() => started.proc.kill('SIGKILL'), PORTAL_STOP_MS);
    await exited;
    clearTimeout(late);
  });
  const portal = await starting;
  const pid = portal.proc.pid!;
  const watch = { portal: [pid], ceph: cephPids, client: [process.pid] };
  const rest = `${portal.baseUrl}/sharing/rest`;

  // --- The portal's operations, as a client sends them.
  const post = async (op: string, fields: Record<string, string>): Promise<any> => {
    const res = await fetch(`${rest}/${op}`, { method: 'POST', body: new URLSearchParams({ f: 'json', ...fields }), signal: stopping.signal });
    const body = await res.json();
    if (body.error) throw new Error(`${op}: ${JSON.stringify(body.error)}`);
    return body;
  };
  const { token } = await post('generateToken', { username: USER, password: DEMO_PASSWORD, expiration: '600', client: 'requestip' });
  const itemPath = (id: string) => `content/users/${USER}/items/${id}`;

  /**
   * addPart of bytes [start, end): partNum in the query string as rest-js sends it; the token in a
   * field before the file, so the portal sends the part on to the store as it arrives (no temporary file).
   */
  const addPart = (id: string, partNum: number, start: number, end: number) =>
    CLIENT === 'formdata' ? addPartWithFormData(id, partNum, start, end) : addPartAsStream(id, partNum, start, end);

  /**
   * The form written as it goes, as a browser or curl sends a file: the fields, then the file's bytes
   * read from disk, then the closing boundary, over one node:http request with its length stated.
   */
  const addPartAsStream = async (id: string, partNum: number, start: number, end: number) => {
    const boundary = `----bench${randomBytes(12).toString('hex')}`;
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = Buffer.from(
      `${field('f', 'json')}${TOKEN_AT === 'first' ? field('token', token) : ''}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part${partNum}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n${TOKEN_AT === 'last' ? field('token', token) : ''}--${boundary}--\r\n`);
    const url = new URL(`${rest}/${itemPath(id)}/addPart?partNum=${partNum}`);
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          agent: keepAlive,
          signal: stopping.signal,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + (end - start) + tail.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.write(head);
      const bytes = createReadStream(file, { start, end: end - 1, highWaterMark: MiB });
      bytes.on('error', reject);
      bytes.on('end', () => req.end(tail));
      bytes.pipe(req, { end: false });
    });
    const answer = JSON.parse(body);
    if (answer.error || !answer.success) throw new Error(`addPart ${partNum}: ${body}`);
  };

  /** The form as fetch builds it from a FormData (undici reads the Blob through a web stream). */
  const addPartWithFormData = async (id: string, partNum: number, start: number, end: number) => {
    const form = new FormData();
    form.set('f', 'json');
    if (TOKEN_AT === 'first') form.set('token', token);
    form.set('file', fileBlob.slice(start, end), `part${partNum}`);
    if (TOKEN_AT === 'last') form.set('token', token);
    const res = await fetch(`${rest}/${itemPath(id)}/addPart?partNum=${partNum}`, { method: 'POST', body: form, signal: stopping.signal });
    const body = await res.json();
    if (body.error || !body.success) throw new Error(`addPart ${partNum}: ${JSON.stringify(body)}`);
  };

  /** One multipart upload of the whole file; answers the item id and the time its parts took. */
  const uploadThroughPortal = async (partMb: number, title: string, bytes = size) => {
    const partBytes = partMb * MiB;
    const { id } = await post(`content/users/${USER}/addItem`, { token, multipart: 'true', filename: `${title}.bin` });
    const count = Math.ceil(bytes / partBytes);
    const t0 = performance.now();
    const cpu0 = await cpuSnapshot(watch);
    let next = 1;
    const worker = async () => {
      while (next <= count) {
        const n = next++;
        await addPart(id, n, (n - 1) * partBytes, Math.min(bytes, n * partBytes));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, count) }, worker));
    const partsMs = performance.now() - t0;
    const cpu1 = await cpuSnapshot(watch);
    await post(`${itemPath(id)}/commit`, { token, type: 'Image', title });
    for (;;) {
      const status = await post(`${itemPath(id)}/status`, { token });
      if (status.status === 'completed') break;
      if (status.status === 'failed') throw new Error(`commit failed: ${status.statusMessage}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const item = await post(`content/items/${id}`, { token });
    if (item.size !== bytes) throw new Error(`the item holds ${item.size} bytes, ${bytes} were sent`);
    return { id: id as string, partsMs, count, partsCpu: cpuBetween(cpu0, cpu1), commitCpu: cpuBetween(cpu1, await cpuSnapshot(watch)) };
  };

  const uploadWithSdk = async (key: string) => {
    const upload = new Upload({
      client: s3.client,
      params: { Bucket: bucket, Key: key, Body: createReadStream(file, { highWaterMark: MiB }) },
      partSize: SDK_PART_MB * MiB,
      queueSize: SDK_QUEUE,
    });
    await upload.done();
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    if (head.ContentLength !== size) throw new Error(`the SDK's object holds ${head.ContentLength} bytes, ${size} were sent`);
  };

  // --- Warm-up (JIT, connections, first parts and joins), then let the portal settle.
  {
    const warm = await uploadThroughPortal(8, 'warm-up', 24 * MiB);
    await post(`${itemPath(warm.id)}/delete`, { token });
    await new Promise((r) => setTimeout(r, 2000));
  }

  // --- 1. Uploads: per part size, the SDK's baseline right before the portal's run.
  const rows: { partMb: number; parts: number; sdk: Sampled<void>; portal: Sampled<Awaited<ReturnType<typeof uploadThroughPortal>>> }[] = [];
  const sdkKey = 'baseline/object.bin';
  for (const partMb of PART_SIZES_MB) {
    await s3.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: sdkKey }));
    const sdk = await sampled(pid, watch, () => uploadWithSdk(sdkKey));
    const viaPortal = await sampled(pid, watch, () => uploadThroughPortal(partMb, `upload-${partMb}`));
    rows.push({ partMb, parts: viaPortal.value.count, sdk, portal: viaPortal });
    // Keep the last item for the reads; the others' objects would only fill the store.
    if (partMb !== PART_SIZES_MB.at(-1)) await post(`${itemPath(viaPortal.value.id)}/delete`, { token });
  }
  const itemId = rows.at(-1)!.portal.value.id;

  // --- 2. Ranged reads, alternated, each answer checked against the file.
  const viaPortalMs: number[] = [];
  const viaStoreMs: number[] = [];
  const readPortal = async (start: number) => {
    const t = performance.now();
    const res = await fetch(`${rest}/content/items/${itemId}/data?token=${token}`, {
      headers: { range: `bytes=${start}-${start + RANGE_BYTES - 1}` },
      signal: stopping.signal,
    });
    const body = Buffer.from(await res.arrayBuffer());
    viaPortalMs.push(performance.now() - t);
    if (res.status !== 206) throw new Error(`a ranged read answered ${res.status}`);
    return body;
  };
  const readStore = async (start: number) => {
    const t = performance.now();
    const out = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: sdkKey, Range: `bytes=${start}-${start + RANGE_BYTES - 1}` }));
    const body = Buffer.from(await out.Body!.transformToByteArray());
    viaStoreMs.push(performance.now() - t);
    return body;
  };
  const readRss = await sampled(pid, watch, async () => {
    const list = offsets(RANGE_READS, size);
    for (const [i, start] of list.entries()) {
      const [a, b] = i % 2 ? [await readStore(start), await readPortal(start)] : [await readPortal(start), await readStore(start)];
      const want = await expected(start);
      if (!a.equals(want) || !b.equals(want)) throw new Error(`the bytes read at ${start} differ from the file`);
    }
  });
  viaPortalMs.sort((x, y) => x - y);
  viaStoreMs.sort((x, y) => x - y);

  await cleanUp();

  // --- Report.
  const mbps = (ms: number) => size / MiB / (ms / 1000);
  const cpu = (s: Sampled<unknown>) => `portal ${fmt(s.cpu.portal, 1)} s, Ceph ${fmt(s.cpu.ceph, 1)} s, client ${fmt(s.cpu.client, 1)} s`;
  console.log(
    `\n${fmt(size / MiB)} MiB of random bytes; Ceph Object Gateway (bluestore) on 127.0.0.1, started in ${fmt(s3.startMs / 1000, 1)} s; portal with an embedded database`,
  );
  console.log(
    `baseline: lib-storage Upload of a file stream, parts of ${SDK_PART_MB} MiB, ${SDK_QUEUE} at once; portal: addPart ${PARALLEL} at once (${CLIENT === 'stream' ? 'a streamed form over node:http' : 'fetch with a FormData'}, token ${TOKEN_AT === 'first' ? 'before' : 'after'} the file), then commit`,
  );
  console.log(`${'upload'.padEnd(34)} ${'time'.padStart(8)} ${'MiB/s'.padStart(6)}  ratio  RSS before → peak (growth)   CPU during`);
  for (const r of rows) {
    console.log(
      `${'SDK Upload (baseline)'.padEnd(34)} ${`${fmt(r.sdk.ms / 1000, 1)} s`.padStart(8)} ${fmt(mbps(r.sdk.ms)).padStart(6)}  ${''.padEnd(5)}  ${''.padEnd(27)} ${cpu(r.sdk)}`,
    );
    console.log(
      `${`portal, ${r.parts} parts of ${r.partMb} MiB`.padEnd(34)} ${`${fmt(r.portal.ms / 1000, 1)} s`.padStart(8)} ${fmt(mbps(r.portal.ms)).padStart(6)}  ${fmt(r.sdk.ms / r.portal.ms, 2).padStart(5)}  ${`${fmt(r.portal.rssBeforeMb)} → ${fmt(r.portal.rssPeakMb)} MB (+${fmt(r.portal.rssGrowthMb, 1)})`.padEnd(27)} ${cpu(r.portal)}`,
    );
    console.log(
      `${''.padEnd(34)} addPart × ${r.parts}: ${fmt(r.portal.value.partsMs / 1000, 1)} s, commit (join) and status: ${fmt((r.portal.ms - r.portal.value.partsMs) / 1000, 1)} s`,
    );
  }
  console.log('goal: ratio ≥ 0.9, RSS growth < 64 MB');
  const rp = { p50: percentile(viaPortalMs, 50), p95: percentile(viaPortalMs, 95) };
  const rs = { p50: percentile(viaStoreMs, 50), p95: percentile(viaStoreMs, 95) };
  console.log(`\n${RANGE_READS} ranged reads of 1 MiB at random offsets, alternated, every answer compared with the file`);
  console.log(`${'GetObject with Range (store)'.padEnd(34)} p50 ${fmt(rs.p50, 1).padStart(6)} ms  p95 ${fmt(rs.p95, 1).padStart(6)} ms`);
  console.log(
    `${'content/items/<id>/data with Range'.padEnd(34)} p50 ${fmt(rp.p50, 1).padStart(6)} ms  p95 ${fmt(rp.p95, 1).padStart(6)} ms  p95 ratio ${fmt(rp.p95 / rs.p95, 2)}× (goal ≤ 2×)  portal RSS growth +${fmt(readRss.rssGrowthMb, 1)} MB`,
  );
  console.log(
    JSON.stringify({
      bench: 'object-store',
      objectBytes: size,
      parallel: PARALLEL,
      tokenAt: TOKEN_AT,
      client: CLIENT,
      uploads: rows.map((r) => ({
        partMb: r.partMb,
        sdkMs: Math.round(r.sdk.ms),
        portalMs: Math.round(r.portal.ms),
        partsMs: Math.round(r.portal.value.partsMs),
        ratio: Number((r.sdk.ms / r.portal.ms).toFixed(3)),
        rssBeforeMb: Number(r.portal.rssBeforeMb.toFixed(1)),
        rssPeakMb: Number(r.portal.rssPeakMb.toFixed(1)),
        rssGrowthMb: Number(r.portal.rssGrowthMb.toFixed(1)),
        cpuSeconds: r.portal.cpu,
        partsCpuSeconds: r.portal.value.partsCpu,
        commitCpuSeconds: r.portal.value.commitCpu,
        sdkCpuSeconds: r.sdk.cpu,
      })),
      rangedReads: {
        count: RANGE_READS,
        bytes: RANGE_BYTES,
        portalP50Ms: rp.p50,
        portalP95Ms: rp.p95,
        storeP50Ms: rs.p50,
        storeP95Ms: rs.p95,
        p95Ratio: rp.p95 / rs.p95,
      },
    }),
  );
}

try {
  await main();
} finally {
  await cleanUp();
}
