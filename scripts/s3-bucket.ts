/**
 * Creates a bucket in the S3-compatible store the environment names (S3_ENDPOINT, AWS_REGION,
 * S3_FORCE_PATH_STYLE, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY — the variables of
 * scripts/s3-test-server.sh's s3.env), for the scale-out check and for trying BLOB_STORE by hand.
 *
 *   node --import tsx scripts/s3-bucket.ts create NAME
 *
 * An existing bucket of ours is fine (BucketAlreadyOwnedByYou); any other failure exits 1.
 */
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

const [verb, name] = process.argv.slice(2);
if (verb !== 'create' || !name) {
  console.error('usage: s3-bucket.ts create NAME');
  process.exit(2);
}
const client = new S3Client({
  endpoint: process.env.S3_ENDPOINT,
  region: process.env.AWS_REGION ?? 'us-east-1',
  forcePathStyle: ['1', 'true', 'on', 'yes'].includes(process.env.S3_FORCE_PATH_STYLE ?? ''),
  // S3-compatible servers (Ceph RGW among them) do not all take the SDK's default streaming checksums.
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
try {
  await client.send(new CreateBucketCommand({ Bucket: name }));
  console.log(`bucket ${name} created`);
} catch (err) {
  if ((err as Error).name !== 'BucketAlreadyOwnedByYou') {
    console.error(`bucket ${name}: ${(err as Error).name}: ${(err as Error).message}`);
    process.exit(1);
  }
  console.log(`bucket ${name} already exists`);
} finally {
  client.destroy();
}
