/**
 * The benchmarks' own S3-compatible server: scripts/s3-test-server.sh (Ceph Object Gateway on
 * loopback, docs/object-store-testing.md) started in a temporary directory on a free port, a client
 * for it, and a stop that runs whatever happens to the benchmark (error, Ctrl-C, SIGTERM).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ROOT } from './lib.ts';

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, 'scripts/s3-test-server.sh');

export interface S3TestServer {
  dir: string;
  /** The variables DIR/s3.env holds: S3_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, S3_FORCE_PATH_STYLE. */
  env: Record<string, string>;
  client: S3Client;
  startMs: number;
  stop(): Promise<void>;
}

/** Resolves when nothing listens on 127.0.0.1:port. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A free loopback port whose next `span - 1` ports are free too (the gateway's monitor takes PORT+1). */
export async function freePorts(span = 1): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as net.AddressInfo;
        s.close(() => resolve(p));
      });
    });
    if (port + span > 65535) continue;
    let all = true;
    for (let i = 1; i < span && all; i++) all = await portFree(port + i);
    if (all) return port;
  }
}

function parseEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

/**
 * Starts a server with `storeEnv` (e.g. S3_TEST_OSD_STORE=bluestore). Its stop is handed to
 * `onCleanup` before the start begins, so an interrupted start is stopped too.
 */
export async function startS3TestServer(storeEnv: Record<string, string>, onCleanup: (stop: () => Promise<void>) => void): Promise<S3TestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-s3-'));
  const port = await freePorts(2);
  const t0 = performance.now();
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= run('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 }).then(
      () => undefined,
      (err: Error) => console.error(`stopping the S3 test server in ${dir} failed: ${err.message}`),
    ));
  onCleanup(stop);
  try {
    await run('bash', [SCRIPT, 'start', dir, String(port)], { env: { ...process.env, ...storeEnv }, timeout: 180_000 });
  } catch (err) {
    await stop();
    const e = err as { stderr?: string; message: string };
    throw new Error(`the S3 test server did not start: ${e.stderr || e.message}`);
  }
  const startMs = performance.now() - t0;
  const env = parseEnvFile(path.join(dir, 's3.env'));
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
    env,
    client,
    startMs,
    stop: async () => {
      client.destroy();
      await stop();
    },
  };
}

export async function createBucket(server: S3TestServer, name: string): Promise<void> {
  await server.client.send(new CreateBucketCommand({ Bucket: name }));
}
