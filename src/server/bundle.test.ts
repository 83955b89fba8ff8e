/**
 * `npm start` runs the service from its bundle (scripts/build-server.ts): built here into a folder
 * of its own and started as a process on a new data directory, it finds its migrations, template and
 * console from there and serves sign-in and the REST interface as the sources do, its worker thread
 * (the reference scan, an entry of its own beside main.cjs) included.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.ts';
import { LIMITS } from '../shared/limits.ts';
import { DEMO_PASSWORD } from './config.ts';
import { projectPath } from './projectPaths.ts';

const outDir = projectPath('dist', `bundle-test-${process.pid}`);
const dataDir = mkdtempSync(path.join(tmpdir(), 'bundle-test-'));
let proc: ChildProcess;
let rest: string;

beforeAll(async () => {
  await buildServer(path.join(outDir, 'main.cjs'));
  proc = spawn(process.execPath, [path.join(outDir, 'main.cjs')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'on', PORTAL_ADMIN_PASSWORD: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  rest = await new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /REST: (http:\/\/[^)\s]+)/.exec(output);
      if (m) resolve(m[1]);
    };
    proc.stdout!.on('data', seen);
    proc.stderr!.on('data', seen);
    proc.on('exit', (code) => reject(new Error(`the bundled service exited with ${code}:\n${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (proc && proc.exitCode === null) {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** A form POST to the bundled service's REST interface (with `token` when given), its JSON answer. */
const post = (restPath: string, fields: Record<string, string>, token?: string) =>
  fetch(`${rest}/${restPath}`, { method: 'POST', body: new URLSearchParams({ ...fields, f: 'json', ...(token ? { token } : {}) }) }).then(
    (r) => r.json() as Promise<Record<string, unknown>>,
  );
const signIn = (password: string) => post('generateToken', { username: 'publisher1', password, referer: 'http://localhost' });

describe('the service bundle npm start runs', () => {
  it('migrates a new data directory, seeds the demo accounts and signs them in', async () => {
    const token = (await signIn(DEMO_PASSWORD)) as { token?: string; error?: unknown };
    expect(token.error).toBeUndefined();
    expect(token.token).toMatch(/\S{20,}/);
    const self = await fetch(`${rest}/portals/self?f=json&token=${token.token}`).then(
      (r) => r.json() as Promise<{ user?: { username: string }; name?: string }>,
    );
    expect(self.user?.username).toBe('publisher1');
    expect(self.name).toBe('Demo Organization');
    const wrong = (await signIn(`${DEMO_PASSWORD}x`)) as { error?: { code: number } };
    expect(wrong.error?.code).toBe(400);
  });

  it("indexes a large map's references on the bundle's worker thread", async () => {
    const { token } = (await signIn(DEMO_PASSWORD)) as { token: string };
    const layer = await post(
      'content/users/publisher1/addItem',
      { title: 'Roads', type: 'Feature Service', url: 'https://127.0.0.1/arcgis/rest/services/Roads/FeatureServer' },
      token,
    );
    // Past the bound above which item data is parsed off the request thread (areas/dependencies/scanOffThread.ts).
    const text = JSON.stringify({
      operationalLayers: [{ id: 'a', layerType: 'ArcGISFeatureLayer', itemId: layer.id, title: 'x'.repeat(LIMITS.referenceParseOnThreadBytes + 10_000) }],
      version: '2.31',
    });
    const map = await post('content/users/publisher1/addItem', { title: 'Large map', type: 'Web Map', text }, token);
    expect(map.success, JSON.stringify(map).slice(0, 300)).toBe(true);
    const dependents = (await post(`content/items/${layer.id as string}/dependents`, {}, token)) as { items?: { id: string }[] };
    expect(dependents.items?.map((i) => i.id)).toEqual([map.id]);
  });
});
