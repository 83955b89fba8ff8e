/**
 * Async dataUrl jobs: single download at and below the 500 KB threshold, byte-range parts above it
 * when the source advertises ranges (parallel, each retried once, item completed only when all
 * arrived), failures reported in the item's status (HTTP status, redirect, SSRF refusal, a part
 * failing twice), claims with leases (a crashed run is claimed again), and who gets which job.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_OUTBOUND_ALLOW, startService, type TestService } from '../../../test/support/service.ts';
import { LIMITS } from '../../shared/limits.ts';
import { ITEM_JOB_DEFAULTS, type ItemJobSettings } from '../config.ts';
import type { PortalContext } from '../context.ts';
import { claimItemJob, runDueItemJobs, startJobs } from './itemJobs.ts';
import { onDisk } from '../store/blobs.ts';

/** The portal with some of the item jobs runner's settings overridden, as a Config would give them. */
const withItemJobs = (portal: PortalContext, itemJobs: Partial<ItemJobSettings>): PortalContext => ({
  ...portal,
  config: { ...portal.config, itemJobs: { ...ITEM_JOB_DEFAULTS, ...itemJobs } },
});

let svc: TestService;
let token: string;
let clockNow = Date.UTC(2026, 0, 1);
let server: http.Server;
let base: string;
const requests: { url: string; range?: string }[] = [];
/** Range requests to fail: key "start" → times left to fail. */
const failRanges = new Map<number, number>();
const files: Record<string, Buffer> = {};
let stall = false;
let releaseStall: (() => void) | undefined;

beforeAll(async () => {
  svc = await startService({ clock: { now: () => clockNow } });
  token = await svc.tokenFor('user1');
  files['/small.csv'] = Buffer.from('a,b\n1,2\n');
  files['/threshold.bin'] = randomBytes(LIMITS.rangeDownloadThresholdBytes);
  files['/big.bin'] = randomBytes(ITEM_JOB_DEFAULTS.partBytes * 2 + 12345);
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push({ url, range: req.headers.range });
    if (url === '/missing') return void res.writeHead(404).end('no');
    if (url === '/huge') return void res.writeHead(200, { 'content-length': 3 * 1024 * 1024 * 1024 }).end();
    const unsized = /^\/unsized\/(\d+)$/.exec(url);
    if (unsized) {
      // No Content-Length: chunked, so the size is only known by counting.
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(Buffer.alloc(Number(unsized[1]), 120));
    }
    if (url === '/stall') {
      if (req.method === 'HEAD' || !stall) return void res.writeHead(200, { 'content-length': 3 }).end(req.method === 'HEAD' ? undefined : 'abc');
      res.writeHead(200, { 'content-length': 3 });
      res.write('a');
      releaseStall = () => res.end('bc');
      return;
    }
    if (url === '/redirect') return void res.writeHead(301, { location: '/small.csv' }).end();
    const path = url.replace(/\?.*$/, '');
    const body = files[path.replace('/noranges', '')];
    if (!body) return void res.writeHead(404).end();
    const ranges = !path.startsWith('/noranges');
    const m = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (ranges && m) {
      const start = Number(m[1]);
      const end = Math.min(Number(m[2]), body.length - 1);
      const left = failRanges.get(start) ?? 0;
      if (left > 0) {
        failRanges.set(start, left - 1);
        return void res.writeHead(503).end('busy');
      }
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1, 'accept-ranges': 'bytes' });
      return void res.end(body.subarray(start, end + 1));
    }
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream', ...(ranges ? { 'accept-ranges': 'bytes' } : {}) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await svc.close();
});
beforeEach(async () => {
  clockNow += 60_000;
  requests.length = 0;
  failRanges.clear();
  await svc.db.query(`UPDATE item_jobs SET state = 'done' WHERE state IN ('queued', 'running')`);
});

async function addFromUrl(url: string): Promise<string> {
  const res = await svc.app.inject({
    method: 'POST',
    url: '/sharing/rest/content/users/user1/addItem',
    payload: { f: 'json', token, title: 'Download', type: 'CSV', dataUrl: url, async: 'true' },
  });
  const body = res.json();
  expect(body.status).toBe('processing');
  return body.id;
}

