/**
 * The blob store: item files (data, parts of multipart uploads, esriinfo files, thumbnails and
 * their renditions, report outputs) addressed by server-generated keys (never a user's file name —
 * ASVS 5.3.2). Two implementations: FileBlobStore under DATA_DIR/blobs (one machine) and
 * S3BlobStore in an S3-compatible object store (store/s3Blobs.ts; several instances on separate
 * machines share it). store/openBlobs.ts picks one from BLOB_STORE.
 *
 * Rules every caller keeps, so that a failed store never leaves a row pointing at nothing: a file
 * is written (or moved in) before the row that names it commits, and removed only after the row
 * that named it is gone. A file no row names is swept by retention (jobs/retention.ts).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StreamedParts } from './streamParts.ts';

/** A byte range, both ends included (as in an HTTP Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file to join, with its size as recorded when it was stored. */
export interface StoredPart {
  key: string;
  size: number;
}

/** A stored file older than a sweep's limit (retention reads these a page at a time). */
export interface StoredKey {
  key: string;
  modified: number;
}

export interface BlobStore {
  /** Where files are kept, for logs and the start-up line ("local disk …", "S3 bucket …"). */
  readonly description: string;
  /** A new, unused key. */
  newKey(): string;
  /** Moves a finished local file (an upload's temporary file) into the store under `key`; answers its size. */
  adopt(key: string, localPath: string): Promise<number>;
  /** Streams `source` into the store under `key`; answers the byte count. Nothing is kept if it fails. */
  write(key: string, source: Readable): Promise<number>;
  /** The file (or a range of it) as a stream; rejects before any byte if it is missing or the store is down. */
  open(key: string, range?: ByteRange): Promise<Readable>;
  size(key: string): Promise<number>;
  /** Removes the file; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Writes the files `parts` one after the other as a new file `key`; answers its size. */
  join(key: string, parts: readonly StoredPart[]): Promise<number>;
  /** Runs `use` with a local path holding the file, for libraries that need one (unzip); a copy is removed afterwards. */
  withLocalFile<T>(key: string, use: (localPath: string) => Promise<T>): Promise<T>;
  /** Shards to walk for stray files, in order (retention visits one per batch). */
  shards(): Promise<string[]>;
  /**
   * Keys in `shard` last written before `before`, from a page of at most `limit` keys after `after`
   * (key order); `next` is where the following page starts, absent after the last.
   */
  listOlder(shard: string, before: number, limit: number, after?: string): Promise<{ keys: StoredKey[]; next?: string }>;
  /**
   * Removes writes in `shard` that never finished (partial files, unfinished multipart uploads)
   * started before `before`, except the multipart uploads `keep` names (items still being uploaded).
   */
  removeUnfinished(shard: string, before: number, keep?: (uploadId: string) => boolean): Promise<number>;
  /** The store's own multipart uploads, where it has them (an object store): parts joined by the store itself. */
  readonly multipart?: StoreMultipart;
  /** Start-up check of a remote store: it answers and accepts a write; throws a message an operator can act on. */
  check?(): Promise<void>;
  /** Lets go of connections (the service is closing). */
  close?(): void;
}

/** A file written as numbered parts that the store joins itself (S3 multipart upload). */
export interface StoreMultipart {
  /** The smallest part the store accepts, except the last. */
  readonly minPartBytes: number;
  /** Starts an upload of the file `key`; answers its id. */
  begin(key: string): Promise<string>;
  /** Sends a local file as part `n`; answers the part's ETag. The local file is removed. */
  putPart(key: string, uploadId: string, n: number, localPath: string): Promise<string>;
  /**
   * Sends a stream of unknown length as parts `first`, `first + 1`, … (at most `count`) of about
   * `chunkBytes` each while it arrives, holding a bounded amount in memory (store/streamParts.ts).
   * A stream shorter than minPartBytes sends nothing and comes back whole (`small`). A failure
   * leaves only parts that no completion lists (the store drops them at completion or abort).
   */
  putStream(
    key: string,
    uploadId: string,
    numbers: { first: number; count: number },
    chunkBytes: number,
    source: AsyncIterable<Buffer>,
  ): Promise<StreamedParts>;
  /** Copies a stored file in as part `n` (inside the store); answers the part's ETag. */
  copyPart(key: string, uploadId: string, n: number, from: string): Promise<string>;
  /**
   * Every part the store holds for the upload, by number. Ceph's gateway (16.2) refuses to complete
   * an upload holding a part the completion does not list (InvalidPart), though S3 drops such parts.
   */
  listParts(key: string, uploadId: string): Promise<{ n: number; etag: string; size: number }[]>;
  /** Joins the listed parts, in order, into the file `key`; parts not listed are dropped. */
  complete(key: string, uploadId: string, parts: readonly { n: number; etag: string }[]): Promise<void>;
  abort(key: string, uploadId: string): Promise<void>;
}

/** The store could not be reached or failed: the operation answers 503 and can be retried. */
export class BlobStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreUnavailableError';
  }
}

/** The key names no file. */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no stored file ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

