/**
 * Retention: a background sweep that keeps every table and folder that grows with use bounded
 * (docs/operations.md lists what is kept how long). The sweeps are declared in SWEEPS below; each
 * removes what is past its limit in small batches — one short statement (or one short transaction)
 * per batch, with a pause between — so it never holds locks for long or starves requests. Rows are
 * picked with FOR UPDATE SKIP LOCKED: several service processes on one PostgreSQL may sweep at the
 * same time without waiting on each other or on the dispatcher. The same SQL runs on PGlite.
 *
 * The embedded database has no autovacuum: once the sweeps removed many rows from a table (counted
 * across passes), the table is vacuumed so the space is reused (the files stop growing) and the
 * planner sees the new sizes; and every `vacuumEveryPasses` passes (Config retentionSweeps) the
 * whole database is vacuumed, for the rows that ordinary updates leave dead (items, tasks…). With the visibility map a vacuum
 * reads only the pages changed since the last one. Nor has it a checkpointer: without a checkpoint
 * the write-ahead log grows to max_wal_size (1 GB) before it is recycled, so each pass of the loop
 * ends with one (as the checkpointer does every 5 minutes), which keeps pg_wal near min_wal_size.
 * PostgreSQL's autovacuum and checkpointer do all this by themselves.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { RETENTION_DEFAULTS, RETENTION_SWEEP_DEFAULTS, type RetentionConfig, type RetentionSweepSettings } from '../config.ts';
import type { PortalContext } from '../context.ts';
import { deleteExpiredTokens, forgetSignInFailures } from '../areas/auth/service.ts';
import { abandonedUploads, activeStoreUploadIds, deleteFinishedItemJobs, discardUpload, unreferencedBlobKeys } from '../areas/items/service.ts';
import { deleteExpiredCodes, deleteExpiredRefreshTokens, deleteExpiredSignInForms } from '../areas/oauth/service.ts';
import { deleteEndedProxyHitWindows } from '../areas/proxy/service.ts';
import { purgeExpired } from '../areas/recycleBin/service.ts';
import { checkpoint, vacuumAnalyze } from '../store/maintenance.ts';
import { allWebhookIds, deleteDeliveriesBeyond, deleteDeliveriesFinishedBefore, deleteFannedOutEvents, undeliveredFrom } from '../areas/webhooks/service.ts';

/** What one batch is handed. `now` is the clock at the start of the pass. */
interface SweepArgs {
  ctx: PortalContext;
  limits: RetentionConfig;
  /** How the sweep paces itself (Config retentionSweeps). */
  pace: RetentionSweepSettings;
  now: number;
  batch: number;
  /** One of the sweep's targets (e.g. a webhook id), when it has them. */
  target?: string;
  /** Per-pass scratch space of this sweep (e.g. a bound computed once per pass). */
  pass: Record<string, unknown>;
}

export interface Sweep {
  name: string;
  /** The setting that bounds it (documentation and logs). */
  setting: string;
  /** Tables vacuumed on the embedded database after a pass that removed many rows. */
  tables: string[];
  /** Batches run per target (e.g. per webhook); one run without a target when absent. */
  targets?(ctx: PortalContext): Promise<string[]>;
  /** Removes at most about `batch` rows or files; `more` when another batch may find more (for this target). */
  run(a: SweepArgs): Promise<Batch>;
  /** Runs at most this often (ms), when less often than every pass. */
  every?(pace: RetentionSweepSettings): number;
}

export interface Batch {
  removed: number;
  more: boolean;
}

/** A DELETE … RETURNING 1 of at most `batch` rows: a full batch means there may be more. */
const count = async (p: Promise<unknown[]>, batch: number): Promise<Batch> => {
  const removed = (await p).length;
  return { removed, more: removed >= batch };
};

