/** The blob store the configuration asks for: local disk under the data directory, or S3 (BLOB_STORE). */
import path from 'node:path';
import type { Config } from '../config.ts';
import { FileBlobStore, type BlobStore } from './blobs.ts';

/**
 * `filesDir`: the data directory (or a test's temporary one); `tmpDir`: where local copies go.
 * The S3 store (and with it the AWS SDK, the largest part of a start's module loading) is imported
 * only when it is the one configured.
 */
export async function openBlobStore(config: Pick<Config, 'blobStore'>, filesDir: string, tmpDir: string): Promise<BlobStore> {
  if (config.blobStore?.kind === 's3') {
    const { S3BlobStore } = await import('./s3Blobs.ts');
    return new S3BlobStore(config.blobStore, tmpDir);
  }
  return new FileBlobStore(path.join(filesDir, 'blobs'));
}