export const BLOB_KEY = /^[a-f0-9]{32}$/;

export function newBlobKey(): string {
  return randomUUID().replaceAll('-', '');
}

/** Keys are spread over 256 shards by their first two hex digits (folders on disk, prefixes in a bucket). */
export function shardOf(key: string): string {
  if (!BLOB_KEY.test(key)) throw new Error(`invalid blob key ${key}`);
  return key.slice(0, 2);
}

/** The file (or `range` of it) in memory, for small reads (thumbnails, JSON read for references, a magic number); refuses more than `maxBytes`. */
export async function readBlob(store: BlobStore, key: string, maxBytes: number, range?: ByteRange): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stream = await store.open(key, range);
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) {
      stream.destroy();
      throw new Error(`stored file ${key} is more than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Removes files whose rows are already gone (or were never written): a failure is logged, not
 * thrown — the change it follows has happened, and retention sweeps a file no row names.
 */
export async function removeBlobsQuietly(store: BlobStore, keys: readonly string[], log: { warn(obj: object, msg: string): void }): Promise<void> {
  await Promise.all(keys.map((key) => store.remove(key).catch((err: unknown) => log.warn({ err, key }, 'could not remove a stored file; retention will'))));
}

export class FileBlobStore implements BlobStore {
  readonly description: string;

  constructor(readonly root: string) {
    this.description = `local disk ${root}`;
  }

  newKey(): string {
    return newBlobKey();
  }

  /** The file's path (tests and this class; other code goes through the interface). */
  localPath(key: string): string {
    return path.join(this.root, shardOf(key), key);
  }

  async adopt(key: string, localPath: string): Promise<number> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(localPath, target);
    } catch (err) {
      // Another file system (a temp dir elsewhere): copy instead.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await pipeline(createReadStream(localPath), createWriteStream(target));
      await rm(localPath, { force: true });
    }
    return (await stat(target)).size;
  }

  async write(key: string, source: Readable): Promise<number> {
    const target = this.localPath(key);
    // The source may already be flowing and fail while the folder is made: hold its error until
    // the pipeline below takes over (an 'error' with no listener would end the process).
    let early: unknown;
    const hold = (err: unknown) => (early ??= err);
    source.on('error', hold);
    try {
      await mkdir(path.dirname(target), { recursive: true });
    } finally {
      source.off('error', hold);
    }
    if (early) {
      source.destroy();
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the stream's own error, passed on as it came
      throw early;
    }
    const partial = `${target}.${randomUUID()}.partial`;
    try {
      await pipeline(source, createWriteStream(partial));
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return (await stat(target)).size;
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.localPath(key);
    // Opened before answering, so a missing file is an error here rather than a broken response.
    const s = await stat(file).catch(() => null);
    if (!s?.isFile()) throw new BlobNotFoundError(key);
    return createReadStream(file, range);
  }

  async size(key: string): Promise<number> {
    const s = await stat(this.localPath(key)).catch(() => null);
    if (!s?.isFile()) throw new BlobNotFoundError(key);
    return s.size;
  }

  async remove(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }

  async join(key: string, parts: readonly StoredPart[]): Promise<number> {
    const files = parts.map((p) => this.localPath(p.key));
    return this.write(key, Readable.from(concatFiles(files)));
  }

  async withLocalFile<T>(key: string, use: (localPath: string) => Promise<T>): Promise<T> {
    return use(this.localPath(key));
  }

  async shards(): Promise<string[]> {
    return (await readdir(this.root).catch(() => [] as string[])).filter((d) => /^[a-f0-9]{2}$/.test(d)).sort();
  }

  async listOlder(shard: string, before: number, limit: number, after?: string): Promise<{ keys: StoredKey[]; next?: string }> {
    const dir = path.join(this.root, shard);
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => BLOB_KEY.test(n) && (!after || n > after)).sort();
    const page = names.slice(0, limit);
    const keys: StoredKey[] = [];
    for (const name of page) {
      const s = await stat(path.join(dir, name)).catch(() => null);
      if (s?.isFile() && s.mtimeMs < before) keys.push({ key: name, modified: s.mtimeMs });
    }
    return { keys, next: names.length > limit ? page.at(-1) : undefined };
  }

  async removeUnfinished(shard: string, before: number): Promise<number> {
    const dir = path.join(this.root, shard);
    let removed = 0;
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.endsWith('.partial')) continue;
      const s = await stat(path.join(dir, name)).catch(() => null);
      if (!s?.isFile() || s.mtimeMs >= before) continue;
      await rm(path.join(dir, name), { force: true });
      removed++;
    }
    return removed;
  }
}

async function* concatFiles(files: readonly string[]): AsyncGenerator<Buffer> {
  for (const file of files) {
    // A large read buffer: fewer, bigger writes when joining hundreds of megabytes.
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield chunk as Buffer;
  }
}

/** The store as the disk store it must be (tests that look at files, and their times, directly). */
export function onDisk(store: BlobStore): FileBlobStore {
  if (!(store instanceof FileBlobStore)) throw new Error(`expected the local disk store, not ${store.description}`);
  return store;
}
