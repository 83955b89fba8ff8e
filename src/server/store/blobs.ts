/**
 * The blob store: item files under DATA_DIR/blobs, addressed by server-generated keys (never a
 * user's file name — ASVS 5.3.2). An interface, so object storage can replace it.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BlobStore {
  /** A new, unused key. */
  newKey(): string;
  /** Moves a finished local file (an upload's temporary file) into the store under `key`. */
  adopt(key: string, localPath: string): Promise<number>;
  /** Streams `source` into the store under `key`; answers the byte count. */
  write(key: string, source: Readable): Promise<number>;
  read(key: string, range?: { start: number; end: number }): Readable;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
  /** A local path for the key (for libraries that need one, e.g. unzip). */
  localPath(key: string): string;
}

export class FileBlobStore implements BlobStore {
  /** `root` is read by the retention sweep (unfinished writes, files no item refers to). */
  constructor(readonly root: string) {}

  newKey(): string {
    return randomUUID().replaceAll('-', '');
  }

  localPath(key: string): string {
    if (!/^[a-f0-9]{32}$/.test(key)) throw new Error(`invalid blob key ${key}`);
    return path.join(this.root, key.slice(0, 2), key);
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

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.localPath(key), range);
  }

  async size(key: string): Promise<number> {
    return (await stat(this.localPath(key))).size;
  }

  async remove(key: string): Promise<void> {
    await rm(this.localPath(key), { force: true });
  }
}
