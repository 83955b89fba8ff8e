/**
 * Background work on items: the async addItem dataUrl download (spec §4.1, rule 9 and the dataUrl
 * row). Jobs are rows of item_jobs claimed with FOR UPDATE SKIP LOCKED, so two processes never run
 * the same job; a claimed job holds a lease (locked_until) that the runner extends while it works,
 * and a job whose runner died is claimed again once the lease has run out.
 *
 * The download goes through the SSRF guard (http/outbound.ts) and connects only to the address
 * that was checked. When the source is larger than 500 KB and advertises `Accept-Ranges: bytes`,
 * it is fetched in byte-range parts, a few at a time, each written at its offset of one file; a
 * failed part is retried once; the item is completed only when every part arrived. On failure the
 * item's status is `failed` with the reason in its status message.
 */
import { createWriteStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mkdir } from 'node:fs/promises';
import { LIMITS } from '../../shared/limits.ts';
import { ITEM_JOB_DEFAULTS, type ItemJobSettings } from '../config.ts';
import type { PortalContext } from '../context.ts';
// Storing a downloaded file and its row writes are items', through its service.
import {
  anyItemJobDue,
  applyFileFields,
  deleteDueJobsOfDeletedItems,
  deleteItemRow,
  findItem,
  lockDueItemJob,
  lockItem,
  lockItemStatus,
  markItemJobDone,
  markItemJobFailed,
  markItemJobRunning,
  nextItemJobDue,
  removeBlobs,
  renewItemJobLease,
  updateItemRow,
  type ItemJobRow,
} from '../areas/items/service.ts';
import { checkOutboundUrl, OutboundRefused, requestChecked, type CheckedTarget } from '../http/outbound.ts';
import { onSignal } from '../core/signals.ts';
import { idleWaitMs } from './passLoop.ts';

/** The runner's leases, download bounds and polling (Config itemJobs). */
const settingsOf = (ctx: PortalContext): ItemJobSettings => ctx.config.itemJobs ?? ITEM_JOB_DEFAULTS;

/** Claims one due job (queued, or running with an expired lease), or none. */
export async function claimItemJob(ctx: PortalContext): Promise<ItemJobRow | undefined> {
  const now = ctx.clock.now();
  // An idle poll only reads: no transaction (and no write) unless a job is due.
  if (!(await anyItemJobDue(ctx.db, now))) return undefined;
  return ctx.db.tx(async (q) => {
    // Jobs outlive their items (a failed one keeps its reason): unfinished work of an item deleted meanwhile is dropped.
    await deleteDueJobsOfDeletedItems(q, now);
    const job = await lockDueItemJob(q, now);
    if (!job) return undefined;
    await markItemJobRunning(q, job.id, now + settingsOf(ctx).leaseMs, now);
    return { ...job, attempts: job.attempts + 1 };
  });
}

/** Runs every due job now, one after another (tests call this; production polls it). Answers how many ran. */
export async function runDueItemJobs(ctx: PortalContext): Promise<number> {
  let ran = 0;
  for (;;) {
    const job = await claimItemJob(ctx);
    if (!job) return ran;
    ran++;
    await runJob(ctx, job);
  }
}

class JobFailure extends Error {}

async function runJob(ctx: PortalContext, job: ItemJobRow): Promise<void> {
  const { leaseMs, maxAttempts } = settingsOf(ctx);
  // Keep the lease while working.
  const renew = setInterval(() => {
    const now = ctx.clock.now();
    renewItemJobLease(ctx.db, job.id, now + leaseMs, now).catch(() => {});
  }, leaseMs / 3);
  try {
    if (job.attempts > maxAttempts) throw new JobFailure(`The job was given up after ${maxAttempts} attempts.`);
    if (job.kind !== 'dataUrl' || !job.payload.url) throw new JobFailure(`Unknown job kind ${job.kind}.`);
    const download = await downloadDataUrl(ctx, job.payload.url);
    await completeItem(ctx, job, download);
  } catch (err) {
    const reason =
      err instanceof OutboundRefused ? refusedSource(err.message) : err instanceof JobFailure ? err.message : `The download failed: ${(err as Error).message}`;
    await failItem(ctx, job, reason);
  } finally {
    clearInterval(renew);
  }
}

interface Download {
  blobKey: string;
  size: number;
  mime: string;
  ranged: boolean;
}

async function completeItem(ctx: PortalContext, job: ItemJobRow, d: Download): Promise<void> {
  const now = ctx.clock.now();
  let kept: boolean;
  try {
    kept = await recordDownload(ctx, job, d, now);
  } catch (err) {
    await removeBlobs(ctx, [d.blobKey]);
    // e.g. an unsafe package refused by the file hook: the item fails with that reason.
    throw new JobFailure((err as Error).message);
  }
  if (!kept) await removeBlobs(ctx, [d.blobKey]);
}

