/**
 * The real local portal for client tests. The service's modules cannot be loaded inside the jsdom
 * environment (Vite rewrites their `new URL(…, import.meta.url)` into a browser asset URL), so it
 * runs in a child Node process; tests talk to it over HTTP exactly like the browser does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const DEMO_PASSWORD = 'Portal.Demo.2026';

export interface ClientTestService {
  /** …/sharing/rest of the running service. */
  restUrl: string;
  orgId: string;
  partnerOrgId: string;
  /** Signs a demo account in (over HTTP) and returns its token and expiry. */
  tokenFor(username: string): Promise<{ token: string; expires: number }>;
  close(): Promise<void>;
}

/**
 * service-process.ts bundled (scripts/build-server.ts TEST_SERVICE_BUNDLE, built by the project's
 * global setup when stale): through tsx's hooks, loading the service cost each start about 2 of its
 * 5 s of CPU, and every file of these tests starts one.
 */
const SCRIPT = path.resolve(process.cwd(), 'dist/test-service/service-process.mjs');

export interface ClientTestServiceOptions {
  /** false: the portal runs with LOCAL_EXTRAS=off (no local extras, local-only operations unknown). */
  localExtras?: boolean;
  /** true: the webhook dispatcher runs too, so deliveries are attempted (off by default: most tests want no outbound calls). */
  webhookDeliveries?: boolean;
}

export async function startClientService(options: ClientTestServiceOptions = {}): Promise<ClientTestService> {
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', SCRIPT], {
    cwd: process.cwd(),
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOCAL_EXTRAS: options.localExtras === false ? 'off' : 'on',
      WEBHOOK_DELIVERIES: options.webhookDeliveries ? 'on' : 'off',
    },
  });
  const info = await new Promise<{ restUrl: string; orgId: string; partnerOrgId: string }>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the test service did not start in time\n${err}`)), 50_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the test service exited (${code})\n${err}`));
    });
  });

  return {
    ...info,
    async tokenFor(username) {
      const body = new URLSearchParams({ username, password: DEMO_PASSWORD, f: 'json', expiration: '60' });
      const res = await fetch(`${info.restUrl}/generateToken`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      const json = (await res.json()) as { token?: string; expires?: number };
      if (!json.token || !json.expires) throw new Error(`sign-in as ${username} failed: ${JSON.stringify(json)}`);
      return { token: json.token, expires: json.expires };
    },
    close() {
      return new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill('SIGTERM'), 5_000).unref();
      });
    },
  };
}
