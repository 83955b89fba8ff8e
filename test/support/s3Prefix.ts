/**
 * Removes every object under a cluster's BLOB_STORE prefix once its test is done, so that runs
 * against a long-lived store (a developer's, not CI's throwaway one) leave nothing behind.
 * Uses the same environment as the instances (S3_ENDPOINT, AWS_REGION, S3_FORCE_PATH_STYLE, keys).
 */
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export async function removeS3Prefix(blobStore: string, env: NodeJS.ProcessEnv): Promise<number> {
  const url = new URL(blobStore);
  const target = { bucket: url.host, prefix: `${url.pathname.replace(/^\/+|\/+$/g, '')}/` };
  // Never an empty prefix: that would be the whole bucket.
  if (url.protocol !== 's3:' || target.prefix === '/') throw new Error(`removeS3Prefix: ${blobStore} names no prefix`);
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: ['1', 'true', 'on', 'yes'].includes(env.S3_FORCE_PATH_STYLE ?? ''),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  let removed = 0;
  try {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: target.bucket, Prefix: target.prefix, ContinuationToken: token, MaxKeys: 1000 }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket: target.bucket, Delete: { Objects: keys, Quiet: true } }));
      removed += keys.length;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return removed;
}