export const SWEEPS: Sweep[] = [
  {
    // Attempts go with their delivery (ON DELETE CASCADE, indexed by 011_retention.sql).
    name: 'webhook deliveries past the age limit',
    setting: 'RETENTION_DELIVERIES_DAYS',
    tables: ['webhook_deliveries', 'webhook_attempts'],
    targets: (ctx) => allWebhookIds(ctx.db),
    run: ({ ctx, limits, now, batch, target }) => count(deleteDeliveriesFinishedBefore(ctx.db, target!, now - limits.deliveriesMs, batch), batch),
  },
  {
    name: 'webhook deliveries beyond the per-webhook cap',
    setting: 'RETENTION_DELIVERIES_PER_WEBHOOK',
    tables: ['webhook_deliveries', 'webhook_attempts'],
    targets: (ctx) => allWebhookIds(ctx.db),
    run: ({ ctx, limits, batch, target }) => count(deleteDeliveriesBeyond(ctx.db, target!, limits.deliveriesPerWebhook, batch), batch),
  },
  {
    // Only events already fanned out (at or below the cursor), and never one that an active
    // webhook still has to receive. Batches take the oldest rows by seq and remove those past the
    // limit, so a pass reads only the head of the table, not the year it keeps.
    name: 'events outbox',
    setting: 'RETENTION_EVENTS_DAYS',
    tables: ['events'],
    async run({ ctx, limits, now, batch, pass }) {
      pass.hold ??= await undeliveredFrom(ctx.db);
      return count(deleteFannedOutEvents(ctx.db, now - limits.eventsMs, batch, pass.hold as number), batch);
    },
  },
  {
    // Reuses the owner's cancel: the item, its parts' rows and blobs, and a delete event.
    name: 'abandoned multipart uploads',
    setting: 'RETENTION_UPLOADS_HOURS',
    tables: ['items', 'item_parts'],
    async run({ ctx, limits, pace, now, batch }) {
      const ids = await abandonedUploads(ctx.db, now - limits.uploadsMs, Math.min(batch, pace.uploadBatch));
      let removed = 0;
      for (const { id } of ids) {
        if ((await discardUpload(ctx, id, null, { cancelledUpload: true, abandoned: true })).discarded) removed++;
      }
      return { removed, more: ids.length >= Math.min(batch, pace.uploadBatch) };
    },
  },
  {
    // Deleted items past the recycle bin's 14 days (RECYCLE_BIN_RETENTION_MS): their rows, files and a delete event.
    name: 'recycle bin items past their retention',
    setting: 'RECYCLE_BIN_RETENTION_MS (14 days, as ArcGIS Online)',
    tables: ['recycled_items', 'recycled_item_blobs'],
    run: ({ ctx, pace, now, batch }) => purgeExpired(ctx, now, Math.min(batch, pace.uploadBatch)),
  },
  {
    name: 'finished item jobs',
    setting: 'RETENTION_ITEM_JOBS_DAYS',
    tables: ['item_jobs'],
    run: ({ ctx, limits, now, batch }) => count(deleteFinishedItemJobs(ctx.db, now - limits.itemJobsMs, batch), batch),
  },
  {
    // A window is dead once its interval has ended (or the item no longer has a proxy).
    name: 'proxy hit windows',
    setting: '(when the window ends)',
    tables: ['proxy_hits'],
    run: ({ ctx, now, batch }) => count(deleteEndedProxyHitWindows(ctx.db, now, batch), batch),
  },
  {
    // Signed-out tokens are deleted at sign-out; this removes the ones that ran out.
    name: 'expired tokens',
    setting: '(at expiry)',
    tables: ['tokens'],
    run: ({ ctx, now, batch }) => count(deleteExpiredTokens(ctx.db, now, batch), batch),
  },
  {
    name: 'expired OAuth sign-in forms',
    setting: '(at expiry)',
    tables: ['oauth_sign_in_forms'],
    run: ({ ctx, now, batch }) => count(deleteExpiredSignInForms(ctx.db, now, batch), batch),
  },
  {
    name: 'expired OAuth authorization codes',
    setting: '(at expiry)',
    tables: ['oauth_codes'],
    run: ({ ctx, now, batch }) => count(deleteExpiredCodes(ctx.db, now, batch), batch),
  },
  {
    // Deleting a refresh token ends the access tokens issued from it (cascade): wait until none is valid.
    name: 'expired OAuth refresh tokens',
    setting: '(at expiry)',
    tables: ['oauth_refresh_tokens'],
    run: ({ ctx, now, batch }) => count(deleteExpiredRefreshTokens(ctx.db, now, batch), batch),
  },
  {
    // Sign-in failure counts nobody has added to for a day (and whose wait is over) start from zero anyway.
    name: 'forgotten sign-in failure counts',
    setting: '(a day after the last failure)',
    tables: ['sign_in_throttle'],
    run: ({ ctx, now, batch }) => count(forgetSignInFailures(ctx.db, now, batch), batch),
  },
  {
    // Request bodies being received are written to continuously; one untouched this long was left
    // by a process that stopped mid-request.
    name: 'temporary files',
    setting: 'RETENTION_UPLOADS_HOURS',
    tables: [],
    run: ({ ctx, limits, now, batch }) => removeOldFiles(ctx.tmpDir, now - limits.uploadsMs, batch, () => true),
  },
  {
    // Files in the blob store no row refers to (a process stopped between deleting an item and
    // removing its files) and unfinished writes. Only files untouched for the upload limit are
    // candidates: a file is written or moved in before the row that refers to it commits.
    name: 'stray blob files',
    setting: 'RETENTION_UPLOADS_HOURS',
    tables: [],
    every: (pace) => pace.blobScanEveryMs,
    targets: (ctx) => ctx.blobs.shards(),
    run: ({ ctx, limits, now, batch, target }) => removeStrayBlobs(ctx, target!, now - limits.uploadsMs, batch),
  },
];

