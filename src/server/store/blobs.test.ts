import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from './blobs.ts';

let root: string;
let store: FileBlobStore;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'blobs-test-'));
  store = new FileBlobStore(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('FileBlobStore.write', () => {
  it('stores a stream and answers its size', async () => {
    const key = store.newKey();
    expect(await store.write(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toBe(11);
    expect(await store.size(key)).toBe(11);
  });

  it('rejects, without an uncaught error, when the source fails before the pipeline starts', async () => {
    const source = new PassThrough();
    // Fails at once, while the store is still making the key's folder.
    process.nextTick(() => source.destroy(new Error('source broke early')));
    const key = store.newKey();
    await expect(store.write(key, source)).rejects.toThrow('source broke early');
    // Nothing half-written is left behind.
    const dir = path.dirname(store.localPath(key));
    expect((await readdir(dir).catch(() => [])).filter((f) => f.startsWith(key))).toEqual([]);
  });

  it('rejects when the source fails midway and leaves no partial file', async () => {
    const source = new PassThrough();
    const key = store.newKey();
    const done = store.write(key, source);
    source.write(Buffer.alloc(1024));
    setTimeout(() => source.destroy(new Error('source broke midway')), 20);
    await expect(done).rejects.toThrow('source broke midway');
    const dir = path.dirname(store.localPath(key));
    expect((await readdir(dir)).filter((f) => f.startsWith(key))).toEqual([]);
  });
});