async function status(id: string) {
  const res = await svc.app.inject({ method: 'POST', url: `/sharing/rest/content/users/user1/items/${id}/status`, payload: { f: 'json', token } });
  return res.json();
}

const stored = async (id: string) => {
  const [row] = await svc.db.query<{ data_blob: string; size: number; data_kind: string }>('SELECT data_blob, size, data_kind FROM items WHERE id = $1', [id]);
  return { ...row, bytes: readFileSync(onDisk(svc.app.portal.blobs).localPath(row.data_blob)) };
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('downloads', () => {
  it('a small file: one GET, item completed with the file', async () => {
    const id = await addFromUrl(`${base}/small.csv`);
    expect(await status(id)).toMatchObject({ status: 'processing' });
    expect(await runDueItemJobs(svc.app.portal)).toBe(1);
    expect(await status(id)).toMatchObject({ status: 'completed', itemId: id });
    const s = await stored(id);
    expect(s.bytes.toString()).toBe('a,b\n1,2\n');
    expect(s.size).toBe(8);
    expect(requests.filter((r) => r.range)).toEqual([]);
    expect(await svc.db.query('SELECT state FROM item_jobs WHERE item_id = $1', [id])).toEqual([{ state: 'done' }]);
  });

  it('exactly 500 KB: still a single download', async () => {
    const id = await addFromUrl(`${base}/threshold.bin`);
    await runDueItemJobs(svc.app.portal);
    expect(sha((await stored(id)).bytes)).toBe(sha(files['/threshold.bin']));
    expect(requests.filter((r) => r.range)).toEqual([]);
  });

  it('above 500 KB with Accept-Ranges: downloaded in range parts, joined exactly', async () => {
    const id = await addFromUrl(`${base}/big.bin`);
    await runDueItemJobs(svc.app.portal);
    expect(await status(id)).toMatchObject({ status: 'completed' });
    expect(sha((await stored(id)).bytes)).toBe(sha(files['/big.bin']));
    const ranges = requests.filter((r) => r.range).map((r) => r.range);
    expect(ranges.sort()).toEqual(
      [
        `bytes=0-${ITEM_JOB_DEFAULTS.partBytes - 1}`,
        `bytes=${ITEM_JOB_DEFAULTS.partBytes * 2}-${files['/big.bin'].length - 1}`,
        `bytes=${ITEM_JOB_DEFAULTS.partBytes}-${ITEM_JOB_DEFAULTS.partBytes * 2 - 1}`,
      ].sort(),
    );
  });

  it('above 500 KB without Accept-Ranges: a single download', async () => {
    const id = await addFromUrl(`${base}/noranges/big.bin`);
    await runDueItemJobs(svc.app.portal);
    expect(sha((await stored(id)).bytes)).toBe(sha(files['/big.bin']));
    expect(requests.filter((r) => r.range)).toEqual([]);
  });

  it('a part that fails once is retried and the item completes', async () => {
    failRanges.set(ITEM_JOB_DEFAULTS.partBytes, 1);
    const id = await addFromUrl(`${base}/big.bin`);
    await runDueItemJobs(svc.app.portal);
    expect(await status(id)).toMatchObject({ status: 'completed' });
    expect(sha((await stored(id)).bytes)).toBe(sha(files['/big.bin']));
    expect(requests.filter((r) => r.range === `bytes=${ITEM_JOB_DEFAULTS.partBytes}-${ITEM_JOB_DEFAULTS.partBytes * 2 - 1}`)).toHaveLength(2);
  });

  it('a part that fails twice fails the item, naming the part; no file is kept', async () => {
    failRanges.set(ITEM_JOB_DEFAULTS.partBytes, 2);
    const id = await addFromUrl(`${base}/big.bin`);
    await runDueItemJobs(svc.app.portal);
    const s = await status(id);
    expect(s.status).toBe('failed');
    expect(s.statusMessage).toMatch(/Part 2 .* failed 2 times: .*HTTP 503/);
    // No half item is left behind: the row and its parts are gone, only the status remembers why.
    expect(await svc.db.query('SELECT 1 FROM items WHERE id = $1', [id])).toEqual([]);
    expect(await svc.db.query('SELECT 1 FROM item_parts WHERE item_id = $1', [id])).toEqual([]);
  });
});

describe('failures', () => {
  it('an HTTP error status fails the item with it', async () => {
    const id = await addFromUrl(`${base}/missing`);
    await runDueItemJobs(svc.app.portal);
    expect(await status(id)).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('HTTP 404') });
  });

  it('a redirect is not followed: failed', async () => {
    const id = await addFromUrl(`${base}/redirect`);
    await runDueItemJobs(svc.app.portal);
    expect(await status(id)).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('redirect') });
    expect(requests.map((r) => r.url)).toEqual(['/redirect']);
  });

  it('with private outbound off, a loopback dataUrl fails with the SSRF reason and nothing is requested', async () => {
    const strict = await startService({ config: { outboundAllow: NO_OUTBOUND_ALLOW } });
    try {
      const t = await strict.tokenFor('user1');
      const res = await strict.app.inject({
        method: 'POST',
        url: '/sharing/rest/content/users/user1/addItem',
        payload: { f: 'json', token: t, title: 'D', type: 'CSV', dataUrl: `${base}/small.csv`, async: 'true' },
      });
      const id = res.json().id;
      await runDueItemJobs(strict.app.portal);
      const ask = async (username: string, tok: string) =>
        (
          await strict.app.inject({ method: 'POST', url: `/sharing/rest/content/users/${username}/items/${id}/status`, payload: { f: 'json', token: tok } })
        ).json();
      const answer = await ask('user1', t);
      expect(answer).toMatchObject({ itemId: id, status: 'failed' });
      expect(answer.statusMessage).toMatch(/loopback.*does not download from such addresses/);
      // The owner reads why, not the name of a server setting.
      expect(answer.statusMessage).not.toMatch(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/);
      expect(await strict.db.query('SELECT 1 FROM items WHERE id = $1', [id])).toEqual([]);
      // Another member learns nothing of it; the administrator may read it.
      expect((await ask('user1', await strict.tokenFor('publisher1'))).error.code).toBe(400);
      expect(await ask('user1', await strict.tokenFor('admin'))).toMatchObject({ status: 'failed' });
      expect(requests).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('size bound', () => {
  it('a source announcing more than 2 GB is refused before downloading', async () => {
    const id = await addFromUrl(`${base}/huge`);
    await runDueItemJobs(svc.app.portal);
    expect(await status(id)).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('more than') });
  });

  it('a source without Content-Length: at the bound it is stored, one byte more fails', async () => {
    const ok = await addFromUrl(`${base}/unsized/1000`);
    const over = await addFromUrl(`${base}/unsized/1001`);
    await runDueItemJobs(withItemJobs(svc.app.portal, { maxDownloadBytes: 1000 }));
    expect(await status(ok)).toMatchObject({ status: 'completed' });
    expect((await stored(ok)).size).toBe(1000);
    expect(await status(over)).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('more than the 1000 bytes') });
  });
});

