/**
 * A real S3-compatible server for a test file: scripts/s3-test-server.sh (Ceph Object Gateway on a
 * throwaway one-node cluster, loopback only; docs/object-store-testing.md), started in a temporary
 * folder on free ports and removed afterwards. Where Ceph is not installed the tests that need it
 * are skipped locally; in CI (CI set) a missing server is an error, never a silent skip.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3BlobSetting } from '../../src/server/config.ts';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/s3-test-server.sh');

/** Whether this machine can run the server (Debian's radosgw, ceph-mon, ceph-osd). */
export const s3ServerAvailable = existsSync('/usr/bin/radosgw') && existsSync('/usr/bin/ceph-mon') && existsSync('/usr/bin/ceph-osd');
if (!s3ServerAvailable && process.env.CI) throw new Error('CI: the S3 test server needs ceph-mon, ceph-osd and radosgw (see .ci/run)');

export interface S3TestServer {
  endpoint: string;
  /** The S3 variables (S3_ENDPOINT, AWS_ACCESS_KEY_ID, …) for a child process's environment. */
  env: Record<string, string>;
  /** A new bucket, and the blob store setting for it (prefix as given). */
  bucket(name: string, prefix?: string): Promise<S3BlobSetting>;
  client: S3Client;
  /** The gateway dies at once (SIGKILL); the cluster stays. */
  killGateway(): Promise<void>;
  startGateway(): Promise<void>;
  stop(): Promise<void>;
}

/** Two free loopback ports in a row (the gateway's, and the monitor's after it). */
async function freePortPair(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await isFree(port)) && (await isFree(port + 1))) return port;
  }
  throw new Error('no two free loopback ports in a row');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function startS3TestServer(): Promise<S3TestServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 's3-test-'));
  const port = await freePortPair();
  await run('bash', [SCRIPT, 'start', dir, String(port)], { timeout: 120_000 });
  const env = Object.fromEntries(
    (await readFile(path.join(dir, 's3.env'), 'utf8'))
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint: env.S3_ENDPOINT,
    env,
    client,
    async bucket(name, prefix = '') {
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return { kind: 's3', bucket: name, prefix, endpoint: env.S3_ENDPOINT, region: env.AWS_REGION, forcePathStyle: true };
    },
    async killGateway() {
      await run('bash', [SCRIPT, 'gateway-kill', dir], { timeout: 30_000 });
    },
    async startGateway() {
      await run('bash', [SCRIPT, 'gateway-start', dir], { timeout: 60_000 });
    },
    async stop() {
      client.destroy();
      await run('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 });
    },
  };
}

/** The S3 client variables for this process, so that a store made here finds its credentials. */
export function useS3Credentials(server: S3TestServer): void {
  process.env.AWS_ACCESS_KEY_ID = server.env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = server.env.AWS_SECRET_ACCESS_KEY;
}