/** Removes up to `batch` regular files in `dir` that `candidate` accepts, last modified before `before`. */
async function removeOldFiles(dir: string, before: number, batch: number, candidate: (name: string) => boolean): Promise<Batch> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (removed >= batch) return { removed, more: true };
    if (!candidate(name)) continue;
    const file = path.join(dir, name);
    const s = await stat(file).catch(() => null);
    if (!s?.isFile() || s.mtimeMs >= before) continue;
    await rm(file, { force: true });
    removed++;
  }
  return { removed, more: false };
}

/**
 * One shard of the blob store: unfinished writes and keys no row refers to, older than `before`.
 * The shard is listed a page of `batch` keys at a time (an object store lists 1,000 at most), each
 * page checked against the database in one query.
 */
async function removeStrayBlobs(ctx: PortalContext, shard: string, before: number, batch: number): Promise<Batch> {
  // Uploads of items still being uploaded are theirs (the abandoned-uploads sweep ends those); only
  // a store with uploads of its own has any to spare.
  const active = ctx.blobs.multipart ? new Set(await activeStoreUploadIds(ctx.db)) : new Set<string>();
  let removed = await ctx.blobs.removeUnfinished(shard, before, (id) => active.has(id));
  let after: string | undefined;
  do {
    const page = await ctx.blobs.listOlder(shard, before, Math.min(batch, 1000), after);
    after = page.next;
    if (!page.keys.length) continue;
    // A key no row refers to belongs to nothing.
    const stray = await unreferencedBlobKeys(
      ctx.db,
      page.keys.map((k) => k.key),
    );
    for (const k of stray) await ctx.blobs.remove(k);
    removed += stray.length;
  } while (after);
  // The shard was walked once, in pages: the runner moves on to the next one.
  return { removed, more: false };
}

export interface PassResult {
  /** Rows or files removed, per sweep name. */
  removed: Record<string, number>;
  /** Batches run, per sweep name. */
  batches: Record<string, number>;
  /** Tables vacuumed after the pass (embedded database); ['*'] for the whole database. */
  vacuumed: string[];
  /** Whether the pass ended with a checkpoint (embedded database, background loop). */
  checkpointed: boolean;
}

