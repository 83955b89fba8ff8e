/** The blob store the configuration asks for: local disk under the data directory, or S3 (BLOB_STORE). */
import path from 'node:path';
import type { Config } from '../config.ts';
import { FileBlobStore, type BlobStore } from './blobs.ts';
import { S3BlobStore } from './s3Blobs.ts';

/** `filesDir`: the data directory (or a test's temporary one); `tmpDir`: where local copies go. */
export function openBlobStore(config: Pick<Config, 'blobStore'>, filesDir: string, tmpDir: string): BlobStore {
  if (config.blobStore?.kind === 's3') return new S3BlobStore(config.blobStore, tmpDir);
  return new FileBlobStore(path.join(filesDir, 'blobs'));
}
