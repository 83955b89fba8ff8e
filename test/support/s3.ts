/**
 * A real S3-compatible server for a test file: scripts/s3-test-server.sh (Ceph Object Gateway on a
 * throwaway one-node cluster, loopback only; docs/object-store-testing.md), started in a temporary
 * folder on free ports and removed afterwards. Where Ceph is not installed the tests that need it
 * are skipped locally; in CI (CI set) a missing server is an error, never a silent skip.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
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
  dir: string;
  endpoint: string;
  /** The S3 variables DIR/s3.env holds (S3_ENDPOINT, AWS_ACCESS_KEY_ID, …) for a child process's environment. */
  env: Record<string, string>;
  /** How long the start took. */
  startMs: number;
  /** A new bucket, and the blob store setting for it (prefix as given). */
  bucket(name: string, prefix?: string): Promise<S3BlobSetting>;
  client: S3Client;
  /** The gateway dies at once (SIGKILL); the cluster stays. */
  killGateway(): Promise<void>;
  startGateway(): Promise<void>;
  stop(): Promise<void>;
}

/** Resolves whether nothing listens on 127.0.0.1:port. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A free loopback port whose next `span - 1` ports are free too (the gateway's monitor takes PORT+1). */
export async function freePorts(span = 1): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as AddressInfo;
        s.close(() => resolve(p));
      });
    });
    if (port + span > 65535) continue;
    let all = true;
    for (let i = 1; i < span && all; i++) all = await portFree(port + i);
    if (all) return port;
  }
}

/** DIR/s3.env as variables. */
async function readS3Env(dir: string): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const line of (await readFile(path.join(dir, 's3.env'), 'utf8')).split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

export interface S3TestServerOptions {
  /** Extra variables for the script, e.g. S3_TEST_OSD_STORE=bluestore (the benchmark). */
  storeEnv?: Record<string, string>;
  /** Receives the stop before the start begins, so an interrupted start is stopped too. */
  onCleanup?: (stop: () => Promise<void>) => void;
}

/** Set (by test/support/s3GlobalSetup.ts) to the folder of a server started once for the whole run. */
export const SHARED_S3_SERVER_DIR = 'S3_TEST_SERVER_DIR';

/**
 * A server for the caller: the one started for the whole run when there is one (its stop() then
 * leaves it running for the next file), else a new one.
 */
export async function startS3TestServer(opts: S3TestServerOptions = {}): Promise<S3TestServer> {
  const shared = process.env[SHARED_S3_SERVER_DIR];
  if (shared) return connectS3TestServer(shared, 0, async () => {});
  const dir = await mkdtemp(path.join(tmpdir(), 's3-test-'));
  const port = await freePorts(2);
  const t0 = performance.now();
  let stopped: Promise<void> | undefined;
  const stopServer = () =>
    (stopped ??= run('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 }).then(
      () => undefined,
      (err: Error) => console.error(`stopping the S3 test server in ${dir} failed: ${err.message}`),
    ));
  opts.onCleanup?.(stopServer);
  try {
    await run('bash', [SCRIPT, 'start', dir, String(port)], { env: { ...process.env, ...opts.storeEnv }, timeout: 180_000 });
  } catch (err) {
    await stopServer();
    const e = err as { stderr?: string; message: string };
    throw new Error(`the S3 test server did not start: ${e.stderr || e.message}`);
  }
  return connectS3TestServer(dir, performance.now() - t0, stopServer);
}

/** A client of the server running in `dir`; stop() closes the client, then calls `stopServer`. */
async function connectS3TestServer(dir: string, startMs: number, stopServer: () => Promise<void>): Promise<S3TestServer> {
  const env = await readS3Env(dir);
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
    // Ceph's gateway refuses the SDK's default streamed trailing checksums (docs/object-store-testing.md).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    dir,
    endpoint: env.S3_ENDPOINT,
    env,
    startMs,
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
      await stopServer();
    },
  };
}

/** The S3 client variables for this process, so that a store made here finds its credentials. */
export function useS3Credentials(server: S3TestServer): void {
  process.env.AWS_ACCESS_KEY_ID = server.env.AWS_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = server.env.AWS_SECRET_ACCESS_KEY;
}