async function recordDownload(ctx: PortalContext, job: ItemJobRow, d: Download, now: number): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    await lockItem(q, job.item_id);
    const row = await findItem(q, job.item_id);
    await markItemJobDone(q, job.id, now);
    if (!row || row.status !== 'processing') return false; // deleted (or changed) meanwhile
    await updateItemRow(q, job.item_id, {
      data_kind: 'file',
      data_blob: d.blobKey,
      data_mime: d.mime,
      size: d.size,
      status: 'completed',
      status_message: null,
      modified: now,
    });
    await applyFileFields(
      ctx,
      q,
      { title: row.title, documentation: row.documentation ?? undefined },
      { itemId: row.id, blobKey: d.blobKey, fileName: job.payload.fileName ?? 'download', size: d.size },
    );
    return true;
  });
}

/**
 * The download failed: the half-made item goes (its row and any stored file), so the owner's content
 * holds no item without data; the job keeps the reason, which the item's status answers from then.
 */
async function failItem(ctx: PortalContext, job: ItemJobRow, reason: string): Promise<void> {
  const now = ctx.clock.now();
  const blobs = await ctx.db.tx(async (q) => {
    await markItemJobFailed(q, job.id, reason, now);
    // An item changed meanwhile (completed by another runner) is left as it is.
    return (await lockItemStatus(q, job.item_id)) === 'processing' ? deleteItemRow(q, job.item_id) : [];
  });
  await removeBlobs(ctx, blobs);
}

/**
 * Why the source may not be contacted, in words for the item's owner: the outbound check's reason
 * names the server's setting that would allow the address, which is the operator's business.
 */
function refusedSource(message: string): string {
  const words = message.replace(/;[^;]*\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b[^.]*/g, '');
  return `${words.replace(/\.?$/, '.')} The portal does not download from such addresses.`;
}

const describeStatus = (status: number, url: URL) =>
  status >= 300 && status < 400
    ? `The source ${url.host} answered a redirect (HTTP ${status}); redirects are not followed.`
    : `The source ${url.host} answered HTTP ${status}.`;

const tooLarge = (length: number, max: number) => new JobFailure(`The file is ${length} bytes, more than the ${max} bytes a dataUrl may bring.`);
const mimeOf = (value: unknown) =>
  String(value ?? 'application/octet-stream')
    .split(';')[0]
    .trim() || 'application/octet-stream';

/** Fetches `rawUrl` into a new blob (see the file comment). */
export async function downloadDataUrl(ctx: PortalContext, rawUrl: string): Promise<Download> {
  const limits = settingsOf(ctx);
  const target = await checkOutboundUrl(rawUrl, ctx.config);
  const signal = AbortSignal.timeout(limits.downloadTimeoutMs);
  await mkdir(ctx.tmpDir, { recursive: true });
  const tmp = path.join(ctx.tmpDir, `download-${randomUUID()}`);
  try {
    // HEAD first: the size and whether byte ranges are offered, without starting the body.
    const probe = await requestChecked(target, { method: 'HEAD', timeoutMs: limits.requestTimeoutMs, signal }).catch(() => undefined);
    probe?.body.resume();
    const probeLength = probe?.status === 200 ? Number(probe.headers['content-length']) : NaN;
    const probeRanges = probe?.status === 200 && /\bbytes\b/i.test(String(probe.headers['accept-ranges'] ?? ''));
    if (probe && probe.status >= 300 && probe.status < 400) throw new JobFailure(describeStatus(probe.status, target.url));
    if (Number.isFinite(probeLength) && probeLength > limits.maxDownloadBytes) throw tooLarge(probeLength, limits.maxDownloadBytes);
    let size: number;
    let ranged = false;
    let mime = mimeOf(probe?.headers['content-type']);
    if (probeRanges && Number.isFinite(probeLength) && probeLength > LIMITS.rangeDownloadThresholdBytes) {
      await rangedDownload(target, probeLength, tmp, signal, limits);
      size = probeLength;
      ranged = true;
    } else {
      const res = await requestChecked(target, { timeoutMs: limits.requestTimeoutMs, signal });
      if (res.status !== 200) {
        res.body.resume();
        throw new JobFailure(describeStatus(res.status, target.url));
      }
      const length = Number(res.headers['content-length']);
      mime = mimeOf(res.headers['content-type']);
      if (Number.isFinite(length) && length > limits.maxDownloadBytes) {
        res.body.destroy();
        throw tooLarge(length, limits.maxDownloadBytes);
      }
      size = await streamTo(res.body, tmp, 0, limits.maxDownloadBytes);
      if (Number.isFinite(length) && size !== length) throw new JobFailure(`The source sent ${size} of ${length} bytes.`);
    }
    const blobKey = ctx.blobs.newKey();
    await ctx.blobs.adopt(blobKey, tmp);
    return { blobKey, size, mime, ranged };
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Writes a body at `offset` of `file`, refusing more than `max` bytes; answers the byte count. */
async function streamTo(body: NodeJS.ReadableStream, file: string, offset: number, max: number, flags = 'w'): Promise<number> {
  let count = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      count += chunk.length;
      if (count > max) cb(new JobFailure(`The source sent more than the ${max} bytes expected.`));
      else cb(null, chunk);
    },
  });
  await pipeline(body, counter, createWriteStream(file, { flags, start: offset, highWaterMark: 1024 * 1024 }));
  return count;
}