export interface PassOptions {
  batch?: number;
  pauseMs?: number;
  /** Checked between batches: stop early (service shutting down). */
  stopped?: () => boolean;
  /** When each sweep with `every` last ran (kept across passes by the loop). */
  lastRun?: Map<string, number>;
  /** Rows removed per table since its last vacuum, and passes run (kept across passes by the loop). */
  vacuum?: { removed: Map<string, number>; passes: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One pass over every sweep (tests call this with a driven clock). */
export async function runRetentionSweeps(ctx: PortalContext, opts: PassOptions = {}): Promise<PassResult> {
  const limits = ctx.config.retention ?? RETENTION_DEFAULTS;
  const pace = ctx.config.retentionSweeps ?? RETENTION_SWEEP_DEFAULTS;
  const batch = opts.batch ?? pace.batch;
  const pauseMs = opts.pauseMs ?? pace.pauseMs;
  const now = ctx.clock.now();
  const result: PassResult = { removed: {}, batches: {}, vacuumed: [], checkpointed: false };
  const vacuum = opts.vacuum ?? { removed: new Map<string, number>(), passes: 0 };
  const perTable = vacuum.removed;
  for (const sweep of SWEEPS) {
    if (opts.stopped?.()) break;
    if (sweep.every && opts.lastRun && now - (opts.lastRun.get(sweep.name) ?? -Infinity) < sweep.every(pace)) continue;
    opts.lastRun?.set(sweep.name, now);
    let removed = 0;
    let batches = 0;
    try {
      const targets = sweep.targets ? await sweep.targets(ctx) : [undefined];
      const pass: Record<string, unknown> = {};
      for (const target of targets) {
        for (;;) {
          if (opts.stopped?.()) break;
          const done = await sweep.run({ ctx, limits, pace, now, batch, target, pass });
          batches++;
          removed += done.removed;
          if (!done.more) break;
          if (pauseMs) await sleep(pauseMs);
        }
      }
    } catch (err) {
      ctx.log.error({ err, sweep: sweep.name }, 'retention sweep failed');
    }
    result.removed[sweep.name] = removed;
    result.batches[sweep.name] = batches;
    for (const t of sweep.tables) perTable.set(t, (perTable.get(t) ?? 0) + removed);
  }
  const removedAny = Object.entries(result.removed).filter(([, n]) => n > 0);
  if (removedAny.length) ctx.log.info({ removed: Object.fromEntries(removedAny) }, 'retention sweep');
  if (ctx.db.kind === 'pglite' && !opts.stopped?.()) {
    const started = performance.now();
    if (opts.vacuum && ++vacuum.passes % pace.vacuumEveryPasses === 0) {
      await vacuumAnalyze(ctx.db);
      perTable.clear();
      result.vacuumed = ['*'];
    } else {
      const tables = [...perTable].filter(([, n]) => n >= pace.vacuumAfterRows).map(([t]) => t);
      if (tables.length) {
        await vacuumAnalyze(ctx.db, tables);
        for (const t of tables) perTable.delete(t);
        result.vacuumed = tables;
      }
    }
    if (result.vacuumed.length) ctx.log.info({ tables: result.vacuumed, ms: Math.round(performance.now() - started) }, 'embedded database vacuumed');
    if (opts.vacuum) {
      await checkpoint(ctx.db);
      result.checkpointed = true;
    }
  }
  return result;
}

export interface RetentionSweeper {
  stop(): Promise<void>;
}

/** The background loop main.ts starts: a pass shortly after start, then one per interval. */
export function startRetentionSweeps(ctx: PortalContext): RetentionSweeper {
  const interval = (ctx.config.retention ?? RETENTION_DEFAULTS).sweepIntervalMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const lastRun = new Map<string, number>();
  const vacuum = { removed: new Map<string, number>(), passes: 0 };
  const tick = () => {
    running = runRetentionSweeps(ctx, { stopped: () => stopped, lastRun, vacuum })
      .catch((err) => ctx.log.error({ err }, 'retention sweep failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, interval);
      });
  };
  timer = setTimeout(tick, Math.min(interval, (ctx.config.retentionSweeps ?? RETENTION_SWEEP_DEFAULTS).firstPassDelayMs));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
