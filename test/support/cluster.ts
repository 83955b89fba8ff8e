/**
 * Several real local portals as separate processes, as an operator runs them on separate machines:
 * each with its own DATA_DIR, one PostgreSQL schema, the blob store the environment names
 * (BLOB_STORE=s3://… with the S3 variables; each cluster gets its own prefix), and the round-robin
 * balancer (scripts/balancer.ts) in front. The scale-out check (scripts/scale-out-check.sh) runs
 * the conformance suite through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBalancer, type Balancer } from '../../scripts/balancer.ts';
import { freshPostgresSchema } from './postgres.ts';
import { removeS3Prefix } from './s3Prefix.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

export interface ClusterInstance {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything it printed (stdout and stderr), for failure messages. */
  output(): string;
}

export interface Cluster {
  /** The balancer's REST URL: http://127.0.0.1:<port>/sharing/rest */
  restUrl: string;
  instances: ClusterInstance[];
  /** The schema's connection URL (search_path set): what every instance uses as DATABASE_URL. */
  databaseUrl: string;
  /** The BLOB_STORE every instance was given (s3://bucket/prefix), or undefined for local disk. */
  blobStore?: string;
  /** The environment every instance was started with (but its own DATA_DIR): config.ts's loadConfig reads it. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export interface ClusterOptions {
  instances?: number;
  /** Start every instance at once instead of one after the other (a first start on an empty database). */
  together?: boolean;
  /** Extra environment for every instance. */
  env?: Record<string, string>;
}

/** BLOB_STORE=s3://bucket/prefix → the same bucket, under a prefix of this cluster's own. */
function clusterBlobStore(base: string | undefined, id: string): string | undefined {
  if (!base || base === 'file') return undefined;
  const url = new URL(base);
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
  return `s3://${url.host}/${prefix ? `${prefix}/` : ''}cluster-${id}`;
}

function startInstance(env: NodeJS.ProcessEnv, dataDir: string, index: number): Promise<ClusterInstance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let origin = '';
  const instance: ClusterInstance = { origin, dataDir, process: child, output: () => output };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not say "Ready in" within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    function fail(why: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`portal instance ${index + 1} ${why}:\n${output}`));
    }
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // "Portal Admin Console: http://127.0.0.1:41234/  (REST: …)" — main.ts's first line once it listens.
      const listening = /Portal Admin Console: (https?:\/\/[^/\s]+)\//.exec(output);
      if (listening && !origin) instance.origin = origin = listening[1];
      if (origin && /^Ready in \d+ ms$/m.test(output)) {
        clearTimeout(timer);
        resolve(instance);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      if (!origin || !/^Ready in/m.test(output)) fail(`ended before it was ready (exit ${code ?? signal})`);
    });
  });
}

async function stopInstance(instance: ClusterInstance): Promise<void> {
  const child = instance.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const baseDatabaseUrl = process.env.DATABASE_URL;
  if (!baseDatabaseUrl) throw new Error('A cluster needs PostgreSQL: set DATABASE_URL (instances share nothing else but the blob store).');
  const id = randomBytes(6).toString('hex');
  const schema = await freshPostgresSchema(baseDatabaseUrl);
  const blobStore = clusterBlobStore(process.env.BLOB_STORE, id);
  // Listening before the instances start: their PUBLIC_URL is the balancer's address, and a port
  // only probed as free could be taken by one of them (or another test file) before the balancer binds it.
  const balancer: Balancer = await startBalancer([], { backendsLater: true });
  const publicOrigin = balancer.url;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: schema.url,
    BLOB_STORE: blobStore ?? 'file',
    // The instances see the client's address (sign-in throttling) and the balancer's origin (OAuth redirects).
    TRUST_PROXY: '127.0.0.1',
    PUBLIC_URL: publicOrigin,
    // Tests' webhook receivers and proxied services listen on loopback.
    ALLOW_PRIVATE_OUTBOUND: 'on',
    DEMO_DATA: 'on',
    // Passwords set through an instance hashed as the in-process test service hashes them (scaleOut.ts).
    PASSWORD_LOG_N: '10',
    ...opts.env,
  };
  // The test runner's own switches must not leak into the service processes.
  delete env.PORTAL_SCALE_OUT;
  delete env.VITEST;
  delete env.NODE_ENV;

  const count = opts.instances ?? 2;
  const dataDirs: string[] = [];
  const instances: ClusterInstance[] = [];
  const close = async () => {
    await balancer.close();
    await Promise.all(instances.map(stopInstance));
    await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
    await schema.drop();
    if (blobStore) await removeS3Prefix(blobStore, env);
  };
  try {
    for (let i = 0; i < count; i++) dataDirs.push(await mkdtemp(path.join(tmpdir(), `portal-instance-${i + 1}-`)));
    if (opts.together) {
      const started = await Promise.allSettled(dataDirs.map((d, i) => startInstance(env, d, i)));
      for (const s of started) if (s.status === 'fulfilled') instances.push(s.value);
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
    } else {
      // One after the other: the first migrates and seeds, the others find it done.
      for (const [i, d] of dataDirs.entries()) instances.push(await startInstance(env, d, i));
    }
    balancer.setBackends(instances.map((i) => i.origin));
  } catch (err) {
    await close();
    throw err;
  }
  return { restUrl: `${balancer.url}/sharing/rest`, instances, databaseUrl: schema.url, blobStore, env, close };
}