async function rangedDownload(target: CheckedTarget, total: number, file: string, signal: AbortSignal, limits: ItemJobSettings): Promise<void> {
  // The whole file exists at its final size first; every part writes at its own offset.
  const fh = await open(file, 'w');
  await fh.truncate(total);
  await fh.close();
  const parts: { n: number; start: number; end: number }[] = [];
  for (let s = 0, n = 1; s < total; s += limits.partBytes, n++) parts.push({ n, start: s, end: Math.min(total, s + limits.partBytes) - 1 });
  let next = 0;
  let failure: Error | undefined;
  const worker = async () => {
    while (!failure && next < parts.length) {
      const part = parts[next++];
      let lastError: Error | undefined;
      for (let attempt = 0; attempt <= LIMITS.downloadPartRetries && !failure; attempt++) {
        try {
          await fetchPart(target, part, file, signal, limits.requestTimeoutMs);
          lastError = undefined;
          break;
        } catch (err) {
          lastError = err as Error;
        }
      }
      if (lastError && !failure) {
        failure = new JobFailure(`Part ${part.n} (bytes ${part.start}–${part.end}) failed ${LIMITS.downloadPartRetries + 1} times: ${lastError.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limits.parallelParts, parts.length) }, worker));
  if (failure) throw failure;
}

async function fetchPart(target: CheckedTarget, part: { start: number; end: number }, file: string, signal: AbortSignal, timeoutMs: number): Promise<void> {
  const res = await requestChecked(target, { headers: { range: `bytes=${part.start}-${part.end}` }, timeoutMs, signal });
  if (res.status !== 206) {
    res.body.resume();
    throw new Error(describeStatus(res.status, target.url));
  }
  const expected = part.end - part.start + 1;
  const range = /bytes\s+(\d+)-(\d+)/i.exec(String(res.headers['content-range'] ?? ''));
  if (!range || Number(range[1]) !== part.start || Number(range[2]) !== part.end) {
    res.body.destroy();
    throw new Error(`the source answered the range ${res.headers['content-range'] ?? '(none)'} instead of bytes ${part.start}-${part.end}`);
  }
  const got = await streamTo(res.body, file, part.start, expected, 'r+');
  if (got !== expected) throw new Error(`received ${got} of ${expected} bytes`);
}

export interface JobRunner {
  stop(): Promise<void>;
}

/**
 * Production: up to concurrentJobs (Config itemJobs) runner loops, started every poll and whenever
 * this process queues a job (a loop runs due jobs until none is left, then ends); stop waits for them.
 * On the embedded database the poll after the loops end waits for the next job's due moment
 * (passLoop.ts idleWaitMs): only this process queues jobs there, and it wakes the loops itself.
 */
export function startJobs(ctx: PortalContext): JobRunner {
  const { pollMs, concurrentJobs } = settingsOf(ctx);
  const embedded = ctx.db.kind === 'pglite';
  let stopped = false;
  let active = 0;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;
  // Ticks so far: an idle wait computed while a tick came (a job queued meanwhile) is not used.
  let ticks = 0;
  const inflight = new Set<Promise<unknown>>();
  const sleep = (ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tick, ms);
  };
  // A loop has ended: the next look, after pollMs or (embedded) when the next job comes due.
  let reading = false;
  const idle = () => {
    if (!embedded) return sleep(pollMs);
    // Both loops end together when nothing is left: one read of the next due moment serves both.
    if (reading) return;
    reading = true;
    const seen = ticks;
    const waiting = nextItemJobDue(ctx.db).then(
      (at) => {
        if (ticks === seen) sleep(idleWaitMs(true, pollMs, at, ctx.clock.now()));
      },
      (err: unknown) => {
        ctx.log.error({ err }, 'item jobs failed');
        if (ticks === seen) sleep(pollMs);
      },
    );
    inflight.add(waiting);
    void waiting.finally(() => {
      reading = false;
      inflight.delete(waiting);
    });
  };
  function tick() {
    if (stopped) return;
    ticks++;
    clearTimeout(timer);
    if (active >= concurrentJobs) {
      // Every loop is busy: look again as soon as one ends.
      pending = true;
      return;
    }
    pending = false;
    while (active < concurrentJobs) {
      active++;
      const loop: Promise<unknown> = runDueItemJobs(ctx)
        .catch((err) => ctx.log.error({ err }, 'item jobs failed'))
        .finally(() => {
          active--;
          inflight.delete(loop);
          if (stopped) return;
          if (pending) setImmediate(tick);
          else idle();
        });
      inflight.add(loop);
    }
  }
  const unsubscribe = onSignal('itemJobQueued', tick);
  setImmediate(tick);
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      clearTimeout(timer);
      await Promise.all(inflight);
    },
  };
}
