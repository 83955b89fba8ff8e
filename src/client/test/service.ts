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
const SCRIPT = path.resolve(process.cwd(), 'dist/test-service/service-process.cjs');

export interface ClientTestServiceOptions {
  /** false: the portal runs with LOCAL_EXTRAS=off (no local extras, local-only operations unknown). */
  localExtras?: boolean;
  /** true: the webhook dispatcher runs too, so deliveries are attempted (off by default: most tests want no outbound calls). */
  webhookDeliveries?: boolean;
}

/**
 * A service process between files: its portal is stopped, Node and the loaded bundle stay. One per
 * kind of portal (the options and the search cap it was started with), per test worker.
 */
interface IdleProcess {
  child: ChildProcess;
  lines: LineReader;
}
const idle = new Map<string, IdleProcess>();

/** The lines a child writes on stdout, read one at a time. */
class LineReader {
  private buffered = '';
  private waiting: ((line: string) => void) | null = null;
  private readonly done: Promise<never>;
  err = '';
  constructor(child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString();
      this.deliver();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      this.err = (this.err + chunk.toString()).slice(-20_000);
    });
    this.done = new Promise<never>((_, reject) => {
      child.once('exit', (code) => reject(new Error(`the test service exited (${code})\n${this.err}`)));
    });
    this.done.catch(() => undefined);
  }
  private deliver() {
    const newline = this.buffered.indexOf('\n');
    if (newline < 0 || !this.waiting) return;
    const line = this.buffered.slice(0, newline);
    this.buffered = this.buffered.slice(newline + 1);
    const waiting = this.waiting;
    this.waiting = null;
    waiting(line);
  }
  /** The next line that `accept` takes (others, such as log lines, are skipped). */
  async next(accept: (line: string) => boolean, timeoutMs: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the test service did not answer in time\n${this.err}`)), timeoutMs);
    });
    try {
      for (;;) {
        const line = await Promise.race([new Promise<string>((resolve) => ((this.waiting = resolve), this.deliver())), this.done, timeout]);
        if (accept(line)) return line;
      }
    } finally {
      this.waiting = null;
      clearTimeout(timer);
    }
  }
}

/** Whether the child and its pipes keep the test worker alive: not while it waits between files. */
function holdWorker(child: ChildProcess, hold: boolean) {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as { ref?(): void; unref?(): void }[]) {
    if (hold) handle?.ref?.();
    else handle?.unref?.();
  }
}

const isInfo = (line: string) => line.startsWith('{');

export async function startClientService(options: ClientTestServiceOptions = {}): Promise<ClientTestService> {
  const env = {
    LOCAL_EXTRAS: options.localExtras === false ? 'off' : 'on',
    WEBHOOK_DELIVERIES: options.webhookDeliveries ? 'on' : 'off',
    MEMBER_SEARCH_CAP: process.env.MEMBER_SEARCH_CAP ?? '',
  };
  const kind = JSON.stringify(env);
  let reused = idle.get(kind);
  idle.delete(kind);
  if (reused && reused.child.exitCode !== null) reused = undefined;
  let child: ChildProcess;
  let lines: LineReader;
  if (reused) {
    ({ child, lines } = reused);
    holdWorker(child, true);
    child.stdin!.write('start\n');
  } else {
    child = spawn(process.execPath, ['--enable-source-maps', SCRIPT], {
      cwd: process.cwd(),
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test', ...env },
    });
    lines = new LineReader(child);
  }
  const info = JSON.parse(await lines.next(isInfo, 50_000)) as { restUrl: string; orgId: string; partnerOrgId: string };
  let closed = false;

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
    async close() {
      if (closed || child.exitCode !== null) return;
      closed = true;
      // The file is done: its portal stops; the process waits for the worker's next file.
      try {
        child.stdin!.write('stop\n');
        await lines.next((line) => line === 'stopped', 20_000);
      } catch {
        child.kill('SIGKILL');
        return;
      }
      const other = idle.get(kind);
      idle.set(kind, { child, lines });
      holdWorker(child, false);
      if (other) other.child.stdin!.end();
    },
  };
}