describe('claims', () => {
  it('a claimed job is not claimed again while its lease runs; after the lease it is (a crashed run)', async () => {
    const id = await addFromUrl(`${base}/small.csv`);
    const job = await claimItemJob(svc.app.portal);
    expect(job?.item_id).toBe(id);
    expect(await claimItemJob(svc.app.portal)).toBeUndefined();
    clockNow += ITEM_JOB_DEFAULTS.leaseMs - 1;
    expect(await claimItemJob(svc.app.portal)).toBeUndefined();
    clockNow += 1;
    // The runner "crashed": the job is claimed again and completes.
    expect(await runDueItemJobs(svc.app.portal)).toBe(1);
    expect(await status(id)).toMatchObject({ status: 'completed' });
    expect((await svc.db.query<{ attempts: number }>('SELECT attempts FROM item_jobs WHERE item_id = $1', [id]))[0].attempts).toBe(2);
  });

  it('a job that keeps crashing its runner is given up after the attempt limit', async () => {
    const id = await addFromUrl(`${base}/small.csv`);
    for (let i = 0; i < ITEM_JOB_DEFAULTS.maxAttempts; i++) {
      expect(await claimItemJob(svc.app.portal)).toBeDefined();
      clockNow += ITEM_JOB_DEFAULTS.leaseMs;
    }
    await runDueItemJobs(svc.app.portal);
    expect(await status(id)).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('given up') });
  });

  it('a job of an item deleted meanwhile is dropped', async () => {
    const id = await addFromUrl(`${base}/small.csv`);
    await svc.db.query('DELETE FROM items WHERE id = $1', [id]);
    expect(await runDueItemJobs(svc.app.portal)).toBe(0);
  });
});

