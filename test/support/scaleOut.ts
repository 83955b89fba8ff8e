/**
 * startService() when PORTAL_SCALE_OUT=N: the same TestService, backed by N real instances in
 * separate processes behind the round-robin balancer (cluster.ts). Requests (`post`, `postForm`,
 * `tokenFor`, and every client given `restUrl`) go over HTTP through the balancer.
 *
 * `app` is one more instance of the portal, in this process and on the same database and blob
 * store, that never listens and runs no background jobs: it is there for the tests that call a
 * service function directly (syncConsoleApp, runWebhookDispatch) or read the blob store. `db` is a
 * direct connection to the cluster's schema.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { DEMO_PASSWORD, loadConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/store/db.ts';
import { startCluster } from './cluster.ts';
import { operationForm, type TestService, type TestServiceOptions } from './testService.ts';

/** PORTAL_SCALE_OUT=2 (or any count ≥ 2): the conformance suite runs against a cluster. */
export function scaleOutInstances(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PORTAL_SCALE_OUT ?? 0);
  return Number.isInteger(n) && n >= 2 ? n : 0;
}

/** Options that only an in-process service can honour: a test that needs them is skipped in scale-out (see `inProcessOnly`). */
function refuseInProcessOptions(opts: TestServiceOptions): void {
  const unsupported = [opts.clock && 'clock', opts.tls && 'tls', opts.config && 'config'].filter(Boolean);
  if (unsupported.length) throw new Error(`startService({ ${unsupported.join(', ')} }) cannot run out of process (PORTAL_SCALE_OUT)`);
}

async function answer(res: Response, what: string): Promise<any> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${text}`);
  return JSON.parse(text);
}

export async function startScaledOutService(instances: number, opts: TestServiceOptions = {}): Promise<TestService> {
  refuseInProcessOptions(opts);
  const cluster = await startCluster({ instances, env: opts.demoData === false ? { DEMO_DATA: 'off' } : {} });
  const filesDir = await mkdtemp(path.join(tmpdir(), 'portal-scale-out-app-'));
  try {
    const config = { ...loadConfig({ ...cluster.env, DATA_DIR: filesDir }), passwordLogN: 10 };
    const db = await openDb({ dataDir: filesDir, databaseUrl: cluster.databaseUrl });
    const app = await buildApp({ db, config });
    const orgs = await db.query<{ id: string }>('SELECT id FROM organizations ORDER BY created, id');
    const restUrl = cluster.restUrl;
    const service: TestService = {
      app,
      db,
      config,
      restUrl,
      orgId: orgs[0]?.id,
      partnerOrgId: orgs[1]?.id,
      async listen() {
        return restUrl;
      },
      async tokenFor(username) {
        const body = await answer(
          await fetch(`${restUrl}/generateToken`, { method: 'POST', body: new URLSearchParams({ username, password: DEMO_PASSWORD, f: 'json' }) }),
          `sign-in as ${username}`,
        );
        if (!body.token) throw new Error(`sign-in as ${username} failed: ${JSON.stringify(body)}`);
        return body.token as string;
      },
      async post(operation, params = {}, token) {
        const body = new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) });
        return answer(await fetch(`${restUrl}/${operation}`, { method: 'POST', body }), `POST ${operation}`);
      },
      async postForm(operation, fields, token) {
        const form = operationForm(fields, token);
        return answer(await fetch(`${restUrl}/${operation}`, { method: 'POST', body: form }), `POST ${operation}`);
      },
      async close() {
        await app.close();
        await db.close();
        await cluster.close();
        await rm(filesDir, { recursive: true, force: true });
      },
    };
    return service;
  } catch (err) {
    await cluster.close();
    await rm(filesDir, { recursive: true, force: true });
    throw err;
  }
}
