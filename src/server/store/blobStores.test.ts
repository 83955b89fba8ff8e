/**
 * The blob store's contract, held by both implementations: the local disk store and the S3 store
 * against a real S3-compatible server on loopback (Ceph Object Gateway, test/support/s3.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ListMultipartUploadsCommand, ListObjectsV2Command, CreateMultipartUploadCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ServerAvailable, startS3TestServer, useS3Credentials, type S3TestServer } from '../../../test/support/s3.ts';
import { BlobNotFoundError, BlobStoreUnavailableError, FileBlobStore, readBlob, type BlobStore } from './blobs.ts';
import { S3BlobStore } from './s3Blobs.ts';

const MiB = 1024 * 1024;
let scratch: string;
let s3: S3TestServer | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'blob-stores-'));
  if (s3ServerAvailable) {
    s3 = await startS3TestServer();
    useS3Credentials(s3);
  }
}, 120_000);
afterAll(async () => {
  await s3?.stop();
  await rm(scratch, { recursive: true, force: true });
});

async function localFile(bytes: Buffer): Promise<string> {
  const file = path.join(scratch, `in-${randomBytes(6).toString('hex')}`);
  await writeFile(file, bytes);
  return file;
}

const text = async (store: BlobStore, key: string) => (await readBlob(store, key, 64 * MiB)).toString('utf8');

const stores: { name: string; available: boolean; make: () => Promise<BlobStore> }[] = [
  { name: 'local disk', available: true, make: async () => new FileBlobStore(await mkdtemp(path.join(scratch, 'disk-'))) },
  {
    name: 'S3 (Ceph Object Gateway)',
    available: s3ServerAvailable,
    make: async () => new S3BlobStore(await s3!.bucket(`contract-${randomBytes(4).toString('hex')}`, 'portal/'), path.join(scratch, 'tmp')),
  },
];

describe.each(stores)('$name', ({ available, make }) => {
  let store: BlobStore;
  beforeAll(async () => {
    if (available) store = await make();
  });

  it.skipIf(!available)('writes a stream, reads it whole and by ranges, answers its size', async () => {
    const key = store.newKey();
    expect(await store.write(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toBe(11);
    expect(await store.size(key)).toBe(11);
    expect(await text(store, key)).toBe('hello world');
    const chunks: Buffer[] = [];
    for await (const c of await store.open(key, { start: 6, end: 10 })) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('world');
  });

  it.skipIf(!available)('adopts a local file (small, and large enough to go in parts) and removes the local copy', async () => {
    for (const bytes of [Buffer.from('a,b\n1,2\n'), randomBytes(17 * MiB + 3)]) {
      const file = await localFile(bytes);
      const key = store.newKey();
      expect(await store.adopt(key, file)).toBe(bytes.length);
      expect((await readBlob(store, key, 64 * MiB)).equals(bytes)).toBe(true);
      await expect(readFile(file)).rejects.toThrow();
    }
  });

  it.skipIf(!available)('writes an empty file', async () => {
    const key = store.newKey();
    expect(await store.write(key, Readable.from([]))).toBe(0);
    expect(await store.size(key)).toBe(0);
  });

  it.skipIf(!available)('joins parts in order, large and small', async () => {
    const big = [randomBytes(5 * MiB), randomBytes(5 * MiB + 1), Buffer.from('tail')];
    const small = [Buffer.from('A'), Buffer.from('BB'), Buffer.from('CCC')];
    for (const bytes of [big, small]) {
      const parts = [];
      for (const b of bytes) {
        const key = store.newKey();
        await store.write(key, Readable.from([b]));
        parts.push({ key, size: b.length });
      }
      const joined = store.newKey();
      expect(await store.join(joined, parts)).toBe(Buffer.concat(bytes).length);
      expect((await readBlob(store, joined, 64 * MiB)).equals(Buffer.concat(bytes))).toBe(true);
    }
  });

  it.skipIf(!available)('a missing key is BlobNotFoundError; removing it is no error', async () => {
    const key = store.newKey();
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.size(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.remove(key)).resolves.toBeUndefined();
  });

  it.skipIf(!available)('a source that fails midway rejects with its own error and leaves nothing under the key', async () => {
    const source = new PassThrough();
    const key = store.newKey();
    const done = store.write(key, source);
    source.write(randomBytes(9 * MiB));
    setTimeout(() => source.destroy(new Error('source broke midway')), 50);
    await expect(done).rejects.toThrow('source broke midway');
    await expect(store.size(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it.skipIf(!available)('gives a local file to libraries that need one, and removes a copy afterwards', async () => {
    const key = store.newKey();
    await store.write(key, Readable.from([Buffer.from('zip?')]));
    let seen = '';
    const read = await store.withLocalFile(key, async (file) => {
      seen = file;
      return readFile(file, 'utf8');
    });
    expect(read).toBe('zip?');
    if (store instanceof S3BlobStore) await expect(readFile(seen)).rejects.toThrow();
  });

  it.skipIf(!available)('lists a shard in bounded pages, older keys only', async () => {
    const keys = Array.from({ length: 5 }, () => `ab${store.newKey().slice(2)}`).sort();
    for (const k of keys) await store.write(k, Readable.from([Buffer.from(k)]));
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await store.listOlder('ab', Date.now() + 60_000, 2, after);
      expect(page.keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.keys.map((k) => k.key));
      after = page.next;
      pages++;
    } while (after);
    expect(seen.filter((k) => keys.includes(k))).toEqual(keys);
    expect(pages).toBeGreaterThanOrEqual(3);
    // Nothing is older than a time before they were written.
    expect((await store.listOlder('ab', Date.now() - 3_600_000, 100)).keys.filter((k) => keys.includes(k.key))).toEqual([]);
  });
});

describe.skipIf(!s3ServerAvailable)('S3 store specifics', () => {
  it('refuses to start on a missing bucket, with the bucket named', async () => {
    const store = new S3BlobStore({ bucket: 'no-such-bucket-here', prefix: '', endpoint: s3!.endpoint, region: 'us-east-1', forcePathStyle: true }, scratch);
    await expect(store.check()).rejects.toThrow("the bucket 'no-such-bucket-here' does not exist");
    store.close();
  });

  it('refuses to start with credentials the store does not know', async () => {
    const setting = await s3!.bucket(`creds-${randomBytes(4).toString('hex')}`);
    const { S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      endpoint: s3!.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'NOTAKEY0000000000000', secretAccessKey: 'x'.repeat(40) },
    });
    const store = new S3BlobStore(setting, scratch, client);
    await expect(store.check()).rejects.toThrow(/credentials were refused|cannot write/);
    store.close();
  });

  it('keeps objects under its prefix, sharded like the disk', async () => {
    const setting = await s3!.bucket(`layout-${randomBytes(4).toString('hex')}`, 'org/files/');
    const store = new S3BlobStore(setting, scratch);
    await store.check();
    const key = store.newKey();
    await store.write(key, Readable.from([Buffer.from('x')]));
    const listed = await s3!.client.send(new ListObjectsV2Command({ Bucket: setting.bucket }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([`org/files/${key.slice(0, 2)}/${key}`]);
    store.close();
  });

  it('removes unfinished multipart uploads older than the limit, and only those', async () => {
    const setting = await s3!.bucket(`unfinished-${randomBytes(4).toString('hex')}`);
    const store = new S3BlobStore(setting, scratch);
    const key = store.newKey();
    await s3!.client.send(new CreateMultipartUploadCommand({ Bucket: setting.bucket, Key: `${key.slice(0, 2)}/${key}` }));
    const uploads = async () => (await s3!.client.send(new ListMultipartUploadsCommand({ Bucket: setting.bucket }))).Uploads ?? [];
    expect(await store.removeUnfinished(key.slice(0, 2), Date.now() - 3_600_000)).toBe(0);
    expect(await uploads()).toHaveLength(1);
    expect(await store.removeUnfinished(key.slice(0, 2), Date.now() + 60_000)).toBe(1);
    expect(await uploads()).toHaveLength(0);
    store.close();
  });

  it('a store that is down is BlobStoreUnavailableError, and works again when it is back', async () => {
    const store = new S3BlobStore(await s3!.bucket(`down-${randomBytes(4).toString('hex')}`), scratch);
    const key = store.newKey();
    await store.write(key, Readable.from([Buffer.from('kept')]));
    await s3!.killGateway();
    try {
      await expect(store.open(key)).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(store.write(store.newKey(), Readable.from([Buffer.from('lost')]))).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    } finally {
      await s3!.startGateway();
    }
    expect(await text(store, key)).toBe('kept');
    store.close();
  }, 120_000);
});