describe('the runner', () => {
  it('a job queued by this process starts at once, without waiting for the next poll; stop waits for it', async () => {
    const runner = startJobs(withItemJobs(svc.app.portal, { pollMs: 60 * 60_000 }));
    try {
      // Let the first (empty) poll pass.
      await new Promise((r) => setTimeout(r, 50));
      const id = await addFromUrl(`${base}/big.bin`);
      const t0 = Date.now();
      while ((await status(id)).status === 'processing' && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
      expect(await status(id)).toMatchObject({ status: 'completed' });
    } finally {
      await runner.stop();
    }
  });

  it('on the embedded database, idle, it reads no table until a job comes due; a job left running by a stopped process is taken when its lease ends', async () => {
    if (svc.db.kind !== 'pglite') return;
    const id = await addFromUrl(`${base}/small.csv`);
    // Claimed by a process that then stopped: its lease ends 100 ms (of the portal's clock) from now.
    await claimItemJob(svc.app.portal);
    await svc.db.query('UPDATE item_jobs SET locked_until = $2 WHERE item_id = $1', [id, clockNow + 100]);
    const db = svc.app.portal.db;
    let looks = 0;
    const counted = Object.create(svc.app.portal) as typeof svc.app.portal;
    counted.db = {
      ...db,
      query: (sql, params) => {
        if (sql.includes('item_jobs')) looks++;
        return db.query(sql, params);
      },
    };
    counted.config = withItemJobs(svc.app.portal, { pollMs: 20 }).config;
    const runner = startJobs(counted);
    try {
      await new Promise((r) => setTimeout(r, 300));
      // Three looks a wake (each loop's claim, then the next due moment): at once, then every 100 ms
      // (the lease's end; the clock stands still) — polling every 20 ms would have made about 45.
      expect(looks).toBeLessThanOrEqual(12);
      expect(await status(id)).toMatchObject({ status: 'processing' });
      clockNow += 200;
      const t0 = Date.now();
      while ((await status(id)).status === 'processing' && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
      expect(await status(id)).toMatchObject({ status: 'completed' });
      // Idle again: nothing is pending, so no look for far longer than the poll.
      await new Promise((r) => setTimeout(r, 100));
      const idle = looks;
      await new Promise((r) => setTimeout(r, 300));
      expect(looks).toBe(idle);
    } finally {
      await runner.stop();
    }
  });

  it('runs two jobs at once: a stalled download does not hold up a small one', async () => {
    const runner = startJobs(withItemJobs(svc.app.portal, { pollMs: 60 * 60_000 }));
    try {
      await new Promise((r) => setTimeout(r, 50));
      stall = true;
      const slow = await addFromUrl(`${base}/stall`);
      const quick = await addFromUrl(`${base}/small.csv`);
      const t0 = Date.now();
      while ((await status(quick)).status === 'processing' && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
      expect(await status(quick)).toMatchObject({ status: 'completed' });
      expect(await status(slow)).toMatchObject({ status: 'processing' });
    } finally {
      stall = false;
      releaseStall?.();
      await runner.stop();
    }
  });
});
