/**
 * The blob store in an S3-compatible object store (AWS S3, MinIO, Ceph Object Gateway, R2…), so
 * that instances on separate machines share item files (docs/operations.md "Several instances").
 * Objects are `<prefix><2 hex>/<key>`: the same shards as on disk, so retention lists one shard at
 * a time with bounded pages. Everything streams: nothing holds a whole file in memory.
 *
 * Store failures (unreachable, slow, refusing) become BlobStoreUnavailableError, which the error
 * envelope answers as 503; callers write a file before the row that names it, so a failure leaves
 * at most an object no row names (swept by retention), never a row without its file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BLOB_KEY,
  BlobNotFoundError,
  BlobStoreUnavailableError,
  newBlobKey,
  shardOf,
  type BlobStore,
  type ByteRange,
  type StoredKey,
  type StoredPart,
  type StoreMultipart,
} from './blobs.ts';
import { sendInParts } from './streamParts.ts';

// The SDK is pinned (package.json) at a release that runs on Node 20; its notice about later
// releases needing Node 22 would only be noise in every start-up log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export interface S3Settings {
  bucket: string;
  /** Object name prefix, '' or ending in '/'. */
  prefix: string;
  /** Another service than AWS S3 (S3_ENDPOINT). */
  endpoint?: string;
  region: string;
  /** Path-style addressing (http://host/bucket/key), which most S3-compatible servers need. */
  forcePathStyle: boolean;
}

const MiB = 1024 * 1024;
/** S3's smallest part of a multipart upload (all but the last). */
const MIN_PART = 5 * MiB;
const MAX_PARTS = 10_000;
/** Files up to this size go in one PutObject; larger ones as a multipart upload of parts this big or more. */
const SINGLE_PUT_MAX = 16 * MiB;
/** Parts sent (or copied) at once: enough to fill a link, few enough to bound memory and sockets. */
const CONCURRENCY = 4;
/** Idle time after which a request to the store counts as failed (a slow store answers 503, not never). */
const REQUEST_IDLE_MS = 30_000;
const CONNECT_MS = 3_000;

export class S3BlobStore implements BlobStore {
  readonly description: string;
  private readonly client: S3Client;

  /** `tmpDir`: where withLocalFile downloads a copy (removed after use). */
  constructor(
    readonly settings: S3Settings,
    private readonly tmpDir: string,
    client?: S3Client,
  ) {
    this.description = `S3 bucket ${settings.bucket}${settings.prefix ? ` (prefix ${settings.prefix})` : ''}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
    this.client =
      client ??
      new S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        // Checksums only where S3 requires them: a streamed body of unknown length cannot carry a
        // trailing checksum on many S3-compatible servers (Ceph answers 400), and TLS already guards it.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // No `Expect: 100-continue` on large bodies: the SDK sends those over a new connection each
        // (its keep-alive agent is bypassed) and waits a round trip before the body — every 6 MiB part
        // of a streamed upload paid a TCP connect and that wait (docs/benchmarks.md "Object store").
        expectContinueHeader: false,
        requestHandler: { connectionTimeout: CONNECT_MS, requestTimeout: REQUEST_IDLE_MS },
      });
  }

  private objectKey(key: string): string {
    return `${this.settings.prefix}${shardOf(key)}/${key}`;
  }

  /** Any store failure as BlobNotFoundError (the key names nothing) or BlobStoreUnavailableError. */
  private failure(err: unknown, key?: string): Error {
    if (err instanceof BlobNotFoundError || err instanceof BlobStoreUnavailableError) return err;
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    if (key && (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404)) return new BlobNotFoundError(key);
    return new BlobStoreUnavailableError(`The object store (${this.description}) failed: ${e.message || e.name || String(err)}`, { cause: err });
  }

  /**
   * Start-up check: the bucket answers and accepts a write and a delete with these credentials.
   * Throws a message an operator can act on.
   */
  async check(): Promise<void> {
    const { bucket } = this.settings;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) throw new Error(`the bucket '${bucket}' does not exist (${this.description}); create it first`);
      if (status === 403 || status === 401) throw new Error(`the credentials were refused for the bucket '${bucket}' (${this.description})`);
      throw new Error(`cannot reach ${this.description}: ${(err as Error).message || (err as Error).name}`);
    }
    const probe = `${this.settings.prefix}.portal-write-check`;
    try {
      await this.client.send(new PutObjectCommand({ Bucket: bucket, Key: probe, Body: 'ok' }));
      await this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: probe }));
    } catch (err) {
      throw new Error(`cannot write to ${this.description}: ${(err as Error).message || (err as Error).name}`);
    }
  }

  newKey(): string {
    return newBlobKey();
  }

  async adopt(key: string, localPath: string): Promise<number> {
    const { size } = await stat(localPath);
    try {
      if (size <= SINGLE_PUT_MAX) {
        await this.client.send(
          new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: createReadStream(localPath), ContentLength: size }),
        );
      } else {
        await this.putFileInParts(key, localPath, size);
      }
    } catch (err) {
      throw this.failure(err);
    }
    await rm(localPath, { force: true });
    return size;
  }

  /** A multipart upload whose parts are read straight from the file: no part is held in memory. */
  private async putFileInParts(key: string, localPath: string, size: number): Promise<void> {
    const partSize = Math.max(SINGLE_PUT_MAX, Math.ceil(size / MAX_PARTS));
    const count = Math.ceil(size / partSize);
    await this.uploadInParts(key, count, async (uploadId, n) => {
      const start = (n - 1) * partSize;
      return this.sendFilePart(key, uploadId, n, localPath, { start, end: Math.min(size, start + partSize) - 1 });
    });
  }

  /** Sends `range` of a local file (streamed from disk) as part `n`; answers its ETag. */
  private sendFilePart(key: string, uploadId: string, n: number, localPath: string, range: ByteRange): Promise<string> {
    return this.sendPart(key, uploadId, n, createReadStream(localPath, range), range.end - range.start + 1);
  }

  /**
   * Sends `length` bytes of `body` as part `n`; answers its ETag. Always as a stream: a Buffer body
   * is hashed for the request's signature by the SDK and again by the store to check it (Ceph's CPU
   * doubled in the benchmark).
   */
  private async sendPart(key: string, uploadId: string, n: number, body: Readable, length: number): Promise<string> {
    const out = await this.client.send(
      new UploadPartCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), UploadId: uploadId, PartNumber: n, Body: body, ContentLength: length }),
    );
    if (!out.ETag) throw new Error(`the object store answered part ${n} without an ETag`);
    return out.ETag;
  }

  /**
   * Runs a multipart upload of `count` parts, `sendPart` sending part n (1-based) and answering its
   * ETag, CONCURRENCY at a time; aborts the upload if anything fails, so no parts are left behind.
   */
  private async uploadInParts(key: string, count: number, sendPart: (uploadId: string, n: number) => Promise<string | undefined>): Promise<void> {
    const Bucket = this.settings.bucket;
    const Key = this.objectKey(key);
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    if (!UploadId) throw new Error('the object store started a multipart upload without an id');
    try {
      const parts: CompletedPart[] = new Array<CompletedPart>(count);
      let next = 1;
      const worker = async () => {
        while (next <= count) {
          const n = next++;
          parts[n - 1] = { PartNumber: n, ETag: await sendPart(UploadId, n) };
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } }));
    } catch (err) {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  async write(key: string, source: Readable): Promise<number> {
    let bytes = 0;
    let sourceError: unknown;
    const counted = new PassThrough({ highWaterMark: MiB });
    source.on('error', (err) => {
      sourceError ??= err;
      counted.destroy(err);
    });
    source.on('data', (chunk: Buffer) => (bytes += chunk.length));
    source.pipe(counted);
    // lib-storage sends a small stream as one PutObject and a large one as parts of 8 MiB, at most
    // CONCURRENCY in memory at once; a failed multipart upload is aborted (leavePartsOnError false).
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: counted },
      partSize: 8 * MiB,
      queueSize: CONCURRENCY,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      source.destroy();
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the source's own error, passed on as it came
      if (sourceError) throw sourceError;
      throw this.failure(err);
    }
    return bytes;
  }

  async open(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      if (!(out.Body instanceof Readable)) throw new Error('the object store answered without a body stream');
      return out.Body;
    } catch (err) {
      throw this.failure(err, key);
    }
  }

  async size(key: string): Promise<number> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return out.ContentLength ?? 0;
    } catch (err) {
      throw this.failure(err, key);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
    } catch (err) {
      throw this.failure(err);
    }
  }

  /**
   * Part files joined by reading them in order into a new object, streamed. (An item's large parts
   * never come here: they are parts of the store's own multipart upload, completed by the store —
   * `multipart` below; what is joined here is smaller than S3's 5 MiB part minimum.)
   */
  async join(key: string, parts: readonly StoredPart[]): Promise<number> {
    return this.write(key, Readable.from(this.concat(parts)));
  }

  private async *concat(parts: readonly StoredPart[]): AsyncGenerator<Buffer> {
    for (const part of parts) for await (const chunk of await this.open(part.key)) yield chunk as Buffer;
  }

  async withLocalFile<T>(key: string, use: (localPath: string) => Promise<T>): Promise<T> {
    await mkdir(this.tmpDir, { recursive: true });
    const copy = path.join(this.tmpDir, `blob-${newBlobKey()}`);
    try {
      await pipeline(await this.open(key), createWriteStream(copy));
      return await use(copy);
    } finally {
      await rm(copy, { force: true });
    }
  }

  /**
   * The shards that hold objects (one listing by delimiter) or unfinished uploads (listed by key:
   * Ceph's gateway answers nothing to a delimited ListMultipartUploads). Many unfinished uploads:
   * every shard.
   */
  async shards(): Promise<string[]> {
    const { bucket: Bucket, prefix: Prefix } = this.settings;
    try {
      const [objects, uploads] = await Promise.all([
        this.client.send(new ListObjectsV2Command({ Bucket, Prefix, Delimiter: '/', MaxKeys: 1000 })),
        this.client.send(new ListMultipartUploadsCommand({ Bucket, Prefix, MaxUploads: 1000 })),
      ]);
      if (uploads.IsTruncated) return Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
      const found = new Set<string>();
      for (const p of objects.CommonPrefixes ?? []) found.add(p.Prefix?.slice(Prefix.length, -1) ?? '');
      for (const u of uploads.Uploads ?? []) found.add(u.Key?.slice(Prefix.length).split('/')[0] ?? '');
      return [...found].filter((shard) => /^[a-f0-9]{2}$/.test(shard)).sort();
    } catch (err) {
      throw this.failure(err);
    }
  }

  async listOlder(shard: string, before: number, limit: number, after?: string): Promise<{ keys: StoredKey[]; next?: string }> {
    const prefix = `${this.settings.prefix}${shard}/`;
    try {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, MaxKeys: limit, StartAfter: after ? `${prefix}${after}` : undefined }),
      );
      const keys: StoredKey[] = [];
      for (const o of out.Contents ?? []) {
        const key = o.Key?.slice(prefix.length) ?? '';
        const modified = o.LastModified?.getTime() ?? Date.now();
        if (BLOB_KEY.test(key) && modified < before) keys.push({ key, modified });
      }
      const last = out.Contents?.at(-1)?.Key?.slice(prefix.length);
      // A page may hold only young objects: the next one starts after its last key all the same.
      return { keys, next: out.IsTruncated ? last : undefined };
    } catch (err) {
      throw this.failure(err);
    }
  }

  async removeUnfinished(shard: string, before: number, keep: (uploadId: string) => boolean = () => false): Promise<number> {
    const Bucket = this.settings.bucket;
    try {
      const out = await this.client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: `${this.settings.prefix}${shard}/`, MaxUploads: 1000 }));
      let removed = 0;
      for (const u of out.Uploads ?? []) {
        if (!u.Key || !u.UploadId || (u.Initiated?.getTime() ?? Infinity) >= before || keep(u.UploadId)) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
        removed++;
      }
      return removed;
    } catch (err) {
      throw this.failure(err);
    }
  }

  /** Multipart uploads of the store itself: an item's large parts go straight in, and commit copies nothing. */
  readonly multipart: StoreMultipart = {
    minPartBytes: MIN_PART,
    begin: async (key) => {
      try {
        const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
        if (!UploadId) throw new Error('the object store started a multipart upload without an id');
        return UploadId;
      } catch (err) {
        throw this.failure(err);
      }
    },
    putPart: async (key, uploadId, n, localPath) => {
      const { size } = await stat(localPath);
      let etag: string;
      try {
        etag = await this.sendFilePart(key, uploadId, n, localPath, { start: 0, end: size - 1 });
      } catch (err) {
        throw this.failure(err);
      }
      await rm(localPath, { force: true });
      return etag;
    },
    putStream: (key, uploadId, { first, count }, chunkBytes, source) =>
      sendInParts(source, { first, count, chunkBytes, minPartBytes: MIN_PART }, async (n, body, length) => {
        try {
          return await this.sendPart(key, uploadId, n, Readable.from(body), length);
        } catch (err) {
          throw this.failure(err);
        }
      }),
    copyPart: async (key, uploadId, n, from) => {
      try {
        const out = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.settings.bucket,
            Key: this.objectKey(key),
            UploadId: uploadId,
            PartNumber: n,
            CopySource: `${this.settings.bucket}/${this.objectKey(from)}`,
          }),
        );
        if (!out.CopyPartResult?.ETag) throw new Error(`the object store answered the copy of part ${n} without an ETag`);
        return out.CopyPartResult.ETag;
      } catch (err) {
        throw this.failure(err, from);
      }
    },
    listParts: async (key, uploadId) => {
      const parts: { n: number; etag: string; size: number }[] = [];
      try {
        // Pages of at most 1,000: ten at most for S3's 10,000 parts.
        for (let marker: string | undefined; ;) {
          const out = await this.client.send(
            new ListPartsCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), UploadId: uploadId, PartNumberMarker: marker }),
          );
          for (const p of out.Parts ?? []) parts.push({ n: p.PartNumber!, etag: p.ETag!, size: p.Size! });
          if (!out.IsTruncated || !out.NextPartNumberMarker) return parts.sort((a, b) => a.n - b.n);
          marker = out.NextPartNumberMarker;
        }
      } catch (err) {
        throw this.failure(err);
      }
    },
    complete: async (key, uploadId, parts) => {
      try {
        await this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: this.settings.bucket,
            Key: this.objectKey(key),
            UploadId: uploadId,
            MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
          }),
        );
      } catch (err) {
        throw this.failure(err);
      }
    },
    abort: async (key, uploadId) => {
      try {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), UploadId: uploadId }));
      } catch (err) {
        throw this.failure(err);
      }
    },
  };

  close(): void {
    this.client.destroy();
  }
}
